"""Strata from Python: compile a program once, call it with NumPy arrays.

    import numpy as np, strata
    saxpy = strata.compile("(program ((xs (array f32 1)) (ys (array f32 1)))"
                           " (zipwith (lambda (x y) (+ (* 2.5f32 x) y)) xs ys))")
    out = saxpy(np.ones(4, np.float32), np.arange(4, dtype=np.float32))

Inputs are used in place (no copy) when they are C-contiguous arrays of the
parameter's dtype and rank; anything else is a TypeError that says what was
expected (strata.asarray converts, a copy you ask for). Results are NumPy
arrays that own the engine's buffers. See docs/python.md.
"""

import numpy as _np

from ._strata import (  # noqa: F401
    Compiled,
    Error,
    InputError,
    ProgramError,
    RuntimeError,
    __version__,
    check as _check,
    engines as _engines,
    explain as _explain,
)

from .trace import (  # noqa: F401,A004
    Array,
    Function,
    cast,
    ceil,
    cos,
    exp,
    floor,
    fold,
    fold1,
    function,
    log,
    map,
    max,
    maximum,
    min,
    minimum,
    product,
    reverse,
    scanl,
    scanl1,
    sin,
    sqrt,
    sum,
    tan,
    tanh,
    the,
    where,
    zipwith,
)

# Element types by their Strata names, as NumPy dtypes.
bool_ = _np.dtype(_np.bool_)
i8, i16, i32, i64 = (_np.dtype(t) for t in (_np.int8, _np.int16, _np.int32, _np.int64))
u8, u16, u32, u64 = (_np.dtype(t) for t in (_np.uint8, _np.uint16, _np.uint32, _np.uint64))
f32, f64 = _np.dtype(_np.float32), _np.dtype(_np.float64)


def engines():
    """Every engine of this build: a list of {"name", "available", "why"}."""
    return _engines()


def _default_engine():
    available = [e["name"] for e in _engines() if e["available"]]
    for name in ("jit", "tbb", "interp"):
        if name in available:
            return name
    return "interp"


def compile(program, engine=None, fusion=True):  # noqa: A001 (strata.compile, like re.compile)
    """Parses, checks and compiles `program` (its text, or a .strata path) once.

    engine: "jit", "tbb", "cuda", "interp" (the oracle), or None for the
    fastest this build has (jit, then tbb, then interp). Returns a callable
    taking one array per parameter (positionally or by name).
    """
    return Compiled(program, _default_engine() if engine is None else engine, fusion)


def run(program, *inputs, engine="interp", fusion=True, **named):
    """Compiles and runs once; by default on the interpreter, the oracle."""
    return Compiled(program, engine, fusion)(*inputs, **named)


def asarray(x, dtype):
    """`x` as a C-contiguous array of `dtype` (strata.f32, ...): the explicit
    conversion, a copy when `x` is not one already."""
    return _np.ascontiguousarray(x, dtype=dtype)


class CheckResult(list):
    """Rows of strata.check: one dict per engine and fusion mode."""

    @property
    def ok(self):
        return all(row["agrees"] for row in self)

    def __str__(self):
        lines = [f"{'engine':<12} {'fusion':<7} {'agrees':<7} compared"]
        for r in self:
            fusion = "on" if r["fusion"] else "off"
            lines.append(f"{r['engine']:<12} {fusion:<7} {'yes' if r['agrees'] else 'NO':<7} "
                         f"{r['compared'] if r['agrees'] else r['disagreement']}")
            if r["explanation"]:
                lines += ["    " + line for line in r["explanation"].splitlines()]
        return "\n".join(lines)


def check(program, inputs, engines=None):
    """Runs `program` on `inputs` on every available engine (or `engines`),
    fused and unfused, against the oracle: every output element compared
    (bitwise, or inside the bounds of the engine's declared order). Returns a
    CheckResult; `.ok` is True when every engine agrees, and a disagreeing
    row carries the oracle's explanation of the first differing element."""
    return CheckResult(_check(program, list(inputs), engines))


def explain(program, inputs, at, result=0, json=False):
    """Why element `at` (a tuple of indices) of result `result` has its value:
    the oracle's evaluation tree, as text (or JSON)."""
    return _explain(program, list(inputs), list(at), result, json)

