"""Benchmark: how long the `sbctune` command takes to start (issue 22), against today.

Measures `sbctune --version`, `sbctune --help` (which loads every command: no goal, shown
for what every command still pays) and `sbctune inspect BUNDLE` (a real bundle from
tests/captures: offline, it needs no SSH; the whole command, reading and advising included),
this checkout and an older commit (`--today REF`, default: the commit the start-up work began
from) in one run, alternating, and prints the medians and their ratio:

    .venv/bin/python tests/bench/bench_cli_start.py [--runs 7] [--today REF]

Goal: `sbctune --version` < 0.2 s on the project's dev VM.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.bench.start_support import PYTHON, compare, report, timed, unpack

TODAY = "11a2cc7"  # main when the start-up work of issue 22 began
ROOT = Path(__file__).resolve().parents[2]
BUNDLE = ROOT / "tests" / "captures" / "bundles" / "t2linux_191_rtl8153_480m"
# As the installed `sbctune` script runs: main() with no argv is the process's own command (the
# kept code, the collector paused, the end without tear-down), run() where the tree has it;
# main(args) would time a library call (none of those), not the command a user types.
LAUNCH = (
    "import sys; sys.argv[1:] = {args!r}; import sbctune.ui.launcher as launcher; "
    "raise SystemExit(getattr(launcher, 'run', launcher.main)())"
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--today", default=TODAY, help="the commit to compare with")
    options = parser.parse_args()
    today = unpack(options.today)
    data = tempfile.mkdtemp(prefix="sbctune-bench-data-")  # no user's history or settings
    env = {"SBCTUNE_DATA_DIR": data}
    try:
        goals: tuple[tuple[list[str], str, float | None], ...] = (
            (["--version"], "--version", 0.2),
            (["--help"], "--help", None),
            (["inspect", str(BUNDLE)], "inspect BUNDLE", None),
        )
        for args, name, goal in goals:
            argv = [PYTHON, "-c", LAUNCH.format(args=args)]
            timed(argv, None, env)  # both trees' .pyc files written once, before timing
            timed(argv, today, env)
            now, then = compare(argv, today, options.runs, env)
            report(f"sbctune {name}", now, then, goal)
    finally:
        shutil.rmtree(today, ignore_errors=True)
        shutil.rmtree(data, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
