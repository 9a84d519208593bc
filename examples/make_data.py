#!/usr/bin/python3
"""Generate the inputs and expected outputs of every example under examples/.

Run from anywhere with a Python 3 that has NumPy (on Debian: apt-get install
python3-numpy; run /usr/bin/python3 examples/make_data.py).  The script is
deterministic: inputs come from fixed lists or from the hash32-based generators
of docs/bench.md ("Workload definitions") at small sizes, so rerunning it rewrites byte-identical files.

Expected outputs are computed here with NumPy directly from the formulas, never
by Strata.  Where Strata's oracle order matters for floats (folds, stencils),
the sums are accumulated in the same left-to-right order in the element's
precision, so the reference interpreter should reproduce them bit for bit;
see README.md for the tolerance each example needs on other engines.

Layout (the CLI and golden tests rely on it):
    examples/NAME.strata          the program
    examples/NAME/PARAM.npy       one input per program parameter
    examples/NAME/expected.npy    the result; for an atuple result
    examples/NAME/expected.K.npy  one file per component K = 0, 1, ...

Before writing anything the script tokenises every examples/*.strata file and
checks that it is one balanced s-expression starting with `program` whose
parameters all have files (see check_syntax below).
"""

import ctypes
import ctypes.util
import os
import re
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
M32 = np.uint64(0xFFFFFFFF)


# ----------------------------------------------------------------- s-expressions

TOKEN = re.compile(r'\s+|;[^\n]*|"(?:[^"\\]|\\.)*"|[()]|[^\s()";]+')


def tokenize(text, name):
    """Tokens of a .strata text (comments and whitespace dropped), with line numbers."""
    out, pos, line = [], 0, 1
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m:
            raise SystemExit(f"{name}:{line}: cannot tokenise {text[pos:pos + 20]!r}")
        tok = m.group(0)
        if not tok.isspace() and not tok.startswith(";"):
            out.append((tok, line))
        line += tok.count("\n")
        pos = m.end()
    return out


def parse_sexps(tokens, name):
    """The top-level s-expressions of the token list (nested Python lists of strings)."""
    stack = [[]]
    for tok, line in tokens:
        if tok == "(":
            stack.append([])
        elif tok == ")":
            if len(stack) == 1:
                raise SystemExit(f"{name}:{line}: unbalanced ')'")
            done = stack.pop()
            stack[-1].append(done)
        else:
            stack[-1].append(tok)
    if len(stack) != 1:
        raise SystemExit(f"{name}: {len(stack) - 1} unclosed '('")
    if not stack[0]:
        raise SystemExit(f"{name}: no form")
    return stack[0]


def read_program(path):
    """The (program ...) form: the last of the file's forms (definitions come first)."""
    name = os.path.basename(path)
    with open(path) as f:
        tokens = tokenize(f.read(), name)
    forms = parse_sexps(tokens, name)
    for f in forms[:-1]:
        if not isinstance(f, list) or f[0] not in ("define", "adefine"):
            raise SystemExit(f"{name}: expected definitions before the program, found {f[0]}")
    sexp = forms[-1]
    if not isinstance(sexp, list) or len(sexp) != 3 or sexp[0] != "program":
        raise SystemExit(f"{name}: expected (program (params...) body)")
    return sexp


def check_syntax(expected_params):
    """Every .strata file parses as one balanced (program ...) form, with the
    parameters listed here (the .npy inputs written below), in this order."""
    files = sorted(f for f in os.listdir(HERE) if f.endswith(".strata"))
    names = [f[:-len(".strata")] for f in files]
    if sorted(names) != sorted(expected_params):
        raise SystemExit(f"examples {names} do not match the generator's {sorted(expected_params)}")
    for f in files:
        sexp = read_program(os.path.join(HERE, f))
        params = [p[0] for p in sexp[1]]
        want = expected_params[f[:-len(".strata")]]
        if params != want:
            raise SystemExit(f"{f}: parameters {params}, generator writes {want}")
        for p in sexp[1]:
            if len(p) != 2 or not isinstance(p[1], list) or p[1][0] != "array":
                raise SystemExit(f"{f}: parameter {p} is not (name (array E R))")
    print(f"syntax ok: {len(files)} programs")


# ------------------------------------------------------- inputs of docs/bench.md

def hash32(x):
    x = np.asarray(x, dtype=np.uint64) & M32
    x ^= x >> np.uint64(16)
    x = (x * np.uint64(0x7FEB352D)) & M32
    x ^= x >> np.uint64(15)
    x = (x * np.uint64(0x846CA68B)) & M32
    x ^= x >> np.uint64(16)
    return x


def h(n, seed):
    """h(i, seed) = hash32(i + seed * 0x9E3779B9) for i = 0..n-1 (uint32 values in uint64)."""
    i = np.arange(n, dtype=np.uint64)
    return hash32((i + np.uint64(seed) * np.uint64(0x9E3779B9)) & M32)


def u01(n, seed):
    """float(h >> 8) * 2^-24 as f32 (exact: a 24-bit integer times a power of two)."""
    return (h(n, seed) >> np.uint64(8)).astype(np.float32) * np.float32(2.0 ** -24)


def u01v(n, seed, scale=1.0, off=0.0):
    """u01 * scale + off in f32 (two f32 roundings: the product, then the sum)."""
    return u01(n, seed) * np.float32(scale) + np.float32(off)


def hmod(n, seed, m):
    """mod(i, seed, m) = int32(h(i, seed) % m)."""
    return (h(n, seed) % np.uint64(m)).astype(np.int32)


# ------------------------------------------------------------------ output files

def save(name, fname, arr):
    d = os.path.join(HERE, name)
    os.makedirs(d, exist_ok=True)
    arr = np.array(arr, copy=True, order="C")   # (ascontiguousarray would make 0-d arrays 1-d)
    assert arr.dtype.byteorder in "=|<", arr.dtype
    np.save(os.path.join(d, fname), arr, allow_pickle=False)


def write_example(name, inputs, expected):
    """inputs: dict param -> array (in parameter order); expected: an array or a
    tuple of arrays (an atuple result)."""
    d = os.path.join(HERE, name)
    if os.path.isdir(d):
        for f in os.listdir(d):
            if f.endswith(".npy"):
                os.remove(os.path.join(d, f))
    os.makedirs(d, exist_ok=True)
    for p, a in inputs.items():
        save(name, p + ".npy", a)
    if isinstance(expected, tuple):
        for k, a in enumerate(expected):
            save(name, f"expected.{k}.npy", a)
    else:
        save(name, "expected.npy", expected)
    return list(inputs)


def f32(x):
    return np.float32(x)


# ---------------------------------------------------------------------- examples

def ex_dotp():
    n = 1000
    xs, ys = u01v(n, 1), u01v(n, 2)
    prod = xs * ys                       # f32 products
    acc = f32(0)
    for p in prod:                       # oracle order: ((0 + p0) + p1) + ...
        acc = f32(acc + p)
    return {"xs": xs, "ys": ys}, np.array(acc, dtype=np.float32)


def ex_saxpy():
    n = 1000
    xs, ys = u01v(n, 3), u01v(n, 4)
    return {"xs": xs, "ys": ys}, (f32(2.5) * xs + ys).astype(np.float32)


def ex_sum():
    n = 1000
    # Arbitrary 32-bit values (the bits of h(i, 6) as i32), so the sum wraps.
    xs = h(n, 6).astype(np.uint32).view(np.int32)
    total = int(xs.astype(np.int64).sum()) & 0xFFFFFFFF
    return {"xs": xs}, np.array(total, dtype=np.uint32).view(np.int32).reshape(())


def ex_prefix_sum():
    n = 1000
    xs = hmod(n, 8, 64) - np.int32(32)   # values in [-32, 31]
    return {"xs": xs}, np.cumsum(xs, dtype=np.int32)


def ex_histogram():
    n = 2000
    keys = hmod(n, 9, 320) - np.int32(64)   # keys in [-64, 255]; negatives dropped
    counts = np.zeros(8, dtype=np.int64)
    kept = keys[keys >= 0]
    np.add.at(counts, kept // 32, 1)        # quot = floor division for k >= 0
    assert counts.sum() == len(kept) and (keys < 0).sum() > 0
    return {"keys": keys}, counts


def ex_mandelbrot():
    H, W = 24, 32
    out = np.zeros((H, W), dtype=np.int32)
    dx, dy = f32(3) / f32(W), f32(3) / f32(H)
    for py in range(H):
        cy = f32(-1.5) + f32(py) * dy
        for px in range(W):
            cx = f32(-2) + f32(px) * dx
            count, x, y = 0, f32(0), f32(0)
            while count < 255 and (x * x + y * y) <= f32(4):
                x, y = (x * x - y * y) + cx, (f32(2) * x) * y + cy
                count += 1
            out[py, px] = count
    return {}, out


# glibc's single-precision expf/logf, as a C++ std::exp(float)/std::log(float)
# would call them: NumPy's own f32 exp/log (SIMD) may differ by an ulp or two.
_libm = ctypes.CDLL(ctypes.util.find_library("m"))
_libm.expf.argtypes, _libm.expf.restype = [ctypes.c_float], ctypes.c_float
_libm.logf.argtypes, _libm.logf.restype = [ctypes.c_float], ctypes.c_float


def expf(a):
    return np.array([_libm.expf(float(v)) for v in a], dtype=np.float32)


def logf(a):
    return np.array([_libm.logf(float(v)) for v in a], dtype=np.float32)


def ex_blackscholes():
    n = 1000
    S, K, T = u01v(n, 10, 25, 5), u01v(n, 11, 99, 1), u01v(n, 12, 9.75, 0.25)
    r, v = f32(0.02), f32(0.3)

    def cnd(d):
        k = f32(1) / (f32(1) + f32(0.2316419) * np.abs(d))
        poly = f32(0.31938153) + k * (f32(-0.356563782) + k * (f32(1.781477937) + k * (
            f32(-1.821255978) + k * f32(1.330274429))))
        c = ((f32(0.3989422804014327) * expf((f32(-0.5) * d) * d)) * k) * poly
        return np.where(d > f32(0), f32(1) - c, c).astype(np.float32)

    sqrtT = np.sqrt(T)
    d1 = (logf(S / K) + (r + f32(0.5) * (v * v)) * T) / (v * sqrtT)
    d2 = d1 - v * sqrtT
    c1, c2 = cnd(d1), cnd(d2)
    ke = K * expf((-r) * T)
    call = S * c1 - ke * c2
    put = ke * (f32(1) - c2) - S * (f32(1) - c1)
    assert call.dtype == np.float32 and put.dtype == np.float32
    return {"spot": S, "strike": K, "years": T}, (call, put)


def ex_matmul():
    m, k, n = 8, 6, 5
    # Multiples of 1/4 in [-2, 2]: every product and partial sum is exact in f64,
    # so the result is exact whatever the summation order.
    a = ((hmod(m * k, 13, 17) - 8) / 4.0).reshape(m, k).astype(np.float64)
    b = ((hmod(k * n, 14, 17) - 8) / 4.0).reshape(k, n).astype(np.float64)
    c = a @ b
    loop = np.zeros((m, n))
    for l in range(k):
        loop += a[:, l:l + 1] * b[l:l + 1, :]
    assert np.array_equal(c, loop)
    return {"a": a, "b": b}, c


def ex_blur():
    H, W = 12, 16
    img = u01v(H * W, 15).reshape(H, W)
    c = f32(1) / f32(9)
    pad = np.pad(img, 1, mode="edge")     # clamp boundary
    acc = None
    for dy in (-1, 0, 1):                 # row-major order of the offsets
        for dx in (-1, 0, 1):
            term = pad[1 + dy:1 + dy + H, 1 + dx:1 + dx + W] * c
            acc = term if acc is None else acc + term
    return {"img": img}, acc.astype(np.float32)


def ex_nbody():
    n = 64
    x, y, z = u01v(n, 16), u01v(n, 17), u01v(n, 18)
    m = u01v(n, 19, 1, 0.5)
    dx = x[None, :] - x[:, None]          # [i, j] = x[j] - x[i]
    dy = y[None, :] - y[:, None]
    dz = z[None, :] - z[:, None]
    r2 = ((dx * dx + dy * dy) + dz * dz) + f32(0.01)
    w = m[None, :] / (r2 * np.sqrt(r2))
    cx, cy, cz = dx * w, dy * w, dz * w
    ax = np.zeros(n, np.float32)
    ay = np.zeros(n, np.float32)
    az = np.zeros(n, np.float32)
    for j in range(n):                    # fold order over j: ((0 + c0) + c1) + ...
        ax = ax + cx[:, j]
        ay = ay + cy[:, j]
        az = az + cz[:, j]
    assert ax.dtype == np.float32
    return {"x": x, "y": y, "z": z, "m": m}, (ax, ay, az)


def ex_softmax():
    # NumPy's own evaluation (np.exp, pairwise np.sum): a legal evaluation in
    # another order and with another exp, not the oracle's order.
    r, c = 4, 40000
    x = u01v(r * c, 20, 8, -4).reshape(r, c)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    s = e.sum(axis=1, dtype=np.float32, keepdims=True)
    y = (e / s).astype(np.float32)
    assert y.dtype == np.float32
    return {"x": x}, y


def ex_kmeans_step():
    n, k = 2000, 8
    px, py = u01v(n, 21), u01v(n, 22)
    cx, cy = u01v(k, 23), u01v(k, 24)
    dx = px[:, None] - cx[None, :]
    dy = py[:, None] - cy[None, :]
    d = dx * dx + dy * dy
    best = d.argmin(axis=1)                 # the first of equal distances
    sx = np.zeros(k, np.float32)
    sy = np.zeros(k, np.float32)
    cnt = np.zeros(k, np.float32)
    np.add.at(sx, best, px)                 # unbuffered, in source order
    np.add.at(sy, best, py)
    np.add.at(cnt, best, np.float32(1))
    assert (cnt > 0).all()
    return {"px": px, "py": py, "cx": cx, "cy": cy}, (sx / cnt, sy / cnt)


def ex_kmeans():
    """Ten Lloyd steps (examples/kmeans.strata), all in f32."""
    n, k = 500, 6
    px, py = u01v(n, 31), u01v(n, 32)
    cx, cy = u01v(k, 33), u01v(k, 34)

    def assign(cx, cy):
        dx = px[:, None] - cx[None, :]
        dy = py[:, None] - cy[None, :]
        return (dx * dx + dy * dy).argmin(axis=1)   # the first of equal distances

    for _ in range(10):
        best = assign(cx, cy)
        sx = np.zeros(k, np.float32)
        sy = np.zeros(k, np.float32)
        cnt = np.zeros(k, np.float32)
        np.add.at(sx, best, px)                     # unbuffered, in point order
        np.add.at(sy, best, py)
        np.add.at(cnt, best, np.float32(1))
        empty = cnt == 0
        cx = np.where(empty, cx, sx / np.where(empty, 1, cnt)).astype(np.float32)
        cy = np.where(empty, cy, sy / np.where(empty, 1, cnt)).astype(np.float32)
    return {"px": px, "py": py, "cx": u01v(k, 33), "cy": u01v(k, 34)}, (cx, cy, assign(cx, cy).astype(np.int64))


def ex_jacobi():
    """200 Jacobi sweeps for -lap(u) = f, zero boundary (examples/jacobi.strata), in f64."""
    n = 24
    f = u01(n * n, 41).astype(np.float64).reshape(n, n)
    n1 = float(n + 1)
    h2 = 1.0 / (n1 * n1)

    def neighbours(u):
        p = np.pad(u, 1)                            # the constant 0.0 boundary
        return (p[:-2, 1:-1] + p[2:, 1:-1]) + (p[1:-1, :-2] + p[1:-1, 2:])

    u = np.zeros((n, n))
    for _ in range(200):
        u = 0.25 * (neighbours(u) + h2 * f)
    r = np.abs(f - (4.0 * u - neighbours(u)) / h2).max()
    return {"f": f}, (u, np.array(r))


def ex_raytrace():
    """examples/raytrace.strata, pixel by pixel in f64 with the same operation order."""
    sx = np.array([0.0, -1.1, 1.2, 0.0])
    sy = np.array([0.0, -0.3, 0.4, -101.0])
    sz = np.array([-4.0, -3.0, -5.0, -4.0])
    sr = np.array([1.0, 0.6, 1.1, 100.0])
    h, w = 32, 48

    def dot(ax, ay, az, bx, by, bz):
        return (ax * bx + ay * by) + az * bz

    def hit(o, d, k):
        px, py, pz = o[0] - sx[k], o[1] - sy[k], o[2] - sz[k]
        b = dot(px, py, pz, *d)
        disc = b * b - (dot(px, py, pz, px, py, pz) - sr[k] * sr[k])
        if disc < 0.0:
            return np.inf
        q = np.sqrt(disc)
        t0, t1 = -b - q, -b + q
        return t0 if t0 > 1e-6 else (t1 if t1 > 1e-6 else np.inf)

    def nearest(o, d):
        best = (-1, np.inf)
        for k in range(len(sx)):
            t = hit(o, d, k)
            if t < best[1]:
                best = (k, t)
        return best

    index = np.zeros((h, w), np.int64)
    light = np.zeros((h, w))
    for i in range(h):
        for j in range(w):
            u = ((np.float64(j) + 0.5) - 0.5 * np.float64(w)) / np.float64(h)
            v = (0.5 * np.float64(h) - (np.float64(i) + 0.5)) / np.float64(h)
            n = np.sqrt((u * u + v * v) + 1.0)
            d = (u / n, v / n, -1.0 / n)
            k, t = nearest((0.0, 0.0, 0.0), d)
            if k < 0:
                index[i, j], light[i, j] = -1, 0.0
                continue
            hp = (t * d[0], t * d[1], t * d[2])
            nx, ny, nz = ((hp[0] - sx[k]) / sr[k], (hp[1] - sy[k]) / sr[k], (hp[2] - sz[k]) / sr[k])
            ll = np.sqrt(dot(0.5, 0.7, 0.5, 0.5, 0.7, 0.5))
            l = (0.5 / ll, 0.7 / ll, 0.5 / ll)
            lambert = dot(nx, ny, nz, *l)
            shadow = nearest(hp, l)
            index[i, j] = k
            light[i, j] = 0.1 if (lambert <= 0.0 or shadow[0] >= 0) else 0.1 + 0.9 * lambert
    return {"sx": sx, "sy": sy, "sz": sz, "sr": sr}, (index, light)


def ex_pagerank():
    n, m = 500, 4000
    src = hmod(m, 25, n).astype(np.int64)
    dst = hmod(m, 26, n).astype(np.int64)
    src[:n] = np.arange(n)                  # every vertex has an edge out
    outdeg = np.bincount(src, minlength=n).astype(np.float32)
    n32 = np.float32(n)
    base = np.float32(0.15) / n32

    def step(r):
        acc = np.zeros(n, np.float32)
        np.add.at(acc, dst, r[src] / outdeg[src])
        return base + np.float32(0.85) * acc

    r = np.full(n, np.float32(1) / n32, np.float32)
    while True:
        nxt = step(r)
        resid = np.float32(0)
        for v in np.abs(nxt - r):           # left to right, as the oracle's fold
            resid = np.float32(resid + v)
        if not resid > np.float32(1e-6):
            break
        r = nxt
    return {"src": src, "dst": dst, "outdeg": outdeg}, r


def ex_awhile_halve():
    xs = np.array([0.25, 3.0, 17.5, 1000.0, 0.001, -5.0, 7.75, 1.0, 999.5, 0.0],
                  dtype=np.float64)
    s = xs.copy()
    while s.max() >= 1.0:
        s = s / 2.0
    return {"xs": xs}, s


def ex_segmented_sum():
    rows, n = 3, 20
    vals = (hmod(rows * n, 21, 101) - np.int32(50)).reshape(rows, n)
    segs = np.array([0, 3, 0, 5, 1, 0, 0, 7, 4, 0], dtype=np.int64)
    assert segs.sum() == n
    sums = np.zeros((rows, len(segs)), np.int32)
    maxs = np.zeros((rows, len(segs)), np.int32)
    start = 0
    for s, length in enumerate(segs):
        part = vals[:, start:start + length]
        sums[:, s] = part.sum(axis=1, dtype=np.int32)
        maxs[:, s] = np.max(part, axis=1, initial=-1000)
        start += length
    return {"vals": vals, "segs": segs}, (sums, maxs)


def ex_scan_variants():
    rows, n = 3, 6
    xs = (hmod(rows * n, 22, 19) - np.int32(9)).reshape(rows, n)
    i32 = np.int32
    scanl = np.concatenate([np.full((rows, 1), 10, i32), 10 + np.cumsum(xs, axis=1, dtype=i32)],
                           axis=1).astype(i32)
    suffix = np.cumsum(xs[:, ::-1], axis=1, dtype=i32)[:, ::-1]
    scanr = np.concatenate([100 + suffix, np.full((rows, 1), 100, i32)], axis=1).astype(i32)
    scanr1 = np.maximum.accumulate(xs[:, ::-1], axis=1)[:, ::-1].astype(i32)
    excl = np.concatenate([np.full((rows, 1), 5, i32), 5 + np.cumsum(xs, axis=1, dtype=i32)[:, :-1]],
                          axis=1).astype(i32)
    totals = (5 + xs.sum(axis=1, dtype=i32)).astype(i32)

    # Affine maps t -> a*t + b, a = +1 for even x, -1 for odd x, b = x.
    a = np.where(xs % 2 == 0, 1, -1).astype(i32)
    b = xs.copy()

    def compose_b(ks):
        """Offset of (apply k0, then k1, then ...) on one row, via plain evaluation:
        the composition maps t to A*t + B, and B is its value at t = 0."""
        t = 0
        for (ak, bk) in ks:
            t = ak * t + bk
        return t

    left = np.zeros((rows, n), i32)
    right = np.zeros((rows, n), i32)
    for r in range(rows):
        maps = list(zip(a[r].tolist(), b[r].tolist()))
        for k in range(n):
            left[r, k] = compose_b(maps[:k + 1])     # x0 ; ... ; xk
            right[r, k] = compose_b(maps[k:])        # xk ; ... ; x5
    return {"xs": xs}, (scanl, scanr, scanr1, excl, totals, left, right)


def ex_stencil_boundaries():
    H, W = 5, 6
    img = hmod(H * W, 23, 10).reshape(H, W)
    taps = [(0, 0, 1), (-1, 0, 10), (1, 0, 100), (0, -2, 1000), (0, 2, 10000),
            (-1, -2, 100000), (1, 1, 1000000)]
    outs = []
    for mode, kw in (("edge", {}), ("reflect", {}), ("wrap", {}),
                     ("constant", {"constant_values": -1})):
        pad = np.pad(img, ((1, 1), (2, 2)), mode=mode, **kw)   # window 3 x 5
        acc = np.zeros((H, W), np.int32)
        for dy, dx, wt in taps:
            acc += np.int32(wt) * pad[1 + dy:1 + dy + H, 2 + dx:2 + dx + W]
        outs.append(acc.astype(np.int32))
    return {"img": img}, tuple(outs)


def ex_tuples():
    scale = np.array([2.0, -1.0, 4.0, 0.5, 4.0], dtype=np.float64)
    p0 = np.array([1, -2, 3, 4], dtype=np.int32)
    p1 = np.array([0.5, 1.5, -2.25, 8.0], dtype=np.float64)
    n = min(len(p0), len(scale))
    q0 = (p0[:n] * 2).astype(np.int32)
    q1 = p1[:n] * scale[:n]
    q2 = p1[:n] > 1.0
    best = np.array(scale.max(), dtype=np.float64)
    best_i = np.array(int(np.argmax(scale)), dtype=np.int64)   # first occurrence
    return {"scale": scale}, (q0, q1, q2, best, best_i)


def ex_slice_replicate():
    i, j, k = np.meshgrid(np.arange(2), np.arange(3), np.arange(4), indexing="ij")
    m = (100 * i + 10 * j + k).astype(np.int32)
    r0 = m[1, :, :]
    v = m[0, 1, :]
    return {"m": m}, (
        r0,
        m[:, 2, :],
        m[:, :, 3],
        np.broadcast_to(r0[:, None, :], (3, 2, 4)),
        np.broadcast_to(v[None, :, None], (3, 4, 2)),
    )


EXAMPLES = {
    "dotp": ex_dotp,
    "saxpy": ex_saxpy,
    "sum": ex_sum,
    "prefix_sum": ex_prefix_sum,
    "histogram": ex_histogram,
    "mandelbrot": ex_mandelbrot,
    "blackscholes": ex_blackscholes,
    "matmul": ex_matmul,
    "blur": ex_blur,
    "nbody": ex_nbody,
    "awhile_halve": ex_awhile_halve,
    "segmented_sum": ex_segmented_sum,
    "scan_variants": ex_scan_variants,
    "stencil_boundaries": ex_stencil_boundaries,
    "tuples": ex_tuples,
    "slice_replicate": ex_slice_replicate,
    "softmax": ex_softmax,
    "kmeans_step": ex_kmeans_step,
    "pagerank": ex_pagerank,
    "kmeans": ex_kmeans,
    "jacobi": ex_jacobi,
    "raytrace": ex_raytrace,
}


def main():
    np.seterr(over="ignore")
    results = {name: fn() for name, fn in EXAMPLES.items()}
    check_syntax({name: list(inputs) for name, (inputs, _) in results.items()})
    for name, (inputs, expected) in results.items():
        write_example(name, inputs, expected)
        shapes = ([f"{a.dtype}{list(a.shape)}" for a in expected]
                  if isinstance(expected, tuple) else f"{expected.dtype}{list(expected.shape)}")
        print(f"{name}: inputs {[f'{p}:{a.dtype}{list(a.shape)}' for p, a in inputs.items()]}"
              f" -> {shapes}")


if __name__ == "__main__":
    sys.exit(main())
