#!/usr/bin/env python3
"""Strata from Python against the same engine from C++ and against NumPy.

    PYTHONPATH=build/release/python .venv/bin/python bench/python_bench.py [--quick]

1. Call overhead: a compiled 1-element program called from Python, against
   the engine's run alone timed in C++ (Compiled._run_seconds).
2. saxpy, dotp and a chain of three maps on 2^22 and 2^24 f32 elements,
   per engine: the Python call, the same engine's run timed in C++ on the
   same arrays (the two measured alternately, each freeing its results), and
   NumPy. Medians of repeated runs; a table on stdout.

NumPy's dotp is np.dot (BLAS: another summation order, so not the same
result bit for bit); its saxpy and map chain are the same IEEE operations.
"""
import statistics
import sys
import time

import numpy as np

import strata

PROGRAMS = {
    "saxpy": ("(program ((xs (array f32 1)) (ys (array f32 1)))"
              " (zipwith (lambda (x y) (+ (* 2.5f32 x) y)) xs ys))",
              lambda x, y: np.float32(2.5) * x + y),
    "dotp": ("(program ((xs (array f32 1)) (ys (array f32 1)))"
             " (fold + 0f32 (zipwith * xs ys)))",
             lambda x, y: np.dot(x, y)),
    "map-chain": ("(program ((xs (array f32 1)) (ys (array f32 1)))"
                  " (map (lambda (x) (* x x)) (map (lambda (x) (* x 0.5f32))"
                  " (map (lambda (x) (+ x 1f32)) xs))))",
                  lambda x, y: ((x + np.float32(1)) * np.float32(0.5)) ** 2),
}


def median_seconds(fn, repetitions):
    times = []
    for _ in range(repetitions):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def paired_medians(call, run_in_cpp, repetitions):
    """Median milliseconds of a Python call and of the engine's run timed in
    C++, measured alternately (A B A B ...) so that both see the same machine
    state (clock, caches, other load)."""
    py, cpp = [], []
    for _ in range(repetitions):
        start = time.perf_counter()
        call()
        py.append(time.perf_counter() - start)
        cpp.append(run_in_cpp())
    return statistics.median(py) * 1e3, statistics.median(cpp) * 1e3


def main():
    quick = "--quick" in sys.argv
    engines = [e["name"] for e in strata.engines() if e["available"] and e["name"] != "interp"]
    print(f"strata {strata.__version__}, engines {', '.join(engines)}, numpy {np.__version__}")

    print("\n## Call overhead of a 1-element program (microseconds, median)\n")
    print("| engine | Python call | engine run in C++ | overhead |")
    print("|---|---|---|---|")
    one = np.ones(1, np.float32)
    calls = 2000 if quick else 20000
    for engine in engines:
        f = strata.compile(PROGRAMS["saxpy"][0], engine=engine)
        f(one, one)
        py = median_seconds(lambda: f(one, one), calls) * 1e6
        cpp = statistics.median(f._run_seconds([one, one], calls)) * 1e6
        print(f"| {engine} | {py:.2f} | {cpp:.2f} | {py - cpp:.2f} |")

    print("\n## Large arrays (milliseconds, median)\n")
    print("| program | n | engine | Python call | same engine from C++ | Python/C++ | NumPy | NumPy/Python |")
    print("|---|---|---|---|---|---|---|---|")
    rng = np.random.default_rng(1)
    for n in ([1 << 20] if quick else [1 << 22, 1 << 24]):
        x = rng.standard_normal(n).astype(np.float32)
        y = rng.standard_normal(n).astype(np.float32)
        reps = 5 if quick else 41
        for name, (text, numpy_fn) in PROGRAMS.items():
            npy = median_seconds(lambda: numpy_fn(x, y), reps) * 1e3
            for engine in engines:
                f = strata.compile(text, engine=engine)
                f(x, y)
                py, cpp = paired_medians(lambda: f(x, y), lambda: f._run_seconds([x, y], 1)[0], reps)
                print(f"| {name} | 2^{n.bit_length() - 1} | {engine} | {py:.3f} | {cpp:.3f} | "
                      f"{py / cpp:.3f} | {npy:.3f} | {npy / py:.2f}x |")


if __name__ == "__main__":
    main()
