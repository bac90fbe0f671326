"""Benchmark: how long the `sbctune` command takes to start (issue 22), against today.

Measures `sbctune --version` and `sbctune --help` (which loads every command: no goal, shown
for what every command still pays), this checkout
and an older commit (`--today REF`, default: the commit the start-up work began from) in one
run, alternating, and prints the medians and their ratio:

    .venv/bin/python tests/bench/bench_cli_start.py [--runs 7] [--today REF]

Goal: `sbctune --version` < 0.2 s on the project's dev VM.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.bench.start_support import PYTHON, compare, report, unpack

TODAY = "11a2cc7"  # main when the start-up work of issue 22 began
LAUNCH = "from sbctune.ui.launcher import main; raise SystemExit(main({args!r}))"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--today", default=TODAY, help="the commit to compare with")
    options = parser.parse_args()
    today = unpack(options.today)
    try:
        goals: tuple[tuple[list[str], float | None], ...] = (
            (["--version"], 0.2),
            (["--help"], None),
        )
        for args, goal in goals:
            argv = [PYTHON, "-c", LAUNCH.format(args=args)]
            now, then = compare(argv, today, options.runs)
            report(f"sbctune {' '.join(args)}", now, then, goal)
    finally:
        shutil.rmtree(today, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
