"""The array forms of @strata.function (docs/python.md, Writing programs in
Python): each builds a symbolic array (trace.Acc) of one Strata array form;
the functions passed to them are traced once (trace._Lambda, or
sharing.ArrayLambda for awhile)."""

import numpy as _np

from .sharing import ArrayLambda
from .trace import (Acc, Exp, _Lambda, _acc, _elem_name, _index, _index_rank,
                    _is_index, _lift, _natural, max as _max, min as _min)


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


def _seeded(form, drop, doc):
    """A reduction or scan with a seed, `strata.FORM(f, z, a)`: the result has
    rank a.rank - drop."""
    def op(f, z, a):
        a = _acc(a, f"strata.{form}", 1)
        lam = _Lambda(f, [a.elem, a.elem])
        return Acc(form, [lam, _lift(z, a.elem), a], a.elem, a.rank - drop)
    op.__name__, op.__doc__ = form, doc
    return op


def _unseeded(form, drop, doc):
    """A reduction or scan without a seed, `strata.FORM(f, a)`."""
    def op(f, a):
        a = _acc(a, f"strata.{form}", 1)
        lam = _Lambda(f, [a.elem, a.elem])
        return Acc(form, [lam, a], a.elem, a.rank - drop)
    op.__name__, op.__doc__ = form, doc
    return op


fold = _seeded("fold", 1, "The innermost dimension of `a` reduced with `f` from the seed `z` (rank - 1).")
fold1 = _unseeded("fold1", 1, "The innermost dimension of `a` reduced with `f`, without a seed.")
scanl = _seeded("scanl", 0, "Left scan along the innermost dimension from the seed `z` (n + 1 elements).")
scanl1 = _unseeded("scanl1", 0, "Inclusive left scan along the innermost dimension.")
scanr = _seeded("scanr", 0, "Right scan along the innermost dimension, ending with `z` (n + 1 elements).")
scanr1 = _unseeded("scanr1", 0, "Inclusive right scan along the innermost dimension.")


def foldseg(f, z, a, segs):
    """Each segment of the innermost dimension reduced from `z`; `segs` is an
    i64 array of segment lengths summing to the dimension's extent."""
    a, segs = _acc(a, "strata.foldseg", 1), _acc(segs, "strata.foldseg")
    if (segs.elem, segs.rank) != ("i64", 1):
        raise TypeError(f"strata.foldseg: segment lengths are an i64 array of rank 1, found "
                        f"{segs.elem} of rank {segs.rank}")
    lam = _Lambda(f, [a.elem, a.elem])
    return Acc("foldseg", [lam, _lift(z, a.elem), a, segs], a.elem, a.rank)


def unit(value, dtype=None):
    """The array of rank 0 holding `value` (of `dtype` when given)."""
    v = _lift(value, _elem_name(dtype) if dtype is not None else _natural(value))
    return Acc("unit", [v], v.type, 0)


def _whole(form, along_rows):
    """Strata's `form` over the whole array (axis=None), or with axis=-1
    `along_rows(a)`: each row of the innermost dimension reduced (rank - 1).
    Strata reduces no other axis."""
    def f(a, axis=None):
        a = _acc(a, f"strata.{form}")
        if axis is None:
            return Acc(form, [a], a.elem, 0)
        if a.rank == 0:
            raise TypeError(f"strata.{form}(a, axis={axis!r}): an array of rank 0 has no axis; "
                            f"strata.{form}(a) is its value as an array of rank 0")
        if not isinstance(axis, (int, _np.integer)) or axis not in (-1, a.rank - 1):
            raise TypeError(f"strata.{form}(a, axis={axis!r}) of an array of rank {a.rank}: Strata "
                            "reduces the whole array (axis=None) or the innermost dimension "
                            "(axis=-1); make another axis innermost first with strata.backpermute")
        return along_rows(a)
    f.__name__ = form
    f.__doc__ = (f"Strata's `{form}` over the whole array (rank 0), or with axis=-1 along the "
                 "innermost dimension (rank - 1).")
    return f


sum = _whole("sum", lambda a: fold(lambda x, y: x + y, 0, a))  # noqa: A001
product = _whole("product", lambda a: fold(lambda x, y: x * y, 1, a))
maximum = _whole("maximum", lambda a: fold1(_max, a))
minimum = _whole("minimum", lambda a: fold1(_min, a))


def reverse(a):
    """The innermost dimension reversed."""
    a = _acc(a, "strata.reverse", 1)
    return Acc("reverse", [a], a.elem, a.rank)


def generate(sh, f):
    """An array of shape `sh` (a tuple of i64, or strata.shape(a)) whose element
    at index `i` is `f(i)`."""
    sh = _index(sh, "strata.generate")
    rank = _index_rank(sh.type)
    lam = _Lambda(f, [sh.type])
    if _is_index(lam.type):
        raise TypeError("strata.generate: the function gives an index, not an element")
    return Acc("generate", [sh, lam], lam.type, rank)


def fill(sh, value, dtype=None):
    """An array of shape `sh` with every element `value` (of `dtype` when given)."""
    sh = _index(sh, "strata.fill")
    v = _lift(value, _elem_name(dtype) if dtype is not None else _natural(value))
    return Acc("fill", [sh, v], v.type, _index_rank(sh.type))


def backpermute(sh, f, a):
    """A gather: the array of shape `sh` whose element `i` is `a[f(i)]`."""
    a = _acc(a, "strata.backpermute")
    sh = _index(sh, "strata.backpermute")
    lam = _Lambda(f, [sh.type], result=lambda v: _index(v, "strata.backpermute's function", a.rank))
    return Acc("backpermute", [sh, lam, a], a.elem, _index_rank(sh.type))


def permute(combine, defaults, f, source):
    """A scatter: a copy of `defaults` into which each element `source[i]` is
    combined at index `f(i)` as `combine(new, old)`; `strata.ignore(R)` drops it."""
    defaults = _acc(defaults, "strata.permute")
    source = _acc(source, "strata.permute")
    if defaults.elem != source.elem:
        raise TypeError(f"strata.permute: defaults of {defaults.elem} and a source of {source.elem}")
    comb = _Lambda(combine, [defaults.elem, defaults.elem])
    target = _Lambda(f, [f"(ix {source.rank})"],
                     result=lambda v: _index(v, "strata.permute's target", defaults.rank))
    return Acc("permute", [comb, defaults, target, source], defaults.elem, defaults.rank)


def reshape(sh, a):
    """The elements of `a` in row-major order, in the shape `sh` (same size)."""
    a = _acc(a, "strata.reshape")
    sh = _index(sh, "strata.reshape")
    return Acc("reshape", [sh, a], a.elem, _index_rank(sh.type))


ALL = "all"  # a spec entry of strata.replicate and strata.slice: the whole dimension


def _spec(entries, what):
    parts = []
    for e in entries:
        parts.append(Exp("all", "all") if e is ALL else _lift(e, "i64"))
        if parts[-1].type not in ("all", "i64"):
            raise TypeError(f"{what}: a spec entry is strata.ALL or an i64, found {parts[-1].type}")
    return Exp("(spec " + " ".join(p.text for p in parts) + ")", "spec",
               tuple(x for p in parts for x in p.arrays)), parts


def replicate(spec, a):
    """`a` copied along new dimensions: one spec entry per result dimension,
    strata.ALL for each dimension of `a` (in order), an i64 extent for a new one."""
    a = _acc(a, "strata.replicate")
    sp, parts = _spec(spec, "strata.replicate")
    if _count_all(parts) != a.rank:
        raise TypeError(f"strata.replicate: an array of rank {a.rank} needs {a.rank} strata.ALL "
                        f"entries, found {_count_all(parts)}")
    return Acc("replicate", [sp, a], a.elem, len(parts))


def slice(a, spec):  # noqa: A001 (strata.slice, Strata's `slice`)
    """Part of `a`: one spec entry per dimension of `a`, strata.ALL to keep it,
    an i64 to fix that index and drop the dimension."""
    a = _acc(a, "strata.slice")
    sp, parts = _spec(spec, "strata.slice")
    if len(parts) != a.rank:
        raise TypeError(f"strata.slice: an array of rank {a.rank} needs {a.rank} spec entries, "
                        f"found {len(parts)}")
    return Acc("slice", [a, sp], a.elem, _count_all(parts))


def _count_all(parts):
    """How many spec entries are strata.ALL."""
    return len([p for p in parts if p.type == "all"])


class _Window:
    """The parameter of a stencil function: `nb[-1, 0]` is the neighbour one
    row up (Strata's `(at nb -1 0)`); offsets are Python ints within the window."""

    def __init__(self, name, window, elem):
        self.name, self.window, self.elem = name, window, elem

    def __getitem__(self, offsets):
        offsets = offsets if isinstance(offsets, tuple) else (offsets,)
        if len(offsets) != len(self.window):
            raise TypeError(f"a window of rank {len(self.window)} is read with {len(offsets)} offset(s)")
        for o, w in zip(offsets, self.window):
            if not isinstance(o, int) or abs(o) > w // 2:
                raise TypeError(f"a stencil offset is a Python int within the window's radius "
                                f"{w // 2}, found {o!r}")
        return Exp(f"(at {self.name} " + " ".join(str(o) for o in offsets) + ")", self.elem)


def stencil(f, window, a, boundary="clamp"):
    """`f(nb)` around every element of `a`, where `nb[o1, ..., oR]` reads the
    neighbour at those offsets; `window` gives odd sizes, one per dimension;
    `boundary` is "clamp", "mirror", "wrap" or a value (a constant boundary)."""
    a = _acc(a, "strata.stencil", 1)
    window = tuple(window) if isinstance(window, (tuple, list)) else (window,)
    if len(window) != a.rank or any(not isinstance(w, int) or w < 1 or w % 2 == 0 for w in window):
        raise TypeError(f"strata.stencil: a window is {a.rank} odd positive ints, found {window!r}")
    if isinstance(boundary, str) and boundary in ("clamp", "mirror", "wrap"):
        bound = Exp(boundary, "boundary")
    elif isinstance(boundary, str):
        raise TypeError(f"strata.stencil: boundary {boundary!r}: expected clamp, mirror, wrap or a value")
    else:
        v = _lift(boundary, a.elem)
        if v.type != a.elem:
            raise TypeError(f"strata.stencil: a constant boundary of {v.type} for an array of {a.elem}")
        bound = Exp(f"(constant {v.text})", "boundary", v.arrays)
    lam = _Lambda(f, ["window"], params=lambda names: [_Window(names[0], window, a.elem)])
    sizes = Exp("(" + " ".join(str(w) for w in window) + ")", "window")
    return Acc("stencil", [sizes, bound, lam, a], lam.type, a.rank)


def awhile(cond, body, init):
    """`body` applied to the state while `cond(state)` (an array of bool, rank 0)
    holds, starting from `init`: an array or a tuple of arrays (Strata's awhile).
    The functions are traced once; they may read the arrays around them."""
    state = tuple(_acc(a, "strata.awhile's initial state") for a in init) \
        if isinstance(init, tuple) else _acc(init, "strata.awhile's initial state")
    c = ArrayLambda(cond, state, "strata.awhile's condition")
    if isinstance(c.result, tuple) or (c.result.elem, c.result.rank) != ("bool", 0):
        raise TypeError("strata.awhile: the condition must give an array of bool of rank 0 "
                        "(strata.fold or strata.map to a bool, then a rank-0 array)")
    b = ArrayLambda(body, state, "strata.awhile's body")
    want = [(s.elem, s.rank) for s in (state if isinstance(state, tuple) else (state,))]
    got = [(r.elem, r.rank) for r in (b.result if isinstance(b.result, tuple) else (b.result,))]
    if want != got or isinstance(b.result, tuple) != isinstance(state, tuple):
        raise TypeError(f"strata.awhile: the body gives {got}, the state is {want} (element, rank)")
    if not isinstance(state, tuple):
        return Acc("awhile", [c, b, state], state.elem, state.rank)
    # A tuple of initial arrays is one atuple; the loop's result is projected.
    tup = Acc("atuple", list(state), None, None)
    loop = Acc("awhile", [c, b, tup], None, None)
    return tuple(Acc("aproj", [Exp(str(k), "literal"), loop], s.elem, s.rank)
                 for k, s in enumerate(state))
