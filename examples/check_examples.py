#!/usr/bin/python3
"""A tiny, slow, independent evaluator of the Strata text form, used only to
check that the example programs (examples/*.strata) are well-formed, use the
types LANGUAGE.md requires, and compute the expected outputs that make_data.py
derived with NumPy from the formulas.  It is NOT the reference interpreter and
is not run by CI: run it by hand with  /usr/bin/python3 examples/check_examples.py [NAME...]

What it enforces while evaluating (a dynamic approximation of the type rules):
  - every lambda parameter's written type matches the argument it receives;
  - operands of a primitive have exactly the same scalar type (no implicit
    conversions), literals take the type of their suffix (unsuffixed: i64/f64);
  - the array operand of shape/size/!/!!/the is an array variable;
  - indices are tuples of i64, in range; reshape sizes agree.
Semantics follow LANGUAGE.md (wrapping integers, oracle order left to right,
scanr ending with the seed, stencil boundaries, ...).
"""

import math
import os
import re
import sys
import warnings

import numpy as np

sys.dont_write_bytecode = True  # keep examples/ free of __pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_data import HERE, read_program  # noqa: E402

warnings.filterwarnings("ignore")
np.seterr(all="ignore")

SCALARS = {
    "bool": np.bool_, "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
    "u8": np.uint8, "u16": np.uint16, "u32": np.uint32, "u64": np.uint64,
    "f32": np.float32, "f64": np.float64,
}
NAME_OF = {v: k for k, v in SCALARS.items()}
INTS = {"i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64"}
FLOATS = {"f32", "f64"}


class StrataError(Exception):
    pass


def fail(msg):
    raise StrataError(msg)


# ------------------------------------------------------------------------ types

def parse_type(t):
    if isinstance(t, str):
        if t not in SCALARS:
            fail(f"unknown type {t}")
        return t
    head = t[0]
    if head == "tuple":
        return ("tuple", tuple(parse_type(x) for x in t[1:]))
    if head == "ix":
        return ("tuple", ("i64",) * int(t[1]))
    if head == "array":
        return ("array", parse_type(t[1]), int(t[2]))
    if head == "window":
        return ("window", parse_type(t[1]), int(t[2]))
    fail(f"bad type {t}")


class Arr:
    def __init__(self, shape, data, etype):
        self.shape = tuple(int(d) for d in shape)
        self.data = list(data)
        self.etype = etype
        if len(self.data) != math.prod(self.shape):
            fail(f"internal: {len(self.data)} elements for shape {self.shape}")


class ATup(list):
    pass


class Win:
    def __init__(self, arr, center, boundary, sizes):
        self.arr, self.center, self.boundary, self.sizes = arr, center, boundary, sizes


def vtype(v):
    if isinstance(v, Arr):
        return ("array", v.etype, len(v.shape))
    if isinstance(v, ATup):
        return ("tuple", tuple(vtype(x) for x in v))
    if isinstance(v, Win):
        return ("window", v.arr.etype, len(v.arr.shape))
    if isinstance(v, tuple):
        return ("tuple", tuple(vtype(x) for x in v))
    t = type(v)
    if t not in NAME_OF:
        fail(f"internal: untyped value {v!r} ({t})")
    return NAME_OF[t]


def same_type(want, got):
    if want == got:
        return True
    if isinstance(want, tuple) and isinstance(got, tuple) and want[0] == got[0]:
        if want[0] in ("array", "window"):
            return want[2] == got[2] and (got[1] is None or same_type(want[1], got[1]))
        if want[0] == "tuple":
            return len(want[1]) == len(got[1]) and all(
                same_type(a, b) for a, b in zip(want[1], got[1]))
    return False


# --------------------------------------------------------------------- literals

INT_RE = re.compile(r"^[+-]?\d+(i8|i16|i32|i64|u8|u16|u32|u64)?$")
FLOAT_RE = re.compile(r"^([+-]?(\d+\.\d*([eE][+-]?\d+)?|\d+[eE][+-]?\d+|\d+|inf|nan))(f32|f64)?$")


def literal(tok):
    if tok == "true":
        return np.bool_(True)
    if tok == "false":
        return np.bool_(False)
    m = INT_RE.match(tok)
    if m:
        suffix = m.group(1) or "i64"
        digits = tok[:len(tok) - len(m.group(1) or "")]
        t = SCALARS[suffix]
        info = np.iinfo(t)
        v = int(digits)
        if not info.min <= v <= info.max:
            fail(f"literal {tok} out of range")
        return t(v)
    m = FLOAT_RE.match(tok)
    if m:
        body, suffix = m.group(1), m.group(4)
        if suffix is None:
            if "inf" in body or "nan" in body or not ("." in body or "e" in body.lower()):
                return None  # `inf`, `3` without suffix are not f64 literals here
            suffix = "f64"
        return SCALARS[suffix](float(body))
    return None


def literal_as(tok, t):
    """A value of a `use` literal, taking the element type t (a suffix must agree)."""
    if isinstance(t, tuple):
        if not isinstance(tok, list) or len(tok) != len(t[1]):
            fail(f"use: value {tok} does not match {t}")
        return tuple(literal_as(x, tt) for x, tt in zip(tok, t[1]))
    if t == "bool":
        v = literal(tok)
        if type(v) is not np.bool_:
            fail(f"use: {tok} is not a bool")
        return v
    stripped = re.sub(r"(i8|i16|i32|i64|u8|u16|u32|u64|f32|f64)$", "", tok)
    if stripped != tok and not tok.endswith(t):
        fail(f"use: literal {tok} disagrees with element type {t}")
    if t in INTS:
        if not re.match(r"^[+-]?\d+$", stripped):
            fail(f"use: {tok} is not an integer")
        return SCALARS[t](int(stripped))
    return SCALARS[t](float(stripped))


# ------------------------------------------------------------------- primitives

def is_int(v):
    return NAME_OF.get(type(v)) in INTS


def is_float(v):
    return NAME_OF.get(type(v)) in FLOATS


def wrap(t, x):
    bits = np.iinfo(t).bits
    x &= (1 << bits) - 1
    if np.iinfo(t).min < 0 and x >= 1 << (bits - 1):
        x -= 1 << bits
    return t(x)


def prim(op, args):
    if len(set(type(a) for a in args)) != 1:
        fail(f"({op} ...): operand types differ: {[vtype(a) for a in args]}")
    a = args[0]
    t = type(a)
    name = NAME_OF.get(t)
    if name is None:
        fail(f"({op} ...): operand is not a scalar: {vtype(a)}")
    b = args[1] if len(args) > 1 else None
    num = name != "bool"
    if op in ("+", "-", "*") and num:
        if is_int(a):
            x = {"+": int(a) + int(b), "-": int(a) - int(b), "*": int(a) * int(b)}[op]
            return wrap(t, x)
        return t({"+": a + b, "-": a - b, "*": a * b}[op])
    if op == "neg" and num:
        return wrap(t, -int(a)) if is_int(a) else t(-a)
    if op == "abs" and num:
        return wrap(t, abs(int(a))) if is_int(a) else t(abs(a))
    if op == "signum" and num:
        return t(np.sign(a))
    if op in ("min", "max") and num:
        if is_float(a):
            return t(np.fmin(a, b) if op == "min" else np.fmax(a, b))
        return min(a, b) if op == "min" else max(a, b)
    if op == "/" and is_float(a):
        return t(a / b)
    if op in ("quot", "rem", "div", "mod") and is_int(a):
        x, y = int(a), int(b)
        if y == 0:
            fail(f"division by zero in {op}")
        q = abs(x) // abs(y) * (1 if (x >= 0) == (y >= 0) else -1)
        r = x - q * y
        if op in ("div", "mod") and r != 0 and (r < 0) != (y < 0):
            q, r = q - 1, r + y
        return wrap(t, q if op in ("quot", "div") else r)
    if op in ("==", "/=", "<", "<=", ">", ">="):
        return np.bool_({"==": a == b, "/=": a != b, "<": a < b, "<=": a <= b,
                         ">": a > b, ">=": a >= b}[op])
    if op == "not" and name == "bool":
        return np.bool_(not a)
    if op in ("band", "bor", "bxor") and is_int(a):
        return t({"band": a & b, "bor": a | b, "bxor": a ^ b}[op])
    if op == "bnot" and is_int(a):
        return t(~a)
    if is_float(a):
        f1 = {"sqrt": np.sqrt, "exp": np.exp, "log": np.log, "sin": np.sin, "cos": np.cos,
              "tan": np.tan, "asin": np.arcsin, "acos": np.arccos, "atan": np.arctan,
              "sinh": np.sinh, "cosh": np.cosh, "tanh": np.tanh, "floor": np.floor,
              "ceil": np.ceil, "trunc": np.trunc}
        if op in f1:
            return t(f1[op](a))
        if op == "round":
            return t(np.sign(a) * np.floor(np.abs(a) + t(0.5)))
        if op == "atan2":
            return t(np.arctan2(a, b))
        if op == "pow":
            return t(np.power(a, b))
        if op == "isnan":
            return np.bool_(np.isnan(a))
        if op == "isinf":
            return np.bool_(np.isinf(a))
    fail(f"({op} ...) is not defined on {name}")


PRIM_ARITY = {
    "+": 2, "-": 2, "*": 2, "neg": 1, "abs": 1, "signum": 1, "min": 2, "max": 2, "/": 2,
    "quot": 2, "rem": 2, "div": 2, "mod": 2, "==": 2, "/=": 2, "<": 2, "<=": 2, ">": 2,
    ">=": 2, "and": 2, "or": 2, "not": 1, "band": 2, "bor": 2, "bxor": 2, "bnot": 1,
    "shl": 2, "shr": 2, "popcount": 1, "clz": 1, "ctz": 1, "sqrt": 1, "exp": 1, "log": 1,
    "sin": 1, "cos": 1, "tan": 1, "asin": 1, "acos": 1, "atan": 1, "sinh": 1, "cosh": 1,
    "tanh": 1, "atan2": 2, "pow": 2, "floor": 1, "ceil": 1, "round": 1, "trunc": 1,
    "isnan": 1, "isinf": 1,
}


def cast(tname, v):
    t = SCALARS[tname]
    src = NAME_OF[type(v)]
    if tname == "bool":
        return np.bool_(v != 0)
    if src == "bool":
        return t(1 if v else 0)
    if tname in INTS:
        if src in INTS:
            return wrap(t, int(v))
        if np.isnan(v):
            return t(0)
        info = np.iinfo(t)
        if np.isinf(v):
            return t(info.max if v > 0 else info.min)
        return t(min(max(int(math.trunc(float(v))), info.min), info.max))
    return t(int(v)) if src in INTS else t(v)


# ------------------------------------------------------------------- evaluation

def index_tuple(v, what):
    if not isinstance(v, tuple) or any(type(c) is not np.int64 for c in v):
        fail(f"{what}: expected an index (tuple of i64), got {vtype(v)}")
    return tuple(int(c) for c in v)


def linear(shape, idx, what):
    if len(idx) != len(shape) or any(not 0 <= i < n for i, n in zip(idx, shape)):
        fail(f"{what}: index {idx} out of range for shape {shape}")
    pos = 0
    for i, n in zip(idx, shape):
        pos = pos * n + i
    return pos


def unlinear(shape, pos):
    idx = []
    for n in reversed(shape):
        idx.append(pos % n if n else 0)
        pos = pos // n if n else 0
    return tuple(reversed(idx))


def all_indices(shape):
    for pos in range(math.prod(shape)):
        yield unlinear(shape, pos)


def ix(idx):
    return tuple(np.int64(i) for i in idx)


def array_var(env, e, what):
    if not isinstance(e, str):
        fail(f"({what} ...): the array operand must be an array variable, got {e}")
    v = env.get(e)
    if not isinstance(v, Arr):
        fail(f"({what} {e}): not an array variable")
    return v


class Closure:
    def __init__(self, lam, env, acc_body=False):
        if not (isinstance(lam, list) and lam[0] == "lambda" and len(lam) == 3):
            fail(f"expected (lambda (params) body), got {lam}")
        self.params = [(p[0], parse_type(p[1])) for p in lam[1]]
        self.body, self.env, self.acc_body = lam[2], env, acc_body

    def __call__(self, *args):
        if len(args) != len(self.params):
            fail(f"lambda with {len(self.params)} parameters applied to {len(args)} arguments")
        env = dict(self.env)
        for (name, t), a in zip(self.params, args):
            if not same_type(t, vtype(a)):
                fail(f"lambda parameter {name}: declared {t}, argument is {vtype(a)}")
            env[name] = a
        return eval_acc(self.body, env) if self.acc_body else eval_exp(self.body, env)


def eval_exp(e, env):
    if isinstance(e, str):
        lit = literal(e)
        if lit is not None:
            return lit
        if e not in env:
            fail(f"unbound variable {e}")
        v = env[e]
        if isinstance(v, (Arr, ATup)):
            fail(f"array variable {e} used as a scalar")
        return v
    head, rest = e[0], e[1:]
    if head == "let":
        env = dict(env)
        for name, val in rest[0]:
            env[name] = eval_exp(val, env)
        return eval_exp(rest[1], env)
    if head == "if":
        c = eval_exp(rest[0], env)
        if type(c) is not np.bool_:
            fail(f"if: condition is {vtype(c)}")
        return eval_exp(rest[1] if c else rest[2], env)
    if head == "tuple":
        return tuple(eval_exp(x, env) for x in rest)
    if head == "proj":
        t = eval_exp(rest[1], env)
        k = int(rest[0])
        if not isinstance(t, tuple) or not 0 <= k < len(t):
            fail(f"proj {k} of {vtype(t)}")
        return t[k]
    if head == "ix":
        v = tuple(eval_exp(x, env) for x in rest)
        index_tuple(v, "ix")
        return v
    if head == "cast":
        return cast(rest[0], eval_exp(rest[1], env))
    if head == "while":
        cond, step = Closure(rest[0], env), Closure(rest[1], env)
        s = eval_exp(rest[2], env)
        while True:
            c = cond(s)
            if type(c) is not np.bool_:
                fail("while: condition is not bool")
            if not c:
                return s
            s2 = step(s)
            if not same_type(vtype(s), vtype(s2)):
                fail("while: step changes the state type")
            s = s2
    if head == "shape":
        return ix(array_var(env, rest[0], "shape").shape)
    if head == "size":
        return np.int64(len(array_var(env, rest[0], "size").data))
    if head == "!":
        a = array_var(env, rest[0], "!")
        return a.data[linear(a.shape, index_tuple(eval_exp(rest[1], env), "!"), "!")]
    if head == "!!":
        a = array_var(env, rest[0], "!!")
        i = eval_exp(rest[1], env)
        if type(i) is not np.int64 or not 0 <= i < len(a.data):
            fail(f"!!: bad linear index {i}")
        return a.data[int(i)]
    if head == "the":
        a = array_var(env, rest[0], "the")
        if a.shape != ():
            fail("the: array is not rank 0")
        return a.data[0]
    if head == "to-index":
        sh = index_tuple(eval_exp(rest[0], env), "to-index")
        return np.int64(linear(sh, index_tuple(eval_exp(rest[1], env), "to-index"), "to-index"))
    if head == "from-index":
        sh = index_tuple(eval_exp(rest[0], env), "from-index")
        return ix(unlinear(sh, int(eval_exp(rest[1], env))))
    if head == "ignore":
        return ix((-1,) * int(rest[0]))
    if head == "trace":
        return eval_exp(rest[1], env)
    if head == "at":
        w = env.get(rest[0])
        if not isinstance(w, Win):
            fail(f"at: {rest[0]} is not a window")
        offs = [int(o) for o in rest[1:]]
        if len(offs) != len(w.sizes) or any(abs(o) > s // 2 for o, s in zip(offs, w.sizes)):
            fail(f"at: offsets {offs} outside the window {w.sizes}")
        return stencil_read(w, offs)
    if head in ("and", "or"):
        a = eval_exp(rest[0], env)
        if type(a) is not np.bool_:
            fail(f"{head}: operand is not bool")
        if (head == "and" and not a) or (head == "or" and a):
            return a
        b = eval_exp(rest[1], env)
        if type(b) is not np.bool_:
            fail(f"{head}: operand is not bool")
        return b
    if head in PRIM_ARITY:
        if len(rest) != PRIM_ARITY[head]:
            fail(f"({head} ...) takes {PRIM_ARITY[head]} operands, got {len(rest)}")
        return prim(head, [eval_exp(x, env) for x in rest])
    fail(f"unknown scalar form {head}")


def stencil_read(w, offs):
    arr, idx = w.arr, []
    for c, o, n in zip(w.center, offs, arr.shape):
        i = c + o
        if 0 <= i < n:
            idx.append(i)
            continue
        kind = w.boundary[0]
        if kind == "constant":
            return w.boundary[1]
        if kind == "clamp":
            i = min(max(i, 0), n - 1)
        elif kind == "mirror":
            i = -i if i < 0 else 2 * (n - 1) - i
        elif kind == "wrap":
            i %= n
        idx.append(i)
    return arr.data[linear(arr.shape, tuple(idx), "stencil")]


def spec_items(spec, env):
    if not (isinstance(spec, list) and spec[0] == "spec"):
        fail(f"expected (spec ...), got {spec}")
    out = []
    for s in spec[1:]:
        if s == "all":
            out.append(None)
        else:
            v = eval_exp(s, env)
            if type(v) is not np.int64:
                fail(f"spec entry {s} is {vtype(v)}, not i64")
            out.append(int(v))
    return out


def rows(a):
    """(outer shape, n, list of rows) for reductions along the innermost dimension."""
    if not a.shape:
        fail("reduction of a rank-0 array")
    n = a.shape[-1]
    return a.shape[:-1], n, [a.data[r * n:(r + 1) * n] for r in range(math.prod(a.shape[:-1]))]


def elem_type(values, fallback=None):
    return vtype(values[0]) if values else fallback


def eval_acc(e, env):
    if isinstance(e, str):
        v = env.get(e)
        if not isinstance(v, (Arr, ATup)):
            fail(f"{e} is not an array variable")
        return v
    head, rest = e[0], e[1:]
    if head == "alet":
        env = dict(env)
        for name, val in rest[0]:
            env[name] = eval_acc(val, env)
        return eval_acc(rest[1], env)
    if head == "atuple":
        return ATup(eval_acc(x, env) for x in rest)
    if head == "aproj":
        t = eval_acc(rest[1], env)
        if not isinstance(t, ATup):
            fail("aproj of a non-tuple")
        return t[int(rest[0])]
    if head == "use":
        lit = rest[0]
        if lit[0] != "array":
            fail("use: expected (array E (dims) v ...)")
        t = parse_type(lit[1])
        dims = [int(d) for d in lit[2]]
        vals = [literal_as(v, t) for v in lit[3:]]
        return Arr(dims, vals, t)
    if head == "unit":
        v = eval_exp(rest[0], env)
        return Arr((), [v], vtype(v))
    if head == "generate":
        sh = index_tuple(eval_exp(rest[0], env), "generate")
        f = Closure(rest[1], env)
        vals = [f(ix(i)) for i in all_indices(sh)]
        return Arr(sh, vals, elem_type(vals))
    if head == "fill":
        sh = index_tuple(eval_exp(rest[0], env), "fill")
        v = eval_exp(rest[1], env)
        return Arr(sh, [v] * math.prod(sh), vtype(v))
    if head == "map":
        f, a = Closure(rest[0], env), eval_acc(rest[1], env)
        vals = [f(x) for x in a.data]
        return Arr(a.shape, vals, elem_type(vals))
    if head == "zipwith":
        f, a, b = Closure(rest[0], env), eval_acc(rest[1], env), eval_acc(rest[2], env)
        if len(a.shape) != len(b.shape):
            fail("zipwith: ranks differ")
        sh = tuple(min(x, y) for x, y in zip(a.shape, b.shape))
        vals = [f(a.data[linear(a.shape, i, "zipwith")], b.data[linear(b.shape, i, "zipwith")])
                for i in all_indices(sh)]
        return Arr(sh, vals, elem_type(vals))
    if head in ("fold", "fold1"):
        f = Closure(rest[0], env)
        z = eval_exp(rest[1], env) if head == "fold" else None
        a = eval_acc(rest[-1], env)
        outer, n, rs = rows(a)
        out = []
        for r in rs:
            if head == "fold1":
                if n == 0:
                    fail("fold1 of an empty row")
                acc, r = r[0], r[1:]
            else:
                acc = z
            for x in r:
                acc = f(acc, x)
            out.append(acc)
        return Arr(outer, out, elem_type(out))
    if head == "foldseg":
        f, z = Closure(rest[0], env), eval_exp(rest[1], env)
        a, segs = eval_acc(rest[2], env), eval_acc(rest[3], env)
        if segs.etype != "i64" or len(segs.shape) != 1:
            fail("foldseg: segments must be (array i64 1)")
        outer, n, rs = rows(a)
        lens = [int(s) for s in segs.data]
        if sum(lens) != n:
            fail("foldseg: segment lengths do not sum to the row length")
        out = []
        for r in rs:
            start = 0
            for ln in lens:
                acc = z
                for x in r[start:start + ln]:
                    acc = f(acc, x)
                out.append(acc)
                start += ln
        return Arr(outer + (len(lens),), out, vtype(z))
    if head in ("scanl", "scanl1", "scanr", "scanr1", "scanl'"):
        f = Closure(rest[0], env)
        seeded = head in ("scanl", "scanr", "scanl'")
        z = eval_exp(rest[1], env) if seeded else None
        a = eval_acc(rest[-1], env)
        outer, n, rs = rows(a)
        out, totals = [], []
        for r in rs:
            if head in ("scanl", "scanl'"):
                res = [z]
                for x in r:
                    res.append(f(res[-1], x))
                if head == "scanl'":
                    totals.append(res[-1])
                    res = res[:-1]
            elif head == "scanl1":
                res = []
                for x in r:
                    res.append(x if not res else f(res[-1], x))
            elif head == "scanr":
                res = [z]
                for x in reversed(r):
                    res.append(f(x, res[-1]))
                res.reverse()
            else:  # scanr1
                res = []
                for x in reversed(r):
                    res.append(x if not res else f(x, res[-1]))
                res.reverse()
            out.extend(res)
        et = vtype(z) if seeded else a.etype
        m = n + 1 if head in ("scanl", "scanr") else n
        scanned = Arr(outer + (m,), out, et)
        if head == "scanl'":
            return ATup([scanned, Arr(outer, totals, et)])
        return scanned
    if head == "permute":
        comb = Closure(rest[0], env)
        defs = eval_acc(rest[1], env)
        target = Closure(rest[2], env)
        src = eval_acc(rest[3], env)
        data = list(defs.data)
        ignore = (-1,) * len(defs.shape)
        for i in all_indices(src.shape):
            t = index_tuple(target(ix(i)), "permute")
            if t == ignore:
                continue
            p = linear(defs.shape, t, "permute")
            data[p] = comb(src.data[linear(src.shape, i, "permute")], data[p])
        return Arr(defs.shape, data, defs.etype)
    if head == "backpermute":
        sh = index_tuple(eval_exp(rest[0], env), "backpermute")
        f, a = Closure(rest[1], env), eval_acc(rest[2], env)
        vals = [a.data[linear(a.shape, index_tuple(f(ix(i)), "backpermute"), "backpermute")]
                for i in all_indices(sh)]
        return Arr(sh, vals, a.etype)
    if head == "reshape":
        sh = index_tuple(eval_exp(rest[0], env), "reshape")
        a = eval_acc(rest[1], env)
        if math.prod(sh) != len(a.data):
            fail(f"reshape: {sh} vs {a.shape}")
        return Arr(sh, a.data, a.etype)
    if head == "replicate":
        spec = spec_items(rest[0], env)
        a = eval_acc(rest[1], env)
        if sum(1 for s in spec if s is None) != len(a.shape):
            fail("replicate: number of `all` entries differs from the source rank")
        src_dims = iter(a.shape)
        sh = tuple(next(src_dims) if s is None else s for s in spec)
        vals = []
        for i in all_indices(sh):
            si = tuple(c for c, s in zip(i, spec) if s is None)
            vals.append(a.data[linear(a.shape, si, "replicate")])
        return Arr(sh, vals, a.etype)
    if head == "slice":
        a = eval_acc(rest[0], env)
        spec = spec_items(rest[1], env)
        if len(spec) != len(a.shape):
            fail("slice: spec length differs from the source rank")
        sh = tuple(n for n, s in zip(a.shape, spec) if s is None)
        vals = []
        for i in all_indices(sh):
            it = iter(i)
            si = tuple(next(it) if s is None else s for s in spec)
            vals.append(a.data[linear(a.shape, si, "slice")])
        return Arr(sh, vals, a.etype)
    if head == "stencil":
        sizes = [int(w) for w in rest[0]]
        b = rest[1]
        if isinstance(b, list):
            if b[0] != "constant":
                fail(f"bad boundary {b}")
            boundary = ("constant", eval_exp(b[1], env))
        elif b in ("clamp", "mirror", "wrap"):
            boundary = (b,)
        else:
            fail(f"bad boundary {b}")
        f = Closure(rest[2], env)
        a = eval_acc(rest[3], env)
        if len(sizes) != len(a.shape) or any(s % 2 == 0 for s in sizes):
            fail("stencil: window sizes must be odd, one per dimension")
        if boundary[0] == "constant" and not same_type(a.etype, vtype(boundary[1])):
            fail("stencil: constant boundary of the wrong type")
        vals = [f(Win(a, i, boundary, sizes)) for i in all_indices(a.shape)]
        return Arr(a.shape, vals, elem_type(vals))
    if head == "awhile":
        cond = Closure(rest[0], env, acc_body=True)
        body = Closure(rest[1], env, acc_body=True)
        s = eval_acc(rest[2], env)
        while True:
            c = cond(s)
            if not isinstance(c, Arr) or c.shape != () or c.etype != "bool":
                fail("awhile: condition must give (array bool 0)")
            if not c.data[0]:
                return s
            s = body(s)
    if head == "atrace":
        return eval_acc(rest[1], env)
    if head == "acond":
        c = eval_exp(rest[0], env)
        return eval_acc(rest[1] if c else rest[2], env)
    fail(f"unknown array form {head}")


# ------------------------------------------------------------------------ driver

def to_numpy(a):
    if not isinstance(a, Arr) or isinstance(a.etype, tuple):
        fail("result component is not an array of scalars")
    return np.array(a.data, dtype=SCALARS[a.etype]).reshape(a.shape)


def check(name):
    prog = read_program(os.path.join(HERE, name + ".strata"))
    env = {}
    for pname, ptype in prog[1]:
        t = parse_type(ptype)
        x = np.load(os.path.join(HERE, name, pname + ".npy"))
        if x.ndim != t[2] or NAME_OF[x.dtype.type] != t[1]:
            fail(f"{pname}.npy is {x.dtype}{x.shape}, parameter type {t}")
        env[pname] = Arr(x.shape, [x.dtype.type(v) for v in x.reshape(-1)], t[1])
    result = eval_acc(prog[2], env)
    if isinstance(result, ATup):
        got = [to_numpy(r) for r in result]
        want = [np.load(os.path.join(HERE, name, f"expected.{k}.npy")) for k in range(len(got))]
        extra = os.path.join(HERE, name, f"expected.{len(got)}.npy")
        if os.path.exists(extra):
            fail(f"more expected files than result components")
    else:
        got = [to_numpy(result)]
        want = [np.load(os.path.join(HERE, name, "expected.npy"))]
    notes = []
    for k, (g, w) in enumerate(zip(got, want)):
        if g.dtype != w.dtype or g.shape != w.shape:
            fail(f"component {k}: got {g.dtype}{g.shape}, expected {w.dtype}{w.shape}")
        if np.array_equal(g, w):
            notes.append("exact")
            continue
        if g.dtype.kind != "f":
            fail(f"component {k}: integer/bool results differ:\n{g}\nvs\n{w}")
        err = np.abs(g.astype(np.float64) - w.astype(np.float64))
        rel = np.max(err / np.maximum(np.abs(w.astype(np.float64)), 1e-30))
        notes.append(f"max abs err {err.max():.3g}, max rel err {rel:.3g}")
        rtol = 1e-5 if g.dtype == np.float32 else 1e-12
        if not np.allclose(g, w, rtol=rtol, atol=rtol):
            fail(f"component {k}: differs beyond rtol {rtol}")
    return notes


def main():
    names = sys.argv[1:] or sorted(f[:-7] for f in os.listdir(HERE) if f.endswith(".strata"))
    bad = 0
    for name in names:
        try:
            print(f"{name}: ok ({'; '.join(check(name))})")
        except StrataError as err:
            bad += 1
            print(f"{name}: FAILED: {err}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
