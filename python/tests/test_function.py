"""@strata.function: Python functions traced into Strata programs, with
sharing recovery, checked against NumPy and the oracle."""
import numpy as np
import pytest

import strata
from strata import Array, f32, f64, i64


def test_saxpy_traced_equals_numpy():
    @strata.function
    def saxpy(xs: Array[f32, 1], ys: Array[f32, 1]):
        return strata.zipwith(lambda x, y: 2.5 * x + y, xs, ys)

    assert saxpy.program.startswith("(program ((xs (array f32 1)) (ys (array f32 1)))")
    assert "2.5f32" in saxpy.program
    x = np.linspace(-1, 1, 1000, dtype=np.float32)
    y = np.full(1000, 0.25, np.float32)
    assert np.array_equal(saxpy(x, y), np.float32(2.5) * x + y)


def test_an_array_used_twice_is_computed_once():
    @strata.function(engine="interp")
    def normalise(xs: Array[f64, 1]):
        squares = strata.map(lambda x: x * x, xs)
        total = strata.sum(squares)
        largest = strata.fold(strata.max, -np.inf, squares)
        return strata.map(lambda x: x / strata.sqrt(strata.the(total)), xs), largest

    text = normalise.program
    assert text.count("(map (lambda") == 2  # squares once, the result once
    assert "(alet ((_t0 (map" in text and "(the _t1)" in text
    out, largest = normalise(np.array([3.0, 4.0]))
    assert out.tolist() == [0.6, 0.8]
    assert float(largest) == 16.0


def test_reads_from_scalar_code_and_integer_operators_are_pythons():
    @strata.function(engine="interp")
    def shifted(xs: Array[i64, 1], ks: Array[i64, 1]):
        # Python's // and % round toward minus infinity: Strata's div and mod.
        return strata.map(lambda k: xs[k % 3] // 2 + (-7) % 3, ks)

    xs = np.array([10, -9, 4])
    ks = np.array([0, 1, 2, 5])
    want = [xs[k % 3] // 2 + (-7) % 3 for k in ks]
    assert shifted(xs, ks).tolist() == want


def test_where_and_casts():
    @strata.function(engine="interp")
    def clip(xs: Array[f32, 1]):
        return strata.map(lambda x: strata.where(x > 1.0, 1.0, strata.cast(strata.cast(x, f64), f32)), xs)

    assert clip(np.array([0.5, 3.0], np.float32)).tolist() == [0.5, 1.0]


def test_every_engine_agrees_with_the_oracle_on_a_traced_program():
    @strata.function
    def stats(xs: Array[f64, 2]):
        m = strata.map(lambda x: x * 0.5 + 1.0, xs)
        return strata.fold(lambda a, b: a + b, 0.0, m), strata.scanl1(strata.max, m)

    x = np.random.default_rng(3).standard_normal((7, 33))
    assert strata.check(stats.program, [x]).ok


def test_tracing_mistakes_are_type_errors():
    with pytest.raises(TypeError, match="needs an annotation"):
        strata.function(lambda xs: xs)
    with pytest.raises(TypeError, match="use strata.where"):
        @strata.function
        def branchy(xs: Array[f32, 1]):
            return strata.map(lambda x: x if x > 0 else -x, xs)
    with pytest.raises(TypeError, match="f32 and f64"):
        @strata.function
        def mixed(xs: Array[f32, 1], ys: Array[f64, 1]):
            return strata.zipwith(lambda x, y: x + y, xs, ys)
    with pytest.raises(TypeError, match="rank 1 or more"):
        @strata.function
        def fold0(xs: Array[f32, 1]):
            return strata.fold(lambda a, b: a + b, 0.0, strata.sum(xs))
    with pytest.raises(TypeError, match="use // "):
        @strata.function
        def intdiv(xs: Array[i64, 1]):
            return strata.map(lambda x: x / 2, xs)
