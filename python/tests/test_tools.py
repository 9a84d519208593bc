"""The oracle's tools from Python: engines, check, explain."""
import subprocess
import sys

import numpy as np

import strata

DOUBLE = "(program ((xs (array i64 1))) (map (lambda (x) (* x 2)) xs))"


def test_engines_say_which_are_here_and_why_not():
    rows = strata.engines()
    names = [r["name"] for r in rows]
    assert names[0] == "interp" and rows[0]["available"]
    for r in rows:
        assert r["available"] or r["why"], r


def test_check_every_engine_agrees():
    result = strata.check(DOUBLE, [np.arange(10)])
    others = [e["name"] for e in strata.engines() if e["available"] and e["name"] != "interp"]
    assert sorted({r["engine"] for r in result}) == sorted(others)
    assert len(result) == 2 * len(others)  # fused and unfused
    assert result.ok
    for r in result:
        assert r["agrees"] and r["disagreement"] == ""
        assert "bitwise" in r["compared"]


def test_check_a_faulty_engine_shows_the_difference_and_explains_it():
    scan = "(program ((xs (array i64 1))) (scanl1 + xs))"
    result = strata.check(scan, [np.array([1, 2, 3, 4])], engines=["faulty:scan_off_by_one"])
    assert not result.ok
    row = result[0]
    assert "element (" in row["disagreement"]
    assert "scanl1" in row["explanation"]
    assert "NO" in str(result)


def test_explain_an_element():
    text = strata.explain(DOUBLE, [np.array([4, 5, 6])], at=(1,))
    assert "element (1) = 10" in text
    assert "(* x 2) = 10  with x = 5" in text
    js = strata.explain(DOUBLE, [np.array([4, 5, 6])], at=(1,), json=True)
    assert js.startswith("{")



def test_fuzz_a_correct_engine_finds_nothing(tmp_path):
    engine = [e["name"] for e in strata.engines() if e["available"]][-1]
    r = strata.fuzz(engine=engine, count=30, seed=3, out=str(tmp_path / "b"), progress=False)
    assert r["programs"] == 30 and r["failures"] == [], r
    assert "bitwise" in r["compared"]


def test_fuzz_a_faulty_engine_is_caught_shrunk_and_replayable(tmp_path, capsys):
    import subprocess

    r = strata.fuzz(engine="faulty:vector_tail_dropped", count=100, seed=1, shrink_limit=2,
                    out=str(tmp_path / "b"))
    assert r["failures"], r
    f = r["failures"][0]
    assert f["variant"].startswith("fused") or f["variant"].startswith("unfused")
    replay = subprocess.run([strata._cli(), "check", f["bundle"]], capture_output=True, text=True)
    assert replay.returncode == 1 and "faulty:vector_tail_dropped" in replay.stdout
    assert "fuzz faulty:vector_tail_dropped" in capsys.readouterr().err  # the progress line


def test_the_console_command_runs_the_strata_tool(tmp_path):
    # pyproject.toml's `strata` script: strata.command:main, as pip installs it.
    prog = tmp_path / "double.strata"
    prog.write_text(DOUBLE)
    np.save(tmp_path / "xs.npy", np.arange(4, dtype=np.int64))
    code = "import sys; from strata.command import main; sys.argv[0] = 'strata'; main()"
    version = subprocess.run([sys.executable, "-c", code, "--version"], capture_output=True, text=True)
    assert version.returncode == 0 and version.stdout.startswith("strata " + strata.__version__)
    ran = subprocess.run([sys.executable, "-c", code, "run", str(prog), f"xs={tmp_path / 'xs.npy'}"],
                         capture_output=True, text=True)
    assert ran.returncode == 0, ran.stderr
    assert "[0, 2, 4, 6]" in ran.stdout
    bad = subprocess.run([sys.executable, "-c", code, "run", str(tmp_path / "missing.strata")],
                         capture_output=True, text=True)
    assert bad.returncode == 1 and bad.stderr.startswith("strata: ")
