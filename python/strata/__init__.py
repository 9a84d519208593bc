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
    acos,
    asin,
    atan,
    atan2,
    cast,
    ceil,
    cos,
    cosh,
    exp,
    floor,
    ix,
    ignore,
    isinf,
    isnan,
    log,
    max,
    min,
    shape,
    sin,
    sinh,
    size,
    sqrt,
    tan,
    tanh,
    the,
    trunc,
    where,
)
from .forms import (  # noqa: F401,A004
    ALL,
    awhile,
    backpermute,
    fill,
    fold,
    fold1,
    foldseg,
    generate,
    map,
    maximum,
    minimum,
    permute,
    product,
    replicate,
    reshape,
    reverse,
    scanl,
    scanl1,
    scanr,
    scanr1,
    slice,
    stencil,
    sum,
    unit,
    zipwith,
)
from .sharing import Function, function  # noqa: F401

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


def compile(program, engine=None, fusion=True, math="exact"):  # noqa: A001 (like re.compile)
    """Parses, checks and compiles `program` (its text, or a .strata path) once.

    engine: "jit", "tbb", "cuda", "interp" (the oracle), or None for the
    fastest this build has (jit, then tbb, then interp). math: "exact" (every
    result bitwise the interpreter's) or "fast" (exp log sin cos tan pow
    within 4 ULP of it: the jit calls a vector math library). Returns a
    callable taking one array per parameter (positionally or by name).
    """
    return Compiled(program, _default_engine() if engine is None else engine, fusion, math)


def run(program, *inputs, engine="interp", fusion=True, math="exact", **named):
    """Compiles and runs once; by default on the interpreter, the oracle."""
    return Compiled(program, engine, fusion, math)(*inputs, **named)


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



def _cli():
    """The `strata` command: beside the package in a wheel, or the build tree's."""
    import os

    here = os.path.dirname(os.path.abspath(__file__))
    bundled = os.path.join(here, "bin", "strata")
    if os.path.exists(bundled):
        return bundled
    recorded = os.path.join(here, "_cli_path.txt")
    if os.path.exists(recorded):
        with open(recorded) as f:
            path = f.read().strip()
        if os.path.exists(path):
            return path
    raise InputError("the `strata` command is not beside this package "
                     f"({bundled}) nor in its build tree")


def fuzz(engine=None, count=1000, seed=1, time_limit=0.0, out=None, shrink_limit=30.0,
         progress=True):
    """Random programs checked against the oracle on `engine` (default: the
    fastest available), fused and unfused, as `strata fuzz` does; each
    disagreement is shrunk and saved as a bundle under `out` (default
    ./strata-fuzz-SEED) that `strata check DIR` replays.

    The campaign runs in a `strata fuzz` child process (it shrinks with
    RapidCheck, which cannot be linked into a Python module here). A progress
    bar shows while it runs (tqdm where installed, a plain line otherwise).
    Returns a dict: engine, programs, seconds, compared, failures (a list of
    dicts: program, variant, disagreement, bundle)."""
    import re
    import subprocess
    import sys

    engine = _default_engine() if engine is None else engine
    args = [_cli(), "fuzz", "--engine", engine, "--count", str(int(count)), "--seed", str(int(seed)),
            "--shrink-limit", str(float(shrink_limit)), "--progress-interval", "0.5",
            "--out", out or f"strata-fuzz-{int(seed)}"]
    if time_limit:
        args += ["--time-limit", str(float(time_limit))]
    bar = None
    if progress:
        try:
            from tqdm import tqdm
            bar = tqdm(total=count or None, desc=f"fuzz {engine}", unit="program")
        except ImportError:
            pass
    line_re = re.compile(r"fuzz \S+: (\d+) programs, [\d.]+/s, (\d+) failure")
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    errors = []
    for line in proc.stderr:
        m = line_re.search(line)
        if not m:
            errors.append(line)
            continue
        if bar is not None:
            bar.update(int(m.group(1)) - bar.n)
            bar.set_postfix(failures=int(m.group(2)))
        elif progress:
            print(f"\rfuzz {engine}: {m.group(1)} programs, {m.group(2)} failure(s)", end="",
                  file=sys.stderr, flush=True)
    stdout = proc.stdout.read()
    code = proc.wait()
    if bar is not None:
        bar.close()
    elif progress:
        print(file=sys.stderr)
    if code not in (0, 1):
        raise InputError("strata fuzz: " + "".join(errors).strip())
    result = {"engine": engine, "programs": 0, "seconds": 0.0, "compared": "", "failures": []}
    summary = re.search(r"^\S+(?: on \d+ ranks)?: (\d+) programs in ([\d.]+) s", stdout, re.M)
    if summary:
        result["programs"], result["seconds"] = int(summary.group(1)), float(summary.group(2))
    compared = re.search(r"^  compared: (.*)$", stdout, re.M)
    if compared:
        result["compared"] = compared.group(1)
    for m in re.finditer(r"^  program (\d+) \((.*?)\): (.*)\n    shrunk to \d+ nodes; "
                         r"replay: (?:mpirun -np P )?strata check (.*)$", stdout, re.M):
        result["failures"].append({"program": int(m.group(1)), "variant": m.group(2),
                                   "disagreement": m.group(3), "bundle": m.group(4)})
    return result
