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
The scalar operators and functions apply to arrays too, elementwise
(_elementwise), and NumPy's ufuncs reach them through __array_ufunc__.
"""

import functools as _functools
import operator as _operator

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
        raise TypeError(_NO_TRUTH.format(what="a traced value"))

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        return _array_ufunc(ufunc, method, inputs, kwargs)

    def __array__(self, *args, **kwargs):
        raise TypeError(_NOT_NUMPY)

    def _op(self, name, other, result=None, swap=False):
        if isinstance(other, Acc):
            return NotImplemented  # the array's reflected operator maps over it
        if _is_index(self.type):
            raise TypeError(f"`{name}` of an index {self.type}: take its components with i[k]")
        o = _lift(other, self.type)
        if o.type != self.type:
            raise TypeError(f"`{name}` of {self.type} and {o.type}: convert one with strata.cast")
        if name in _FLOAT_ONLY and self.type not in _FLOATS:
            raise TypeError(_FLOAT_ONLY[name].format(type=self.type))
        if name in _INTEGER_ONLY and self.type in _FLOATS:
            raise TypeError(_INTEGER_ONLY[name].format(type=self.type))
        a, b = (o, self) if swap else (self, o)
        return Exp(f"({name} {a.text} {b.text})", result or self.type, self.arrays + o.arrays)

    def __add__(self, o): return self._op("+", o)
    def __radd__(self, o): return self._op("+", o, swap=True)
    def __sub__(self, o): return self._op("-", o)
    def __rsub__(self, o): return self._op("-", o, swap=True)
    def __mul__(self, o): return self._op("*", o)
    def __rmul__(self, o): return self._op("*", o, swap=True)

    def __truediv__(self, o): return self._op("/", o)
    def __rtruediv__(self, o): return self._op("/", o, swap=True)
    def __pow__(self, o): return self._op("pow", o)
    def __rpow__(self, o): return self._op("pow", o, swap=True)

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
    def __rand__(self, o): return self._op("and" if self.type == "bool" else "band", o, swap=True)
    def __or__(self, o): return self._op("or" if self.type == "bool" else "bor", o)
    def __ror__(self, o): return self._op("or" if self.type == "bool" else "bor", o, swap=True)
    def __xor__(self, o): return self._op("/=" if self.type == "bool" else "bxor", o)
    def __rxor__(self, o): return self._op("/=" if self.type == "bool" else "bxor", o, swap=True)
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


_NO_TRUTH = ("{what} has no truth value while tracing: use strata.where(c, a, b) instead of `if`, "
             "& | ~ instead of `and or not`, and strata.max(a, b) / strata.min(a, b) instead of "
             "Python's max and min")
_NOT_NUMPY = ("a traced value is not a NumPy array: NumPy's ufuncs (np.exp, np.add, ...) trace, "
              "its other functions do not; use the strata functions (strata.sum, strata.map, ...)")

# Primitives for floats only, or integers only (docs/language.md, Primitives),
# and what to write instead, in Python's spelling.
_FLOAT_ONLY = {
    "/": "`/` of {type}: use // (floor division) or % on integers",
    "pow": "`**` of {type}: Strata's pow is for f32 and f64: multiply (x * x) or convert with "
           "strata.cast",
    "atan2": "strata.atan2 of {type}: Strata's atan2 is for f32 and f64: convert with strata.cast",
}
_INTEGER_ONLY = {
    "div": "`//` of {type}: Strata's div is for integers: write strata.floor(a / b)",
    "mod": "`%` of {type}: Strata's mod is for integers: write a - b * strata.floor(a / b)",
}


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
    if isinstance(value, Acc):
        raise TypeError("an array in traced scalar code (nested data parallelism): read its "
                        "elements with xs[i], or a rank-0 array's value with strata.the(a)")
    if isinstance(value, _np.ndarray):
        raise TypeError("a NumPy array in a traced function: pass it as a parameter "
                        "(ys: strata.Array[strata.f64, 1])")
    raise TypeError(f"{type(value).__name__} in traced scalar code: only numbers and traced values")


def _elementwise(what):
    """A function of scalars that applies to arrays too, elementwise: with one
    array operand (the same array twice is one) it is a strata.map, with
    several a strata.zipwith, over the intersection of their shapes (Strata's
    zipwith rule: no broadcasting, the ranks must be equal). The other
    operands (numbers, closed traced scalars such as strata.the(t)) are the
    same at every element, and so is a rank-0 array meeting a larger one: it
    is read as strata.the(a). `what` names the function in errors."""
    def wrap(fn):
        @_functools.wraps(fn)
        def apply(*operands):
            arrays = {id(x): x for x in operands if isinstance(x, Acc)}
            if not arrays:
                return fn(*operands)
            if len({a.rank for a in arrays.values()}) > 1:
                operands = [the(x) if isinstance(x, Acc) and x.rank == 0 else x for x in operands]
                arrays = {id(x): x for x in operands if isinstance(x, Acc)}
            ranks = sorted({a.rank for a in arrays.values()})
            if len(ranks) > 1:
                raise TypeError(
                    f"{what} of arrays of rank {ranks[-1]} and {ranks[0]}: Strata combines arrays "
                    "of one rank elementwise and does not broadcast; repeat the smaller one with "
                    "strata.replicate, e.g. strata.replicate((strata.shape(m)[0], strata.ALL), v) "
                    "is the vector v once per row of the matrix m")
            arrays = list(arrays.values())

            def at(*elements):
                element = dict(zip((id(a) for a in arrays), elements))
                return fn(*(element[id(x)] if isinstance(x, Acc) else x for x in operands))

            from . import forms  # forms imports this module
            return forms.map(at, arrays[0]) if len(arrays) == 1 else forms.zipwith(at, *arrays)
        return apply
    return wrap


def _unary(name, result=None):
    @_elementwise(f"strata.{name}")
    def f(x):
        x = _lift(x, "f64")
        if x.type not in _FLOATS:
            raise TypeError(f"strata.{name} of {x.type}: Strata's {name} is for f32 and f64: "
                            f"convert with strata.cast(x, strata.f64)")
        return Exp(f"({name} {x.text})", result or x.type, x.arrays)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"Strata's `{name}` of a traced scalar, or of each element of a traced array."
    return f


sqrt, exp, log, sin, cos, tan, asin, acos, atan, sinh, cosh, tanh, floor, ceil, trunc = (
    _unary(n) for n in ("sqrt", "exp", "log", "sin", "cos", "tan", "asin", "acos", "atan",
                        "sinh", "cosh", "tanh", "floor", "ceil", "trunc"))
isnan, isinf = _unary("isnan", "bool"), _unary("isinf", "bool")


def _binary(name, doc):
    @_elementwise(f"strata.{name}")
    def f(a, b):
        return _lift(a, _natural(b))._op(name, b)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = doc
    return f


min = _binary("min", "The smaller of two traced scalars, or of arrays elementwise.")  # noqa: A001
max = _binary("max", "The larger of two traced scalars, or of arrays elementwise.")  # noqa: A001
atan2 = _binary("atan2", "Strata's `atan2(y, x)` of traced scalars, or of arrays elementwise.")


@_elementwise("strata.where")
def where(cond, a, b):
    """`a` where `cond` holds, else `b` (Strata's `if`; only the branch taken is
    evaluated); of arrays, elementwise."""
    if not isinstance(cond, Exp) or cond.type != "bool":
        raise TypeError("strata.where needs a traced bool condition")
    if isinstance(a, (tuple, list)) or isinstance(b, (tuple, list)):
        a, b = _index(a, "strata.where"), _index(b, "strata.where")
    t = a.type if isinstance(a, Exp) else b.type if isinstance(b, Exp) else _natural(a)
    a, b = _lift(a, t), _lift(b, t)
    if a.type != b.type:
        raise TypeError(f"strata.where of {a.type} and {b.type}")
    return Exp(f"(if {cond.text} {a.text} {b.text})", a.type, cond.arrays + a.arrays + b.arrays)


@_elementwise("strata.cast")
def cast(x, dtype):
    """A traced scalar, or each element of a traced array, converted to another
    element type (Strata's `cast`)."""
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
        raise TypeError(_NO_TRUTH.format(what="a traced array"))

    def __iter__(self):
        raise TypeError("a traced array is not iterable (for, list, sum, max): use strata.map on "
                        "each element, strata.sum / product / maximum / minimum to reduce it")

    def __len__(self):
        raise TypeError("a traced array has no Python length: strata.size(a) is its element "
                        "count and strata.shape(a) its shape, as traced values")

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        return _array_ufunc(ufunc, method, inputs, kwargs)

    def __array__(self, *args, **kwargs):
        raise TypeError(_NOT_NUMPY)

    # Python's operators elementwise, as they are on scalars (Exp).
    def _pair(op, symbol):
        """The operator and its reflection (`2 - xs` is xs.__rsub__(2))."""
        f = _elementwise(f"`{symbol}`")(op)
        return f, lambda self, other: f(other, self)

    __add__, __radd__ = _pair(_operator.add, "+")
    __sub__, __rsub__ = _pair(_operator.sub, "-")
    __mul__, __rmul__ = _pair(_operator.mul, "*")
    __truediv__, __rtruediv__ = _pair(_operator.truediv, "/")
    __floordiv__, __rfloordiv__ = _pair(_operator.floordiv, "//")
    __mod__, __rmod__ = _pair(_operator.mod, "%")
    __pow__, __rpow__ = _pair(_operator.pow, "**")
    __and__, __rand__ = _pair(_operator.and_, "&")
    __or__, __ror__ = _pair(_operator.or_, "|")
    __xor__, __rxor__ = _pair(_operator.xor, "^")
    __lt__ = _elementwise("`<`")(_operator.lt)
    __le__ = _elementwise("`<=`")(_operator.le)
    __gt__ = _elementwise("`>`")(_operator.gt)
    __ge__ = _elementwise("`>=`")(_operator.ge)
    __eq__ = _elementwise("`==`")(_operator.eq)
    __ne__ = _elementwise("`!=`")(_operator.ne)
    __neg__ = _elementwise("`-`")(_operator.neg)
    __abs__ = _elementwise("abs")(_operator.abs)
    __invert__ = _elementwise("`~`")(_operator.invert)
    del _pair
    __hash__ = None


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


# NumPy's ufuncs on traced values (through __array_ufunc__): those with a
# Strata primitive, by ufunc name, as the operator or strata function that
# writes it; their reductions (np.sum, np.add.reduce, ...) as strata.sum,
# product, maximum and minimum. Floats follow Strata's semantics, not
# NumPy's: np.maximum(x, nan) is x, as strata.max is (docs/language.md).
_UFUNCS = {
    "add": _operator.add, "subtract": _operator.sub, "multiply": _operator.mul,
    "divide": _operator.truediv, "floor_divide": _operator.floordiv,
    "remainder": _operator.mod, "power": _operator.pow, "square": lambda x: x * x,
    "negative": _operator.neg, "absolute": _operator.abs,
    "equal": _operator.eq, "not_equal": _operator.ne, "less": _operator.lt,
    "less_equal": _operator.le, "greater": _operator.gt, "greater_equal": _operator.ge,
    "bitwise_and": _operator.and_, "bitwise_or": _operator.or_,
    "bitwise_xor": _operator.xor, "invert": _operator.invert,
    "maximum": max, "fmax": max, "minimum": min, "fmin": min,
    "sqrt": sqrt, "exp": exp, "log": log, "sin": sin, "cos": cos, "tan": tan,
    "arcsin": asin, "arccos": acos, "arctan": atan, "arctan2": atan2,
    "sinh": sinh, "cosh": cosh, "tanh": tanh, "floor": floor, "ceil": ceil, "trunc": trunc,
    "isnan": isnan, "isinf": isinf,
}
_REDUCTIONS = {"add": "sum", "multiply": "product", "maximum": "maximum", "minimum": "minimum"}


def _array_ufunc(ufunc, method, inputs, kwargs):
    name = ufunc.__name__
    # A NumPy scalar is a number (and np.float32(2) * xs does not come back here).
    inputs = [x.item() if isinstance(x, _np.generic) else x for x in inputs]
    if any(isinstance(x, _np.ndarray) for x in inputs):
        raise TypeError(f"np.{name} of a NumPy array and a traced value: pass the array as a "
                        "parameter of the traced function (ys: strata.Array[strata.f64, 1])")
    if method == "reduce" and name in _REDUCTIONS:
        reduction = _REDUCTIONS[name]
        axis = kwargs.pop("axis", 0)  # ufunc.reduce's default; np.sum gives None
        extra = [k for k, v in kwargs.items() if v is not None and v is not False]
        if extra:
            raise TypeError(f"np.{name}.reduce with {', '.join(extra)}= on a traced array: "
                            f"strata.{reduction}(a, axis=...) takes an axis only")
        from . import forms  # forms imports this module
        return getattr(forms, reduction)(*inputs, axis=axis)
    if method == "accumulate" and name in _REDUCTIONS:
        raise TypeError(f"np.{name}.accumulate of a traced array: write strata.scanl1(f, a), "
                        "which scans the innermost dimension")
    if method != "__call__" or name not in _UFUNCS:
        call = f"np.{name}" + ("" if method == "__call__" else f".{method}")
        raise TypeError(f"{call} has no Strata primitive to trace to: write it with the "
                        "operators and strata functions the tracer has (docs/python.md)")
    if kwargs:
        raise TypeError(f"np.{name}(..., {', '.join(f'{k}=' for k in kwargs)}) on a traced value: "
                        "a traced ufunc takes its operands only")
    return _UFUNCS[name](*inputs)
