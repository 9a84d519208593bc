"""Every ```python snippet of docs/python.md runs, in order, in one namespace."""
import pathlib
import re

DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "python.md"


def test_every_snippet_of_docs_python_md_runs(capsys):
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S)
    assert len(blocks) >= 8
    namespace = {}
    for i, block in enumerate(blocks):
        try:
            exec(compile(block, f"docs/python.md snippet {i}", "exec"), namespace)
        except Exception as e:  # pragma: no cover - the message is the point
            raise AssertionError(f"docs/python.md snippet {i} failed: {e!r}\n{block}") from e
    out = capsys.readouterr().out
    assert "[1.  3.5 6.  8.5]" in out
    assert "float64 array of rank 1" in out
    assert "division-by-zero <string>:1:48" in out
    assert "[0.6 0.8] 16.0" in out
    assert "[1 0 2] [64. 48. 32.] [4 4]" in out
    assert "[0. 9.] [3. 5. 1.] [0.27272727 0.36363636 0.18181818]" in out
    assert "`-` of arrays of rank 2 and 1" in out and "strata.sum(a, axis=0) of an array" in out
    assert "strata.max(a, b) / strata.min(a, b) instead of Python's max and min" in out


def test_the_notebook_style_example_checks_and_plots(tmp_path):
    import runpy
    import sys

    example = DOC.parents[1] / "examples" / "python" / "check_and_plot.py"
    out = tmp_path / "engines.png"
    argv = sys.argv
    sys.argv = [str(example), str(out)]
    try:
        runpy.run_path(str(example), run_name="__main__")
    finally:
        sys.argv = argv
    assert out.stat().st_size > 1000  # matplotlib is installed by scripts/setup.sh
