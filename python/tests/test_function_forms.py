"""@strata.function's index, gather/scatter, stencil, spec and loop forms,
checked against NumPy and against the oracle on every engine."""
import numpy as np
import pytest

import strata
from strata import ALL, Array, f32, f64, i64


def test_generate_backpermute_and_indices():
    @strata.function(engine="interp")
    def transpose_plus_grid(m: Array[f64, 2]):
        t = strata.backpermute((strata.shape(m)[1], strata.shape(m)[0]), lambda i: (i[1], i[0]), m)
        grid = strata.generate(strata.shape(t), lambda i: strata.cast(i[0] * 10 + i[1], f64))
        return strata.zipwith(lambda a, b: a + b, t, grid)

    m = np.arange(6.0).reshape(2, 3)
    want = m.T + 10 * np.arange(3)[:, None] + np.arange(2)[None, :]
    assert np.array_equal(transpose_plus_grid(m), want)
    assert "(backpermute (ix (proj 1 (shape m)) (proj 0 (shape m)))" in transpose_plus_grid.program


def test_permute_histogram_with_ignored_targets():
    @strata.function(engine="interp")
    def histogram(ks: Array[i64, 1]):
        ones = strata.fill(strata.shape(ks), 1)
        return strata.permute(lambda new, old: new + old, strata.fill((4,), 0),
                              lambda i: strata.where(ks[i] < 4, (ks[i],), strata.ignore(1)), ones)

    ks = np.array([0, 1, 1, 3, 7, 3, 3, -0])
    assert histogram(ks).tolist() == np.bincount(ks[ks < 4], minlength=4).tolist()
    assert "(ignore 1)" in histogram.program


def test_stencil_boundaries_against_numpy():
    def blur(boundary):
        @strata.function(engine="interp")
        def f(m: Array[f32, 2]):
            return strata.stencil(lambda nb: (nb[-1, 0] + nb[1, 0] + nb[0, -1] + nb[0, 1]) * 0.25,
                                  (3, 3), m, boundary=boundary)
        return f

    m = np.arange(20, dtype=np.float32).reshape(4, 5)
    for boundary, mode, extra in (("clamp", "edge", {}), ("mirror", "reflect", {}),
                                  ("wrap", "wrap", {}), (2.0, "constant", {"constant_values": 2})):
        p = np.pad(m, 1, mode=mode, **extra)
        want = (p[:-2, 1:-1] + p[2:, 1:-1] + p[1:-1, :-2] + p[1:-1, 2:]) * np.float32(0.25)
        assert np.array_equal(blur(boundary)(m), want), boundary


def test_replicate_slice_reshape():
    @strata.function(engine="interp")
    def shapes(v: Array[f32, 1]):
        r = strata.replicate((3, ALL), v)
        return r, strata.slice(r, (1, ALL)), strata.reshape((strata.size(r),), r)

    v = np.arange(4, dtype=np.float32)
    r, row, flat = shapes(v)
    assert np.array_equal(r, np.tile(v, (3, 1)))
    assert np.array_equal(row, v)
    assert np.array_equal(flat, np.tile(v, 3))


def test_awhile_with_a_tuple_state_reads_an_array_around_it_once():
    @strata.function(engine="interp")
    def steps(xs: Array[i64, 1]):
        doubled = strata.map(lambda x: x * 2, xs)          # read in and after the loop
        x, k = strata.awhile(lambda s: strata.map(lambda k: k < 3, s[1]),
                             lambda s: (strata.zipwith(lambda a, b: a + b, s[0], doubled),
                                        strata.map(lambda k: k + 1, s[1])),
                             (xs, strata.fill((), 0)))
        return x, k, doubled

    x, k, d = steps(np.arange(4))
    assert x.tolist() == (np.arange(4) * 7).tolist() and int(k) == 3
    assert d.tolist() == (np.arange(4) * 2).tolist()
    assert steps.program.count("(* _x") == 1  # doubled: bound once, outside the loop


def test_awhile_on_one_array_on_every_engine():
    @strata.function
    def halve(xs: Array[f64, 1]):
        return strata.awhile(lambda s: strata.map(lambda m: m > 1.0, strata.maximum(s)),
                             lambda s: strata.map(lambda x: x / 2, s), xs)

    xs = np.array([1.0, 8.0, 3.0])
    assert halve(xs).tolist() == [0.125, 1.0, 0.375]
    assert strata.check(halve.program, [xs]).ok


def test_forms_on_every_engine_agree_with_the_oracle():
    @strata.function
    def mixed(m: Array[f32, 2], ks: Array[i64, 1]):
        t = strata.backpermute((strata.shape(m)[1], strata.shape(m)[0]), lambda i: (i[1], i[0]), m)
        s = strata.stencil(lambda nb: nb[0, -1] - nb[0, 1], (1, 3), t, boundary="mirror")
        h = strata.permute(lambda a, b: a + b, strata.fill((5,), 0.0, dtype=f32),
                           lambda i: (ks[i] % 5,),
                           strata.generate(strata.shape(ks), lambda i: strata.cast(i[0] % 3, f32)))
        return s, h

    rng = np.random.default_rng(5)
    m = rng.standard_normal((6, 9)).astype(np.float32)
    ks = rng.integers(-20, 20, 50)
    assert strata.check(mixed.program, [m, ks]).ok


def test_form_mistakes_are_type_errors():
    with pytest.raises(TypeError, match="expected an index of rank 2"):
        @strata.function
        def wrong_rank(m: Array[f32, 2]):
            return strata.backpermute((3,), lambda i: i, m)
    with pytest.raises(TypeError, match="within the window's radius 1"):
        @strata.function
        def too_far(m: Array[f32, 1]):
            return strata.stencil(lambda nb: nb[2], (3,), m)
    with pytest.raises(TypeError, match="odd positive"):
        @strata.function
        def even(m: Array[f32, 1]):
            return strata.stencil(lambda nb: nb[0], (2,), m)
    with pytest.raises(TypeError, match="needs 1 strata.ALL"):
        @strata.function
        def spec(v: Array[f32, 1]):
            return strata.replicate((3, 4), v)
    with pytest.raises(TypeError, match="bool of rank 0"):
        @strata.function
        def cond(v: Array[f32, 1]):
            return strata.awhile(lambda s: s, lambda s: s, v)
    with pytest.raises(TypeError, match="the body gives"):
        @strata.function
        def body(v: Array[f32, 1]):
            return strata.awhile(lambda s: strata.map(lambda x: x > 0, strata.sum(s)),
                                 lambda s: strata.sum(s), v)
    with pytest.raises(TypeError, match="components"):
        @strata.function
        def add_indices(m: Array[f32, 2]):
            return strata.generate(strata.shape(m), lambda i: i + i)


def test_right_scans_segmented_folds_and_unit_against_numpy():
    @strata.function(engine="interp")
    def f(xs: Array[i64, 2], segs: Array[i64, 1]):
        return (strata.scanr(lambda a, b: a + b, 0, xs), strata.scanr1(strata.max, xs),
                strata.foldseg(lambda a, b: a + b, 0, xs, segs), strata.unit(7))

    xs = np.arange(12).reshape(2, 6) * np.array([1, -1, 1, -1, 1, -1])
    segs = np.array([2, 0, 4])
    right, right_max, by_segment, seven = f(xs, segs)
    rev = xs[:, ::-1]
    assert np.array_equal(right, np.concatenate([np.cumsum(rev, 1)[:, ::-1], np.zeros((2, 1), int)], 1))
    assert np.array_equal(right_max, np.maximum.accumulate(rev, 1)[:, ::-1])
    assert np.array_equal(by_segment, np.stack([xs[:, :2].sum(1), np.zeros(2, int), xs[:, 2:].sum(1)], 1))
    assert int(seven) == 7 and seven.ndim == 0
