"""Every program of docs/tutorial-text.md runs and prints what the page shows.

The page's fenced blocks are run in order, in one temporary directory:

- ```python blocks run in one namespace (they write the inputs with NumPy and
  check saved results);
- ```strata blocks start with a comment line `; NAME.strata` and are saved
  under that name (a later block of the same name replaces the file);
- ```console blocks hold `$ strata ...` commands, each followed by the output
  it prints (stdout, then stderr). A `...` in the shown output stands for any
  text, lines included. A command whose output shows `: error:` must exit 1,
  every other one 0.

Then the results are checked against NumPy. `python test_tutorial_text.py`
(with the package on PYTHONPATH) rewrites the shown outputs from real runs,
keeping the abridged ones that still match.
"""
import os
import pathlib
import re
import shlex
import subprocess

import numpy as np
import pytest

DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "tutorial-text.md"
BLOCK = re.compile(r"^```(python|strata|console)\n(.*?)^```$", re.S | re.M)


def _strata():
    import strata

    return strata._cli()


def _blocks():
    return [(m.group(1), m.group(2), m.span(2)) for m in BLOCK.finditer(DOC.read_text())]


def _commands(body):
    """(command, expected output) pairs of a console block."""
    pairs = []
    for line in body.rstrip("\n").split("\n"):
        if line.startswith("$ "):
            pairs.append([line[2:], []])
        else:
            assert pairs, f"console block does not start with a `$ ` command:\n{body}"
            pairs[-1][1].append(line)
    return [(cmd, "\n".join(out)) for cmd, out in pairs]


def _matches(expected, actual):
    pattern = ".*?".join(re.escape(part) for part in expected.split("..."))
    return re.fullmatch(pattern, actual, re.S) is not None


def _run(cmd, cwd):
    argv = shlex.split(cmd)
    assert argv[0] == "strata", f"a console command must start with `strata`: {cmd}"
    p = subprocess.run([_strata()] + argv[1:], cwd=cwd, capture_output=True, text=True,
                       timeout=300)
    return p.returncode, (p.stdout + p.stderr).rstrip("\n")


def run_doc(workdir):
    """Runs every block in order; returns (failures, programs saved, programs run)."""
    failures, saved, used = [], set(), set()
    namespace = {}
    for kind, body, _ in _blocks():
        if kind == "python":
            here = os.getcwd()
            os.chdir(workdir)
            try:
                exec(compile(body, str(DOC), "exec"), namespace)
            except Exception as e:  # the message is the point
                failures.append(f"python block failed: {e!r}\n{body}")
            finally:
                os.chdir(here)
        elif kind == "strata":
            first = body.split("\n", 1)[0]
            m = re.fullmatch(r"; (\S+\.strata)", first)
            assert m, f"a strata block must start with `; NAME.strata`, found {first!r}"
            (workdir / m.group(1)).write_text(body)
            saved.add(m.group(1))
        else:
            for cmd, expected in _commands(body):
                used.update(w for w in shlex.split(cmd) if w.endswith(".strata"))
                rc, actual = _run(cmd, workdir)
                want_rc = 1 if ": error:" in expected else 0
                if rc != want_rc or not _matches(expected, actual):
                    failures.append(f"$ {cmd}\nexit {rc} (expected {want_rc})\n"
                                    f"--- shown\n{expected}\n--- printed\n{actual}")
    return failures, saved, used


@pytest.fixture(scope="module")
def ran(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("tutorial")
    return workdir, run_doc(workdir)


def test_every_program_runs_and_prints_what_the_page_shows(ran):
    _, (failures, saved, used) = ran
    assert not failures, "\n\n".join(failures)
    assert len(saved) >= 12
    assert saved <= used, f"programs never run: {sorted(saved - used)}"


def _results(workdir, program, *inputs):
    """Runs `program` with -o and returns its results (a list of arrays)."""
    out = workdir / (program.replace(".strata", "") + "-check.npy")
    rc, text = _run(f"strata run {program} {' '.join(inputs)} -o {out}", workdir)
    assert rc == 0, text
    if out.exists():
        return [np.load(out)]
    k, results = 0, []
    while (workdir / f"{out.stem}.{k}.npy").exists():
        results.append(np.load(workdir / f"{out.stem}.{k}.npy"))
        k += 1
    return results


def test_folds_and_scans_agree_with_numpy(ran):
    workdir, _ = ran
    m = np.load(workdir / "m.npy")
    rows, rmax, total, big, cols = _results(workdir, "folds.strata", "m=m.npy")
    np.testing.assert_array_equal(rows, m.sum(axis=-1))
    np.testing.assert_array_equal(rmax, m.max(axis=-1))
    assert total.shape == () and total == m.sum()
    assert big.shape == () and big == m.max()
    np.testing.assert_array_equal(cols, m.sum(axis=0))
    (mean,) = _results(workdir, "mean.strata", "m=m.npy")
    np.testing.assert_allclose(mean, m.mean(), rtol=1e-6)
    incl, seeded, excl, totals = _results(workdir, "scans.strata", "m=m.npy")
    np.testing.assert_array_equal(incl, np.cumsum(m, axis=-1))
    np.testing.assert_array_equal(seeded[:, 1:], np.cumsum(m, axis=-1))
    np.testing.assert_array_equal(seeded[:, 0], 0)
    np.testing.assert_array_equal(excl, np.cumsum(m, axis=-1) - m)
    np.testing.assert_array_equal(totals, m.sum(axis=-1))


def test_maps_and_broadcasts_agree_with_numpy(ran):
    workdir, _ = ran
    xs, ys, m = (np.load(workdir / f) for f in ("xs.npy", "ys.npy", "m.npy"))
    np.testing.assert_array_equal(_results(workdir, "square.strata", "xs=xs.npy")[0], xs * xs)
    np.testing.assert_array_equal(_results(workdir, "scale.strata", "xs=xs.npy")[0],
                                  xs * np.float32(64))
    np.testing.assert_array_equal(_results(workdir, "axpy.strata", "xs=xs.npy", "ys=ys.npy")[0],
                                  2 * xs + ys[:4])
    np.testing.assert_array_equal(_results(workdir, "center.strata", "m=m.npy")[0],
                                  m - m.max(axis=-1, keepdims=True))
    e = np.exp(m - m.max(axis=-1, keepdims=True))
    np.testing.assert_allclose(_results(workdir, "softmax.strata", "m=m.npy")[0],
                               e / e.sum(axis=-1, keepdims=True), rtol=1e-6)


def test_histogram_is_numpys_bincount(ran):
    workdir, _ = ran
    samples = np.load(workdir / "samples.npy")
    (counts,) = _results(workdir, "hist.strata", "xs=samples.npy")
    assert counts.shape == (8, 8) and counts.dtype == np.int64
    np.testing.assert_array_equal(counts.ravel(),
                                  np.bincount((samples * np.float32(64)).astype(np.int64),
                                              minlength=64))
    # out-of-range samples are dropped, in-range ones still counted
    odd = np.array([-0.5, 0.0, 0.999, 1.0, 7.0, 0.5], dtype=np.float32)
    np.save(workdir / "odd.npy", odd)
    (counts,) = _results(workdir, "hist.strata", "xs=odd.npy")
    assert counts.sum() == 3 and counts.ravel()[[0, 32, 63]].tolist() == [1, 1, 1]


def test_newton_and_the_plate_solver_agree_with_numpy(ran):
    workdir, _ = ran
    a = np.load(workdir / "a.npy")
    (roots,) = _results(workdir, "newton.strata", "a=a.npy")
    np.testing.assert_allclose(roots, np.sqrt(a), rtol=1e-15)

    edge = np.load(workdir / "edge.npy")
    steps = int(np.load(workdir / "steps.npy"))
    u, change = _results(workdir, "plate.strata", "edge=edge.npy", "steps=steps.npy")
    # the same sweeps in NumPy, in the same order of operations
    v = np.zeros_like(edge)
    for _ in range(steps):
        p = np.pad(v, 1)
        s = (p[:-2, 1:-1] + p[2:, 1:-1]) + (p[1:-1, :-2] + p[1:-1, 2:])
        v = np.float32(0.25) * (s + edge)
    np.testing.assert_allclose(u, v, rtol=1e-6)
    # and the direct solution of 4 u[i,j] - (its neighbours inside) = edge[i,j]
    n = edge.shape[0]
    A = 4 * np.eye(n * n)
    for i in range(n):
        for j in range(n):
            for di, dj in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                if 0 <= i + di < n and 0 <= j + dj < n:
                    A[i * n + j, (i + di) * n + (j + dj)] = -1
    exact = np.linalg.solve(A, edge.ravel().astype(np.float64)).reshape(n, n)
    np.testing.assert_allclose(u, exact, rtol=1e-5)
    assert change.shape == () and change < 1e-4
    np.testing.assert_allclose(u[:, ::-1], u)  # symmetric left to right
    # a hot top and a cold bottom
    assert u[0].min() > u[-1].max()


if __name__ == "__main__":  # rewrite the shown outputs from real runs
    import tempfile

    text = DOC.read_text()
    with tempfile.TemporaryDirectory() as d:
        workdir = pathlib.Path(d)
        namespace, pieces, pos = {}, [], 0
        for kind, body, (start, end) in _blocks():
            if kind == "python":
                here = os.getcwd()
                os.chdir(workdir)
                try:
                    exec(compile(body, str(DOC), "exec"), namespace)
                finally:
                    os.chdir(here)
            elif kind == "strata":
                name = body.split("\n", 1)[0][2:]
                (workdir / name).write_text(body)
            else:
                lines = []
                for cmd, expected in _commands(body):
                    _, actual = _run(cmd, workdir)
                    keep = expected != "..." and _matches(expected, actual)
                    lines += [f"$ {cmd}", expected if keep else actual]
                pieces += [text[pos:start], "\n".join(l for l in lines if l != "") + "\n"]
                pos = end
        pieces.append(text[pos:])
    DOC.write_text("".join(pieces))
