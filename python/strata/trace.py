"""Strata written as Python: @strata.function traces a Python function over
typed symbolic values into a Strata program (docs/python.md, Writing
programs in Python), as the C++ front end does.

    @strata.function
    def saxpy(xs: strata.Array[strata.f32, 1], ys: strata.Array[strata.f32, 1]):
        return strata.zipwith(lambda x, y: 2.5 * x + y, xs, ys)

Array operations (strata.map, zipwith, fold, ...) build array nodes; the
lambdas passed to them are called once on symbolic scalars whose operators
build scalar code. An array node used more than once, or read from scalar
code, is bound once with `alet` (sharing recovery), so it is computed once.
"""

import inspect

import numpy as _np

_NAMES = {
    _np.dtype(_np.bool_): "bool",
    _np.dtype(_np.int8): "i8", _np.dtype(_np.int16): "i16",
    _np.dtype(_np.int32): "i32", _np.dtype(_np.int64): "i64",
    _np.dtype(_np.uint8): "u8", _np.dtype(_np.uint16): "u16",
    _np.dtype(_np.uint32): "u32", _np.dtype(_np.uint64): "u64",
    _np.dtype(_np.float32): "f32", _np.dtype(_np.float64): "f64",
}
_FLOATS = ("f32", "f64")


def _elem_name(dtype):
    try:
        return _NAMES[_np.dtype(dtype)]
    except (TypeError, KeyError):
        raise TypeError(f"{dtype!r} is not a Strata element type (strata.f32, strata.i64, ...)") from None


class ArrayType:
    """The type of a parameter: strata.Array[strata.f32, 1]."""

    def __init__(self, elem, rank):
        self.elem, self.rank = _elem_name(elem), int(rank)

    def __str__(self):
        return f"(array {self.elem} {self.rank})"

    __repr__ = __str__


class Array:
    """Annotation of an array parameter: `xs: strata.Array[strata.f32, 1]`."""

    def __class_getitem__(cls, key):
        elem, rank = key
        return ArrayType(elem, rank)


def _literal(value, type_):
    """A Python number as a literal of `type_`."""
    if type_ == "bool":
        return "true" if value else "false"
    if type_ in _FLOATS:
        v = float(value)
        if v != v:
            return "nan" + type_
        if v in (float("inf"), float("-inf")):
            return ("-inf" if v < 0 else "inf") + type_
        return repr(v) + type_
    if isinstance(value, float) and not value.is_integer():
        raise TypeError(f"{value} is not a value of {type_}: use strata.cast to convert")
    return f"{int(value)}{type_}"


class Exp:
    """A symbolic scalar of a traced lambda: Python operators build Strata code."""

    __slots__ = ("text", "type", "arrays")

    def __init__(self, text, type_, arrays=()):
        self.text, self.type, self.arrays = text, type_, tuple(arrays)

    def __bool__(self):
        raise TypeError("a traced value has no truth value while tracing: use strata.where(c, a, b) "
                        "instead of `if`, and & | ~ instead of `and or not`")

    def _op(self, name, other, result=None, swap=False):
        o = _lift(other, self.type)
        if o.type != self.type:
            raise TypeError(f"`{name}` of {self.type} and {o.type}: convert one with strata.cast")
        a, b = (o, self) if swap else (self, o)
        return Exp(f"({name} {a.text} {b.text})", result or self.type, self.arrays + o.arrays)

    def __add__(self, o): return self._op("+", o)
    def __radd__(self, o): return self._op("+", o, swap=True)
    def __sub__(self, o): return self._op("-", o)
    def __rsub__(self, o): return self._op("-", o, swap=True)
    def __mul__(self, o): return self._op("*", o)
    def __rmul__(self, o): return self._op("*", o, swap=True)

    def __truediv__(self, o):
        if self.type not in _FLOATS:
            raise TypeError(f"`/` of {self.type}: use // (floor division) or % on integers")
        return self._op("/", o)

    def __rtruediv__(self, o):
        if self.type not in _FLOATS:
            raise TypeError(f"`/` of {self.type}: use // (floor division) or % on integers")
        return self._op("/", o, swap=True)

    # Python's // and % round toward minus infinity: Strata's `div` and `mod`.
    def __floordiv__(self, o): return self._op("div", o)
    def __rfloordiv__(self, o): return self._op("div", o, swap=True)
    def __mod__(self, o): return self._op("mod", o)
    def __rmod__(self, o): return self._op("mod", o, swap=True)
    def __lt__(self, o): return self._op("<", o, "bool")
    def __le__(self, o): return self._op("<=", o, "bool")
    def __gt__(self, o): return self._op(">", o, "bool")
    def __ge__(self, o): return self._op(">=", o, "bool")
    def __eq__(self, o): return self._op("==", o, "bool")  # noqa: E704
    def __ne__(self, o): return self._op("/=", o, "bool")
    def __and__(self, o): return self._op("and" if self.type == "bool" else "band", o)
    def __or__(self, o): return self._op("or" if self.type == "bool" else "bor", o)
    def __xor__(self, o): return self._op("bxor", o)
    def __neg__(self): return Exp(f"(neg {self.text})", self.type, self.arrays)
    def __abs__(self): return Exp(f"(abs {self.text})", self.type, self.arrays)

    def __invert__(self):
        return Exp(f"({'not' if self.type == 'bool' else 'bnot'} {self.text})", self.type, self.arrays)

    __hash__ = None


def _lift(value, type_):
    if isinstance(value, Exp):
        return value
    if isinstance(value, (bool, int, float, _np.number, _np.bool_)):
        return Exp(_literal(value, type_), type_)
    raise TypeError(f"{type(value).__name__} in traced scalar code: only numbers and traced values")


def _unary(name):
    def f(x):
        x = _lift(x, "f64")
        return Exp(f"({name} {x.text})", x.type, x.arrays)
    f.__name__ = name
    f.__doc__ = f"Strata's `{name}` of a traced scalar."
    return f


sqrt, exp, log, sin, cos, tan, tanh, floor, ceil = (
    _unary(n) for n in ("sqrt", "exp", "log", "sin", "cos", "tan", "tanh", "floor", "ceil"))


def min(a, b):  # noqa: A001 (strata.min: Strata's scalar `min`)
    """The smaller of two traced scalars (Strata's `min`)."""
    return _lift(a, _lift(b, "f64").type)._op("min", b)


def max(a, b):  # noqa: A001
    """The larger of two traced scalars (Strata's `max`)."""
    return _lift(a, _lift(b, "f64").type)._op("max", b)


def where(cond, a, b):
    """`a` where `cond` holds, else `b` (Strata's `if`; only the branch taken is evaluated)."""
    if not isinstance(cond, Exp) or cond.type != "bool":
        raise TypeError("strata.where needs a traced bool condition")
    t = a.type if isinstance(a, Exp) else b.type if isinstance(b, Exp) else "f64"
    a, b = _lift(a, t), _lift(b, t)
    if a.type != b.type:
        raise TypeError(f"strata.where of {a.type} and {b.type}")
    return Exp(f"(if {cond.text} {a.text} {b.text})", a.type, cond.arrays + a.arrays + b.arrays)


def cast(x, dtype):
    """A traced scalar converted to another element type (Strata's `cast`)."""
    t = _elem_name(dtype)
    x = _lift(x, t)
    return Exp(f"(cast {t} {x.text})", t, x.arrays)


class Acc:
    """A symbolic array of a traced function: a Strata array expression."""

    _count = 0

    def __init__(self, form, parts, elem, rank, name=None):
        self.form, self.parts, self.elem, self.rank, self.name = form, parts, elem, rank, name
        Acc._count += 1
        # Stands for the array's name in scalar code until the program is
        # written (names come from the sharing analysis).
        self.token = f"\x00{Acc._count}\x00"

    def __getitem__(self, index):
        """An element, read from scalar code: `xs[i]` is `(! xs (ix i))`."""
        index = index if isinstance(index, tuple) else (index,)
        if len(index) != self.rank:
            raise TypeError(f"an array of rank {self.rank} is read with {len(index)} index(es)")
        parts = [_lift(i, "i64") for i in index]
        for p in parts:
            if p.type != "i64":
                raise TypeError(f"an index must be i64, found {p.type}")
        text = f"(! {self.token} (ix " + " ".join(p.text for p in parts) + "))"
        arrays = tuple(a for p in parts for a in p.arrays) + (self,)
        return Exp(text, self.elem, arrays)

    def __bool__(self):
        raise TypeError("a traced array has no truth value")


def the(a):
    """The value of a rank-0 array in scalar code (Strata's `the`): `strata.the(total)`."""
    a = _acc(a, "strata.the")
    if a.rank != 0:
        raise TypeError(f"strata.the: expected an array of rank 0, found rank {a.rank}")
    return Exp(f"(the {a.token})", a.elem, (a,))


class _Lambda:
    def __init__(self, fn, types):
        _Lambda.count = getattr(_Lambda, "count", 0) + 1
        k = _Lambda.count
        names = [f"_x{k}_{i}" for i in range(len(types))]
        params = [Exp(n, t) for n, t in zip(names, types)]
        body = _lift(fn(*params), types[0] if types else "f64")
        self.names, self.body, self.type = names, body, body.type
        self.arrays = body.arrays


def _acc(x, what, min_rank=0):
    if not isinstance(x, Acc):
        raise TypeError(f"{what}: expected a traced array (a parameter or the result of a "
                        f"strata array operation), found {type(x).__name__}")
    if x.rank < min_rank:
        raise TypeError(f"{what}: expected an array of rank {min_rank} or more, found rank {x.rank}")
    return x


def map(f, a):  # noqa: A001 (strata.map, as Accelerate's)
    """Each element of `a` through `f`."""
    a = _acc(a, "strata.map")
    lam = _Lambda(f, [a.elem])
    return Acc("map", [lam, a], lam.type, a.rank)


def zipwith(f, *arrays):
    """Elements of two or more arrays combined by `f`, over the shapes' intersection."""
    if len(arrays) < 2:
        raise TypeError("strata.zipwith needs two or more arrays")
    arrays = [_acc(a, "strata.zipwith") for a in arrays]
    lam = _Lambda(f, [a.elem for a in arrays])
    return Acc("zipwith", [lam, *arrays], lam.type, arrays[0].rank)


def fold(f, z, a):
    """The innermost dimension of `a` reduced with `f` from the seed `z` (rank - 1)."""
    a = _acc(a, "strata.fold", 1)
    lam = _Lambda(f, [a.elem, a.elem])
    return Acc("fold", [lam, _lift(z, a.elem), a], a.elem, a.rank - 1)


def fold1(f, a):
    """The innermost dimension of `a` reduced with `f`, without a seed."""
    a = _acc(a, "strata.fold1", 1)
    lam = _Lambda(f, [a.elem, a.elem])
    return Acc("fold1", [lam, a], a.elem, a.rank - 1)


def scanl(f, z, a):
    """Exclusive-then-total prefix combination along the innermost dimension (n + 1 elements)."""
    a = _acc(a, "strata.scanl", 1)
    lam = _Lambda(f, [a.elem, a.elem])
    return Acc("scanl", [lam, _lift(z, a.elem), a], a.elem, a.rank)


def scanl1(f, a):
    """Inclusive prefix combination along the innermost dimension."""
    a = _acc(a, "strata.scanl1", 1)
    lam = _Lambda(f, [a.elem, a.elem])
    return Acc("scanl1", [lam, a], a.elem, a.rank)


def _whole(form):
    def f(a):
        a = _acc(a, f"strata.{form}")
        return Acc(form, [a], a.elem, 0)
    f.__name__ = form
    f.__doc__ = f"Strata's `{form}` over the whole array (rank 0)."
    return f


sum, product, maximum, minimum = (_whole(n) for n in ("sum", "product", "maximum", "minimum"))  # noqa: A001


def reverse(a):
    """The innermost dimension reversed."""
    a = _acc(a, "strata.reverse", 1)
    return Acc("reverse", [a], a.elem, a.rank)


def _program_text(params, result):
    """The program: shared arrays bound once with alet, in dependency order."""
    results = result if isinstance(result, tuple) else (result,)
    for r in results:
        _acc(r, "the traced function's result")
    uses = {}
    order = []
    seen = set()

    def visit(a, from_scalar=False):
        uses[id(a)] = uses.get(id(a), 0) + (2 if from_scalar else 1)
        if id(a) in seen:
            return
        seen.add(id(a))
        for p in a.parts:
            if isinstance(p, Acc):
                visit(p)
            else:  # a lambda or a scalar operand: the arrays its code reads
                for r in p.arrays:
                    visit(r, from_scalar=True)
        order.append(a)

    for r in results:
        visit(r)
    names = {id(p): p.name for p in params}
    bound = []
    for a in order:
        if id(a) not in names and uses[id(a)] > 1:
            names[id(a)] = f"_t{len(bound)}"
            bound.append(a)

    def acc_text(a, top=False):
        if id(a) in names and not top:
            return names[id(a)]
        parts = []
        for p in a.parts:
            if isinstance(p, Acc):
                parts.append(acc_text(p))
            elif isinstance(p, _Lambda):
                parts.append(f"(lambda ({' '.join(p.names)}) {_named(p.body.text, p.arrays, names)})")
            else:
                parts.append(_named(p.text, p.arrays, names))
        return f"({a.form} {' '.join(parts)})"

    body = acc_text(results[0]) if len(results) == 1 and not isinstance(result, tuple) else \
        "(atuple " + " ".join(acc_text(r) for r in results) + ")"
    if bound:
        bindings = "\n        ".join(f"({names[id(a)]} {acc_text(a, top=True)})" for a in bound)
        body = f"(alet ({bindings})\n    {body})"
    header = " ".join(f"({p.name} (array {p.elem} {p.rank}))" for p in params)
    return f"(program ({header})\n  {body})"


def _named(text, arrays, names):
    """Scalar text with each array it reads named."""
    for a in arrays:
        text = text.replace(a.token, names[id(a)])
    return text


class Function:
    """A Python function traced once into a Strata program, compiled on first call."""

    def __init__(self, fn, engine=None, fusion=True):
        sig = inspect.signature(fn)
        params = []
        for p in sig.parameters.values():
            t = p.annotation
            if not isinstance(t, ArrayType):
                raise TypeError(f"parameter `{p.name}` of {fn.__name__} needs an annotation "
                                f"such as `{p.name}: strata.Array[strata.f32, 1]`")
            params.append(Acc("param", [], t.elem, t.rank, name=p.name))
        self.__name__ = fn.__name__
        self.__doc__ = fn.__doc__
        self.program = _program_text(params, fn(*params))
        self.engine, self.fusion, self._compiled = engine, fusion, None

    def compiled(self):
        """The program compiled (once) for this function's engine."""
        if self._compiled is None:
            from . import compile as _compile
            self._compiled = _compile(self.program, engine=self.engine, fusion=self.fusion)
        return self._compiled

    def __call__(self, *args, **kwargs):
        return self.compiled()(*args, **kwargs)

    def __repr__(self):
        return f"<strata.function {self.__name__}>"


def function(fn=None, *, engine=None, fusion=True):
    """Decorator: `@strata.function` or `@strata.function(engine="tbb")`."""
    if fn is None:
        return lambda f: Function(f, engine=engine, fusion=fusion)
    return Function(fn, engine=engine, fusion=fusion)
