"""@strata.function's array arithmetic: Python's operators and NumPy's ufuncs
on traced arrays (elementwise: a map or a zipwith), `axis=` on the
reductions, and the errors that say what to write instead; results are
compared with NumPy's."""
import inspect
import re

import numpy as np
import pytest

import strata
from strata import Array, f32, f64, i64

XS = np.array([0.25, 0.5, 0.75, 0.125, 0.875])
YS = np.array([0.5, 0.125, 0.625, 0.75, 0.375])
M = np.arange(12.0).reshape(3, 4) - 5.5
V = np.array([1.0, -2.0, 0.5, 4.0])


def traced(fn, *types):
    """`fn` traced with parameters of `types` (a lambda has no annotations), on the oracle."""
    fn.__annotations__ = dict(zip(inspect.signature(fn).parameters, types))
    return strata.Function(fn, engine="interp")


def vec(elem=f64):
    return Array[elem, 1]


def test_operators_with_a_scalar_on_either_side_are_a_map():
    f = traced(lambda xs: (xs + 1, 2.0 - xs, xs * 3, 1 / xs, xs / 4, -xs, abs(xs - 0.5),
                           xs ** 2, 2 ** xs), vec())
    assert f.program.count("(map (lambda") == 10 and "zipwith" not in f.program
    got = f(XS)
    want = (XS + 1, 2.0 - XS, XS * 3, 1 / XS, XS / 4, -XS, abs(XS - 0.5), XS ** 2, 2 ** XS)
    for g, w in zip(got[:7], want[:7]):
        assert np.array_equal(g, w)
    np.testing.assert_allclose(got[7], want[7], rtol=1e-15)  # Strata's pow: the C library's
    np.testing.assert_allclose(got[8], want[8], rtol=1e-15)
    assert "(pow _x" in f.program and "2.0f64)" in f.program


def test_two_arrays_are_a_zipwith_and_one_array_twice_a_map():
    f = traced(lambda xs, ys: (xs + ys, xs - ys, xs * ys, xs / ys, xs ** ys, xs * xs), vec(), vec())
    assert f.program.count("(zipwith (lambda") == 5
    assert re.search(r"\(map \(lambda \((_x\w+)\) \(\* \1 \1\)\) xs\)", f.program)
    got = f(XS, YS)
    for g, w in zip(got, (XS + YS, XS - YS, XS * YS, XS / YS)):
        assert np.array_equal(g, w)
    np.testing.assert_allclose(got[4], XS ** YS, rtol=1e-15)
    assert np.array_equal(got[5], XS * XS)


def test_integer_operators_round_as_python_does():
    ks, ds = np.array([7, -7, 12, -1, 0]), np.array([2, 3, -5, 4, 7])
    f = traced(lambda k, d: (k // d, k % d, k // 3, 100 // d, -7 % d, k & d, 6 & k, k | 1, 1 | k,
                             k ^ d, 5 ^ k, ~k, k * k - 2 * k + 1, 1 + k),
               vec(i64), vec(i64))
    want = (ks // ds, ks % ds, ks // 3, 100 // ds, -7 % ds, ks & ds, 6 & ks, ks | 1, 1 | ks,
            ks ^ ds, 5 ^ ks, ~ks, ks * ks - 2 * ks + 1, 1 + ks)
    for g, w in zip(f(ks, ds), want):
        assert g.tolist() == w.tolist()


def test_comparisons_give_bool_arrays_for_where_and_boolean_operators():
    f = traced(lambda xs, ys: (xs < ys, xs <= 0.5, xs > ys, 0.5 >= xs, xs == 0.5, xs != ys,
                               (xs > 0.2) & (xs < 0.8), (xs < 0.2) | ~(xs < 0.8),
                               True ^ (xs > ys),
                               strata.where(xs > ys, xs, 0), strata.where(xs > ys, 1.0, ys)),
               vec(), vec())
    want = (XS < YS, XS <= 0.5, XS > YS, 0.5 >= XS, XS == 0.5, XS != YS,
            (XS > 0.2) & (XS < 0.8), (XS < 0.2) | ~(XS < 0.8), True ^ (XS > YS),
            np.where(XS > YS, XS, 0), np.where(XS > YS, 1.0, YS))
    got = f(XS, YS)
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and np.array_equal(g, w)


def test_cast_and_the_scalar_functions_apply_to_arrays():
    f = traced(lambda xs, ys: (strata.cast(xs * 8, i64), strata.max(xs, ys), strata.min(xs, 0.5),
                               strata.exp(xs), strata.atan2(xs, ys), strata.isnan(xs / 0.0 - xs / 0.0)),
               vec(), vec())
    got = f(XS, YS)
    assert got[0].tolist() == (XS * 8).astype(np.int64).tolist()
    assert np.array_equal(got[1], np.maximum(XS, YS))
    assert np.array_equal(got[2], np.minimum(XS, 0.5))
    np.testing.assert_allclose(got[3], np.exp(XS), rtol=1e-15)
    np.testing.assert_allclose(got[4], np.arctan2(XS, YS), rtol=1e-15)
    assert got[5].tolist() == [True] * 5


def test_arrays_of_one_rank_and_different_shapes_combine_over_the_intersection():
    f = traced(lambda xs, ys: xs + ys, vec(), vec())
    assert np.array_equal(f(XS, YS[:3]), XS[:3] + YS[:3])   # zipwith's rule, not an error


def test_a_rank_zero_array_or_a_traced_scalar_is_the_same_at_every_element():
    f = traced(lambda xs: (xs / strata.sum(xs), strata.the(strata.maximum(xs)) - xs, xs - xs[0],
                           strata.sum(xs) * 2),
               vec())
    assert "(the _t0)" in f.program
    share, below, shifted, twice = f(XS)
    assert np.array_equal(share, XS / XS.sum())
    assert np.array_equal(below, XS.max() - XS)
    assert np.array_equal(shifted, XS - XS[0])
    assert twice.shape == () and float(twice) == XS.sum() * 2


def test_arrays_of_different_ranks_need_replicate():
    fix = re.escape("strata.replicate((strata.shape(m)[0], strata.ALL), v)")
    with pytest.raises(TypeError, match=r"`-` of arrays of rank 2 and 1: .* does not broadcast; .*" + fix):
        traced(lambda m, v: m - v, Array[f64, 2], vec())
    f = traced(lambda m, v: m - strata.replicate((strata.shape(m)[0], strata.ALL), v),
               Array[f64, 2], vec())
    assert np.array_equal(f(M, V), M - V)


def test_mixed_element_types_name_cast():
    with pytest.raises(TypeError, match="`\\+` of f32 and f64: convert one with strata.cast"):
        traced(lambda a, b: a + b, vec(f32), vec())
    f = traced(lambda a, b: strata.cast(a, f64) + b, vec(f32), vec())
    a = np.array([0.1, 0.2], np.float32)
    assert np.array_equal(f(a, XS[:2]), a.astype(np.float64) + XS[:2])


UNARY = ["negative", "absolute", "square", "sqrt", "exp", "log", "sin", "cos", "tan", "arcsin",
         "arccos", "arctan", "sinh", "cosh", "tanh", "floor", "ceil", "trunc", "isnan", "isinf"]
POSITIVE = ("sqrt", "log", "arcsin", "arccos")  # given XS; the others XS * 4 - 1.75
BINARY = ["add", "subtract", "multiply", "divide", "power", "maximum", "minimum", "fmax", "fmin",
          "arctan2", "equal", "not_equal", "less", "less_equal", "greater", "greater_equal"]


@pytest.mark.parametrize("name", UNARY)
def test_a_unary_ufunc_is_its_strata_primitive(name):
    ufunc = getattr(np, name)
    xs = XS if name in POSITIVE else XS * 4 - 1.75
    f = traced(lambda xs: ufunc(xs), vec())
    want = ufunc(xs)
    got = f(xs)
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=1e-15)


@pytest.mark.parametrize("name", BINARY)
def test_a_binary_ufunc_is_its_strata_primitive(name):
    ufunc = getattr(np, name)
    f = traced(lambda xs, ys: (ufunc(xs, ys), ufunc(xs, 0.5), ufunc(np.float64(0.5), ys)), vec(), vec())
    for got, want in zip(f(XS, YS), (ufunc(XS, YS), ufunc(XS, 0.5), ufunc(0.5, YS))):
        assert got.dtype == want.dtype
        np.testing.assert_allclose(got, want, rtol=1e-15)


@pytest.mark.parametrize("name", ["floor_divide", "remainder", "bitwise_and", "bitwise_or",
                                  "bitwise_xor", "invert"])
def test_an_integer_ufunc_is_its_strata_primitive(name):
    ufunc = getattr(np, name)
    ks, ds = np.array([7, -7, 12, -1, 0]), np.array([2, 3, -5, 4, 7])
    if ufunc.nin == 1:
        assert traced(lambda k: ufunc(k), vec(i64))(ks).tolist() == ufunc(ks).tolist()
    else:
        assert traced(lambda k, d: ufunc(k, d), vec(i64), vec(i64))(ks, ds).tolist() == \
            ufunc(ks, ds).tolist()


def test_ufuncs_and_numpy_scalars_in_scalar_code():
    f = traced(lambda xs: strata.map(lambda x: np.sqrt(x) * np.float64(2) + np.maximum(x, 0.5), xs),
               vec())
    assert "(map (lambda (_x" in f.program and "zipwith" not in f.program
    np.testing.assert_allclose(f(XS), np.sqrt(XS) * 2 + np.maximum(XS, 0.5), rtol=1e-15)
    g = traced(lambda xs: np.float32(2) * xs - np.float32(1), vec(f32))
    a = XS.astype(np.float32)
    assert np.array_equal(g(a), np.float32(2) * a - np.float32(1))


def test_ufunc_errors_say_what_to_write():
    with pytest.raises(TypeError, match="np.log10 has no Strata primitive"):
        traced(lambda xs: np.log10(xs), vec())
    with pytest.raises(TypeError, match="np.add.outer has no Strata primitive"):
        traced(lambda xs: np.add.outer(xs, xs), vec())
    with pytest.raises(TypeError, match=r"np.add.accumulate .*strata\.scanl1"):
        traced(lambda xs: np.add.accumulate(xs), vec())
    with pytest.raises(TypeError, match="out=.*takes its operands only"):
        traced(lambda xs: np.exp(xs, out=xs), vec())
    with pytest.raises(TypeError, match="np.add of a NumPy array and a traced value: pass the array "
                                        "as a parameter"):
        traced(lambda xs: np.ones(5) + xs, vec())
    with pytest.raises(TypeError, match="a NumPy array in a traced function: pass it as a parameter"):
        traced(lambda xs: xs + np.ones(5), vec())
    with pytest.raises(TypeError, match="its other functions do not; use the strata functions"):
        traced(lambda xs: np.mean(xs), vec())
    with pytest.raises(TypeError, match=r"strata\.sqrt of i64: .*strata\.cast\(x, strata\.f64\)"):
        traced(lambda ks: np.sqrt(ks), vec(i64))


def test_axis_on_the_reductions():
    f = traced(lambda m: (strata.sum(m), strata.sum(m, axis=-1), strata.product(m, axis=1),
                          strata.maximum(m, axis=-1), strata.minimum(m, axis=1),
                          strata.maximum(m, axis=None)),
               Array[f64, 2])
    assert "(sum m)" in f.program and "(fold1 (lambda" in f.program
    got = f(M)
    assert got[0].shape == () and float(got[0]) == M.sum()
    for g, w in zip(got[1:], (M.sum(axis=-1), M.prod(axis=1), M.max(axis=-1), M.min(axis=1), M.max())):
        assert g.shape == w.shape and np.array_equal(g, w)
    v = traced(lambda xs: strata.sum(xs, axis=0), vec(i64))   # axis 0 is innermost at rank 1
    assert int(v(np.array([3, 4, 5]))) == 12


def test_numpys_reductions_are_the_strata_reductions():
    f = traced(lambda m: (np.sum(m), np.sum(m, axis=-1), np.prod(m, axis=1), np.max(m, axis=1),
                          np.min(m), np.add.reduce(m, axis=-1)),
               Array[f64, 2])
    got = f(M)
    want = (M.sum(), M.sum(axis=-1), M.prod(axis=1), M.max(axis=1), M.min(), M.sum(axis=-1))
    for g, w in zip(got, want):
        assert g.shape == w.shape and np.array_equal(g, w)


def test_an_axis_strata_cannot_reduce_is_an_error_naming_what_to_write():
    with pytest.raises(TypeError, match=r"strata\.sum\(a, axis=0\) of an array of rank 2: .*"
                                        r"innermost dimension \(axis=-1\); .*strata\.backpermute"):
        traced(lambda m: strata.sum(m, axis=0), Array[f64, 2])
    with pytest.raises(TypeError, match=r"strata\.maximum\(a, axis=0\) of an array of rank 2"):
        traced(lambda m: np.max(m, axis=0), Array[f64, 2])
    with pytest.raises(TypeError, match=r"axis=\(0, 1\)"):
        traced(lambda m: strata.minimum(m, axis=(0, 1)), Array[f64, 2])
    with pytest.raises(TypeError, match="an array of rank 0 has no axis"):
        traced(lambda xs: strata.product(strata.sum(xs), axis=-1), vec())
    with pytest.raises(TypeError, match=r"np.add.reduce with keepdims= .*takes an axis only"):
        traced(lambda m: np.sum(m, axis=-1, keepdims=True), Array[f64, 2])
    # The message's advice works: axis 0 moved innermost with backpermute.
    f = traced(lambda m: strata.sum(strata.backpermute((strata.shape(m)[1], strata.shape(m)[0]),
                                                       lambda i: (i[1], i[0]), m), axis=-1),
               Array[f64, 2])
    assert np.array_equal(f(M), M.sum(axis=0))


def test_pythons_builtins_on_traced_values_name_the_strata_functions():
    max_message = r"strata\.max\(a, b\) / strata\.min\(a, b\) instead of Python's max and min"
    with pytest.raises(TypeError, match=max_message):
        traced(lambda xs, ys: max(xs, ys), vec(), vec())
    with pytest.raises(TypeError, match=max_message):
        traced(lambda xs: strata.map(lambda x: max(x, 0.0), xs), vec())
    with pytest.raises(TypeError, match=r"not iterable .*strata\.sum / product / maximum / minimum"):
        traced(lambda xs: max(xs), vec())
    with pytest.raises(TypeError, match=r"not iterable"):
        traced(lambda xs: sum(xs), vec())
    with pytest.raises(TypeError, match=r"strata\.size\(a\) is its element count"):
        traced(lambda xs: len(xs), vec())
    with pytest.raises(TypeError, match=r"use strata\.where\(c, a, b\) instead of `if`"):
        traced(lambda xs: xs if xs > 0 else -xs, vec())


def test_operators_outside_their_types_say_what_to_write():
    with pytest.raises(TypeError, match=r"`\*\*` of i64: Strata's pow is for f32 and f64: multiply"):
        traced(lambda ks: ks ** 2, vec(i64))
    with pytest.raises(TypeError, match=r"`//` of f64: .*strata\.floor\(a / b\)"):
        traced(lambda xs: xs // 2, vec())
    with pytest.raises(TypeError, match=r"`%` of f64: .*a - b \* strata\.floor\(a / b\)"):
        traced(lambda xs: xs % 2.0, vec())
    with pytest.raises(TypeError, match="use // "):
        traced(lambda ks: ks / 2, vec(i64))
    with pytest.raises(TypeError, match=r"strata\.atan2 of i64: .*for f32 and f64: convert with strata\.cast"):
        traced(lambda ks: strata.atan2(ks, 1), vec(i64))
    with pytest.raises(TypeError, match=r"nested data parallelism.*xs\[i\]"):
        traced(lambda xs: strata.map(lambda x: xs * x, xs), vec())


def test_traced_arithmetic_agrees_with_the_oracle_on_every_engine():
    def program(m, v):
        rows = strata.replicate((strata.shape(m)[0], strata.ALL), v)
        return np.exp(m * 0.5) - rows ** 2, strata.maximum(m, axis=-1), m / strata.sum(m)

    f = traced(program, Array[f64, 2], vec())
    rng = np.random.default_rng(7)
    assert strata.check(f.program, [rng.standard_normal((5, 33)), rng.standard_normal(33)]).ok
