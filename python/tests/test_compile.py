"""strata.compile and calls: results against NumPy, no copies in or out,
clear TypeErrors for inputs that would need one, errors as exceptions."""
import gc
import threading

import numpy as np
import pytest

import strata

SAXPY = ("(program ((xs (array f32 1)) (ys (array f32 1)))"
         " (zipwith (lambda (x y) (+ (* 2.5f32 x) y)) xs ys))")


def engines():
    return [e["name"] for e in strata.engines() if e["available"]]


@pytest.fixture(params=engines())
def engine(request):
    return request.param


def test_saxpy_equals_numpy_bit_for_bit(engine):
    rng = np.random.default_rng(1)
    x = rng.standard_normal(10_000).astype(np.float32)
    y = rng.standard_normal(10_000).astype(np.float32)
    for fusion in (True, False):
        out = strata.compile(SAXPY, engine=engine, fusion=fusion)(x, y)
        assert out.dtype == np.float32 and out.shape == (10_000,)
        # NumPy rounds 2.5*x, then adds y: the same two IEEE operations.
        assert np.array_equal(out.view(np.uint32), (np.float32(2.5) * x + y).view(np.uint32))


def test_inputs_are_used_in_place_and_results_own_their_memory():
    ident = strata.compile("(program ((xs (array f64 2))) xs)", engine="interp")
    x = np.arange(6.0).reshape(2, 3)
    out = ident(x)
    # The result is the input's own memory: nothing was copied on the way in.
    assert np.shares_memory(out, x)
    del x, ident
    gc.collect()
    assert out.tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]  # still alive


def test_results_outlive_the_program_and_are_fresh_arrays(engine):
    f = strata.compile("(program ((xs (array i32 1))) (map (lambda (x) (* x x)) xs))", engine=engine)
    x = np.arange(5, dtype=np.int32)
    out = f(x)
    assert not np.shares_memory(out, x)
    del f
    gc.collect()
    assert out.tolist() == [0, 1, 4, 9, 16]
    out[0] = 7  # a NumPy array the caller owns
    assert out[0] == 7


def test_tuple_results_are_tuples_and_rank0_is_0d():
    f = strata.compile("(program ((xs (array i64 1))) (atuple (fold + 0 xs) (map (lambda (x) (neg x)) xs)))",
                       engine="interp")
    total, neg = f(np.array([1, 2, 3]))
    assert total.shape == () and int(total) == 6
    assert neg.tolist() == [-1, -2, -3]


def test_keyword_arguments_by_parameter_name():
    f = strata.compile(SAXPY, engine="interp")
    x, y = np.ones(3, np.float32), np.arange(3, dtype=np.float32)
    assert f(ys=y, xs=x).tolist() == f(x, y).tolist()


@pytest.mark.parametrize("bad, words", [
    (lambda x: x.astype(np.float64), ["float32 array of rank 1", "given a float64 array", "strata.asarray"]),
    (lambda x: x[::2], ["not C-contiguous"]),
    (lambda x: x.reshape(2, 2), ["rank 1", "given a float32 array of rank 2"]),
    (lambda x: x.tolist(), ["not an array", "numpy.asarray"]),
])
def test_wrong_inputs_are_type_errors_never_copies(bad, words):
    f = strata.compile(SAXPY, engine="interp")
    x = np.arange(4, dtype=np.float32)
    with pytest.raises(TypeError) as e:
        f(bad(x), x)
    for w in words:
        assert w in str(e.value), str(e.value)
    assert "parameter `xs` is (array f32 1)" in str(e.value)


def test_missing_and_extra_arguments():
    f = strata.compile(SAXPY, engine="interp")
    x = np.zeros(2, np.float32)
    with pytest.raises(TypeError, match=r"takes 2 argument\(s\) \(xs, ys\), given no `ys`"):
        f(x)
    with pytest.raises(TypeError, match="given 3"):
        f(x, x, x)
    with pytest.raises(TypeError, match="an argument named `zs`"):
        f(x, x, zs=x)


def test_explicit_conversion():
    f = strata.compile(SAXPY, engine="interp")
    x = strata.asarray([1, 2, 3], strata.f32)
    assert x.dtype == np.float32
    assert f(x, x).tolist() == [3.5, 7.0, 10.5]


def test_run_time_errors_are_exceptions_and_leave_inputs_untouched(engine):
    f = strata.compile("(program ((xs (array i64 1))) (map (lambda (x) (quot 10 x)) xs))", engine=engine)
    x = np.array([5, 0, 2])
    before = x.copy()
    with pytest.raises(strata.RuntimeError) as e:
        f(x)
    assert isinstance(e.value, RuntimeError)  # also the builtin
    assert e.value.kind == "division-by-zero"
    assert e.value.location == "<string>:1:48"
    assert "division by zero in `quot` (10 quot 0)" in str(e.value)  # the headline every engine gives
    assert np.array_equal(x, before)


def test_program_errors():
    with pytest.raises(strata.ProgramError) as e:
        strata.compile("(program ((xs (array i64 1))) (map (lambda (x) (+ x 1.0)) xs))")
    assert e.value.kind == "type" and e.value.location == "<string>:1:48"
    with pytest.raises(strata.ProgramError):
        strata.compile("(program (")
    with pytest.raises(strata.InputError, match="no such program file"):
        strata.compile("no/such/file.strata")
    with pytest.raises(strata.InputError, match="unknown engine `gpu9`"):
        strata.compile(SAXPY, engine="gpu9")


def test_a_program_from_a_file(tmp_path):
    p = tmp_path / "double.strata"
    p.write_text("; doubles\n(program ((xs (array u8 1))) (map (lambda (x) (* x 2u8)) xs))\n")
    f = strata.compile(str(p), engine="interp")
    assert f(np.array([1, 200], np.uint8)).tolist() == [2, 144]  # u8 wraps
    with pytest.raises(strata.RuntimeError) as e:
        strata.run("(program ((xs (array i64 1))) (map (lambda (x) (! xs (ix 9))) xs))", np.arange(2))
    assert e.value.kind == "bounds"


def test_two_threads_call_at_once(engine):
    f = strata.compile("(program ((xs (array f64 1))) (fold + 0.0 (map (lambda (x) (* x x)) xs)))",
                       engine=engine)
    g = strata.compile("(program ((xs (array i64 1))) (scanl1 + xs))", engine=engine)
    xs = np.linspace(0, 1, 100_000)
    ks = np.arange(100_000)
    want_f, want_g = f(xs), g(ks)
    errors = []

    def work(fn, arg, want):
        for _ in range(20):
            if not np.array_equal(fn(arg), want):
                errors.append(fn)

    threads = [threading.Thread(target=work, args=a) for a in
               [(f, xs, want_f), (g, ks, want_g), (f, xs, want_f), (g, ks, want_g)]]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_a_huge_shape_is_an_error_not_a_crash():
    f = strata.compile("(program () (fill (ix 4000000000000) 1.0))", engine="interp")
    with pytest.raises(strata.RuntimeError) as e:
        f()
    assert e.value.kind == "resource"


class OnlyDLPack:
    """An array seen only through DLPack (as a JAX or PyTorch CPU array is)."""

    def __init__(self, a):
        self.a = a

    def __dlpack__(self, stream=None):
        return self.a.__dlpack__()

    def __dlpack_device__(self):
        return self.a.__dlpack_device__()


def test_any_dlpack_or_buffer_protocol_array_is_used_in_place():
    import array

    ident = strata.compile("(program ((xs (array f32 1))) xs)", engine="interp")
    x = np.arange(5, dtype=np.float32)
    out = ident(OnlyDLPack(x))
    assert np.shares_memory(out, x)  # read in place through DLPack
    buf = array.array("f", [1.0, 2.0, 3.0])  # the buffer protocol only
    assert ident(buf).tolist() == [1.0, 2.0, 3.0]
    with pytest.raises(TypeError, match="given a float64 array"):
        ident(array.array("d", [1.0]))


def test_jax_cpu_arrays_are_read_in_place_through_dlpack():
    jnp = pytest.importorskip("jax.numpy", reason="jax is installed by scripts/setup.sh")
    ident = strata.compile("(program ((m (array f32 2))) m)", engine="interp")
    m = jnp.arange(12, dtype=jnp.float32).reshape(3, 4)
    out = ident(m)
    assert np.shares_memory(out, np.from_dlpack(m))  # JAX's own buffer, not a copy
    saxpy = strata.compile("(program ((xs (array f32 1)) (ys (array f32 1)))"
                           " (zipwith (lambda (x y) (+ (* 2.5f32 x) y)) xs ys))")
    x, y = jnp.linspace(-1, 1, 1000, dtype=jnp.float32), jnp.full(1000, 0.25, jnp.float32)
    assert np.array_equal(saxpy(x, y), np.float32(2.5) * np.asarray(x) + np.asarray(y))
    with pytest.raises(TypeError, match="given a int32 array of rank 1"):
        saxpy(jnp.arange(3, dtype=jnp.int32), y)


def test_an_input_of_tuple_elements_is_a_tuple_of_arrays_read_in_place():
    f = strata.compile("(program ((ps (array (tuple f32 (tuple i64 f32)) 1)))"
                       " (map (lambda (p) (+ (proj 0 p) (cast f32 (proj 0 (proj 1 p))))) ps))",
                       engine="interp")
    a, b, c = np.arange(3, dtype=np.float32), np.arange(3) * 10, np.zeros(3, np.float32)
    assert f((a, (b, c))).tolist() == [0.0, 11.0, 22.0]
    ident = strata.compile("(program ((ps (array (tuple f32 i64) 1))) ps)", engine="interp")
    out = ident((a, b))  # results of tuple elements come back in the same form
    assert np.shares_memory(out[0], a) and np.shares_memory(out[1], b)
    with pytest.raises(TypeError, match="a tuple of 2 arrays, one per component, given an object of type ndarray"):
        f(a)
    with pytest.raises(TypeError, match="component 1.1 has shape \\(2,\\), the first \\(3,\\)"):
        f((a, (b, c[:2])))
    with pytest.raises(TypeError, match="component 1.0 of its tuple of arrays is a C-contiguous int64 array"):
        f((a, (b.astype(np.int32), c)))


def test_fast_math_is_within_its_bound_and_exact_is_bitwise():
    prog = "(program ((xs (array f32 1))) (map (lambda (x) (exp x)) xs))"
    xs = np.linspace(-80, 80, 20001, dtype=np.float32)
    want = strata.run(prog, xs)  # the interpreter
    assert np.array_equal(strata.compile(prog, math="exact")(xs), want)
    if "jit" not in engines():
        pytest.skip("fast math changes results only on the jit")
    fast = strata.compile(prog, engine="jit", math="fast")
    assert (fast.math, fast.math_ulps) == ("fast", 4)
    got = fast(xs)
    ulps = np.abs(got.view(np.int32).astype(np.int64) - want.view(np.int32).astype(np.int64))
    assert ulps.max() <= 4
    assert (ulps > 0).any()  # a vector math library, not the C library's expf
    assert strata.compile(prog, engine="jit").math_ulps == 0
    with pytest.raises(strata.InputError, match='math="quick": unknown mode'):
        strata.compile(prog, engine="jit", math="quick")
