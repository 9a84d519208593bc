"""Folds and scans of associative functions that do not commute, against
NumPy, on every engine fused and unfused, at lengths around every threshold
of the blocked order (docs/language.md, "Legal orders"). Until the orders
were made legal these were wrong on tbb, jit and mpi from 32 768 / 65 536
elements, while the oracle, replaying the same illegal order, agreed."""
import numpy as np
import pytest

import strata

FILL = "(lambda ((a i64) (b i64)) (if (== b 0) a b))"
# Around fold_chunk, fold_chunked_from, scan_chunked_from and two scan chunks
# of the blocked order, and a million.
LENGTHS = [n + d for n in (16384, 32768, 65536, 131072) for d in (-1, 0, 1)] + [1 << 20]


def engines():
    return [e["name"] for e in strata.engines() if e["available"]]


@pytest.fixture(params=[(e, f) for e in engines() for f in (True, False)],
                ids=lambda p: p[0] + ("" if p[1] else "-unfused"))
def target(request):
    return request.param


def sparse(n):
    xs = np.zeros(n, dtype=np.int64)
    xs[1::4099] = np.arange(1, n, 4099)
    xs[1] = 1
    if n > 16368:
        xs[16368] = 2
    return xs


def forward_fill(xs):
    """Element i: the last non-zero of xs[0..i] (xs[0] when there is none)."""
    last = np.maximum.accumulate(np.where(xs != 0, np.arange(len(xs)), 0))
    return xs[last]


def test_forward_fill_fold_and_scan_equal_numpy(target):
    engine, fusion = target
    fold = strata.compile(f"(program ((xs (array i64 1))) (fold {FILL} 0 xs))",
                          engine=engine, fusion=fusion)
    scan = strata.compile(f"(program ((xs (array i64 1))) (scanl1 {FILL} xs))",
                          engine=engine, fusion=fusion)
    for n in LENGTHS:
        xs = sparse(n)
        want = forward_fill(xs)
        assert int(fold(xs)) == want[-1], n
        got = scan(xs)
        assert np.array_equal(got, want), (n, np.flatnonzero(got != want)[:3])


def test_segmented_scans_equal_numpy_cumsum(target):
    engine, fusion = target
    left = strata.compile("(program ((xs (array i64 1)) (segs (array i64 1)))"
                          " (scanl1seg + xs segs))", engine=engine, fusion=fusion)
    right = strata.compile("(program ((xs (array i64 1)) (segs (array i64 1)))"
                           " (scanr1seg + xs segs))", engine=engine, fusion=fusion)
    for n in LENGTHS:
        xs = np.ones(n, dtype=np.int64)
        segs = np.array([1, n - 1], dtype=np.int64)
        pieces = np.split(xs, np.cumsum(segs)[:-1])
        want_left = np.concatenate([np.cumsum(p) for p in pieces])
        want_right = np.concatenate([np.cumsum(p[::-1])[::-1] for p in pieces])
        got = left(xs, segs)
        assert np.array_equal(got, want_left), (n, np.flatnonzero(got != want_left)[:3])
        got = right(xs, segs)
        assert np.array_equal(got, want_right), (n, np.flatnonzero(got != want_right)[:3])
