#!/usr/bin/env python3
"""A user program checked on every engine, then timed against the interpreter.

    PYTHONPATH=build/release/python .venv/bin/python examples/python/check_and_plot.py [out.png]

Written as a notebook would be: each step prints what it found. The plot
(matplotlib) shows each engine's run time beside the interpreter's.
"""
import sys
import time

import numpy as np

import strata

# 1. The program: a softmax of each row, written in Strata.
SOFTMAX = """
(program ((x (array f32 2)))
  (alet ((mx (fold1 max x))
         (e (generate (shape x)
              (lambda (i) (exp (- (! x i) (! mx (ix (proj 0 i))))))))
         (s (fold + 0f32 e)))
    (generate (shape x) (lambda (i) (/ (! e i) (! s (ix (proj 0 i))))))))
"""
rng = np.random.default_rng(7)
x = rng.uniform(-5, 5, size=(256, 1024)).astype(np.float32)

# 2. The oracle's answer, and NumPy's for comparison (within float rounding).
oracle = strata.run(SOFTMAX, x)
numpy_softmax = np.exp(x - x.max(axis=1, keepdims=True))
numpy_softmax /= numpy_softmax.sum(axis=1, keepdims=True)
print("largest difference from NumPy:", float(np.abs(oracle - numpy_softmax).max()))

# 3. Every engine, fused and unfused, against the oracle: every element.
result = strata.check(SOFTMAX, [x])
print(result)
assert result.ok, "an engine disagrees with the oracle"

# 4. Time each engine against the interpreter.
def seconds(engine):
    f = strata.compile(SOFTMAX, engine=engine)
    f(x)
    runs = []
    for _ in range(3 if engine == "interp" else 20):
        start = time.perf_counter()
        f(x)
        runs.append(time.perf_counter() - start)
    return float(np.median(runs))

names = [e["name"] for e in strata.engines() if e["available"]]
times = {name: seconds(name) for name in names}
for name, t in times.items():
    print(f"{name:8s} {t * 1e3:9.3f} ms  {times['interp'] / t:7.1f}x the interpreter")

# 5. The plot.
try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    print("matplotlib is not installed: no plot")
else:
    fig, ax = plt.subplots(figsize=(6, 2 + 0.4 * len(times)))
    ax.barh(list(times), [t * 1e3 for t in times.values()], color="#3182bd")
    ax.set_xscale("log")
    ax.set_xlabel("run time (ms, log scale)")
    ax.set_title("softmax of a 256 x 1024 f32 matrix")
    fig.tight_layout()
    out = sys.argv[1] if len(sys.argv) > 1 else "softmax_engines.png"
    fig.savefig(out)
    print("wrote", out)
