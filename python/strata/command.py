"""The `strata` console command of a pip install (pyproject.toml's
[project.scripts]): runs the command-line tool built into the package, so a
pip user has `strata run`, `check`, `test`, `bench`, `explain` and the rest."""
import os
import sys


def main():
    from strata import Error, _cli

    try:
        path = _cli()
    except Error as e:
        print(f"strata: error: {e}", file=sys.stderr)
        sys.exit(1)
    os.execv(path, ["strata"] + sys.argv[1:])
