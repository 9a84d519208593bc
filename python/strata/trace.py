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

This file holds the symbolic values (scalars: Exp; arrays: Acc) and the
scalar functions; forms.py the array forms; sharing.py the program text.
"""

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
        if _is_index(self.type):
            raise TypeError(f"`{name}` of an index {self.type}: take its components with i[k]")
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

    def __getitem__(self, k):
        """Component `k` of an index (Strata's `proj`): `i[0]` is the outermost."""
        rank = _index_rank(self.type)
        if rank is None:
            raise TypeError(f"a traced {self.type} has no components: only an index (ix R) does")
        if not isinstance(k, int) or not 0 <= k < rank:
            raise TypeError(f"an index of rank {rank} has components 0..{rank - 1}, not {k!r}")
        return Exp(f"(proj {k} {self.text})", "i64", self.arrays)

    def __iter__(self):
        rank = _index_rank(self.type)
        if rank is None:
            raise TypeError(f"a traced {self.type} is not iterable: only an index (ix R) is")
        return (self[k] for k in range(rank))

    def __len__(self):
        rank = _index_rank(self.type)
        if rank is None:
            raise TypeError(f"a traced {self.type} has no length")
        return rank

    __hash__ = None


def _is_index(type_):
    return type_.startswith("(ix ")


def _index_rank(type_):
    return int(type_[4:-1]) if _is_index(type_) else None


def _index(value, what, rank=None):
    """An index or shape as traced code of type (ix R): a traced index, or a
    tuple (or one value, for rank 1) of i64 components: Python ints or traced i64."""
    if isinstance(value, Exp) and _is_index(value.type):
        index = value
    else:
        parts = [_lift(v, "i64") for v in (value if isinstance(value, (tuple, list)) else (value,))]
        for p in parts:
            if p.type != "i64":
                raise TypeError(f"{what}: an index component must be i64, found {p.type}")
        index = Exp("(ix " + " ".join(p.text for p in parts) + ")" if parts else "(ix)",
                    f"(ix {len(parts)})", tuple(a for p in parts for a in p.arrays))
    if rank is not None and _index_rank(index.type) != rank:
        raise TypeError(f"{what}: expected an index of rank {rank}, found {index.type}")
    return index


def _natural(value):
    """The element type a bare Python value takes where no other type is near."""
    if isinstance(value, Exp):
        return value.type
    if isinstance(value, (bool, _np.bool_)):
        return "bool"
    if isinstance(value, (int, _np.integer)):
        return _NAMES.get(_np.dtype(type(value)), "i64") if isinstance(value, _np.integer) else "i64"
    return _NAMES.get(_np.dtype(type(value)), "f64") if isinstance(value, _np.floating) else "f64"


def _lift(value, type_):
    if isinstance(value, Exp):
        return value
    if _is_index(type_) and isinstance(value, (tuple, list)):
        return _index(value, "an index")
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
    if isinstance(a, (tuple, list)) or isinstance(b, (tuple, list)):
        a, b = _index(a, "strata.where"), _index(b, "strata.where")
    t = a.type if isinstance(a, Exp) else b.type if isinstance(b, Exp) else _natural(a)
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
        if not (isinstance(index, Exp) and _is_index(index.type)) and not isinstance(index, tuple):
            index = (index,)
        n = _index_rank(index.type) if isinstance(index, Exp) else len(index)
        if n != self.rank:
            raise TypeError(f"an array of rank {self.rank} is read with an index of rank {n}")
        index = _index(index, "an array read")
        return Exp(f"(! {self.token} {index.text})", self.elem, index.arrays + (self,))

    def __bool__(self):
        raise TypeError("a traced array has no truth value")


def the(a):
    """The value of a rank-0 array in scalar code (Strata's `the`): `strata.the(total)`."""
    a = _acc(a, "strata.the")
    if a.rank != 0:
        raise TypeError(f"strata.the: expected an array of rank 0, found rank {a.rank}")
    return Exp(f"(the {a.token})", a.elem, (a,))


class _Lambda:
    """A Python function called once on symbolic parameters of `types`; its
    result is converted by `result` (default: lifted to the first parameter's
    type, or the natural type of a bare Python value)."""

    def __init__(self, fn, types, result=None, params=None):
        _Lambda.count = getattr(_Lambda, "count", 0) + 1
        k = _Lambda.count
        names = [f"_x{k}_{i}" for i in range(len(types))]
        params = params(names) if params else [Exp(n, t) for n, t in zip(names, types)]
        value = fn(*params)
        element = types[0] if types and types[0] in _NAMES.values() else _natural(value)
        body = result(value) if result else _lift(value, element)
        self.names, self.body, self.type = names, body, body.type
        self.arrays = body.arrays


def _acc(x, what, min_rank=0):
    if not isinstance(x, Acc):
        raise TypeError(f"{what}: expected a traced array (a parameter or the result of a "
                        f"strata array operation), found {type(x).__name__}")
    if x.rank < min_rank:
        raise TypeError(f"{what}: expected an array of rank {min_rank} or more, found rank {x.rank}")
    return x


def shape(a):
    """The shape of a traced array, an index of its rank (Strata's `shape`)."""
    a = _acc(a, "strata.shape")
    return Exp(f"(shape {a.token})", f"(ix {a.rank})", (a,))


def size(a):
    """The element count of a traced array, an i64 (Strata's `size`)."""
    a = _acc(a, "strata.size")
    return Exp(f"(size {a.token})", "i64", (a,))


def ix(*components):
    """An index from i64 components: `strata.ix(i[1], i[0])` (a tuple works too)."""
    return _index(components, "strata.ix")


def ignore(rank):
    """The target that drops a source element of strata.permute (Strata's `(ignore R)`)."""
    return Exp(f"(ignore {int(rank)})", f"(ix {int(rank)})")
