"""Benchmark: cold start of the packaged GUI to its first shown window, and the bundle's size.

Builds the Linux bundle if its inputs changed (tests/packaging/bundle.py), then starts the
packaged `sbctune-gui --self-test` offscreen several times and reports, per run:

- first window: from starting the process to Qt creating the main window's native window
  during `show()` (the offscreen platform prints "does not support propagateSizeHints" at
  that moment; read from stderr as it comes), i.e. the start-up the user waits for;
- self-test: the whole run to exit, which also renders every page in two themes.

    .venv/bin/python tests/bench/bench_package.py [--runs 5] [--drop-caches]

`--drop-caches` (root, Linux) empties the page cache before each run, so each start reads the
bundle from disk (a truly cold start; it slows other programs on the machine for a moment).
Goals (issue 8): first window < 2 s, bundle < 150 MB.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.packaging.bundle import build_bundle, bundle_size, clean_env

FIRST_WINDOW_MARK = "propagateSizeHints"
GOAL_START_S = 2.0
GOAL_SIZE_MB = 150.0
RUN_TIMEOUT_S = 60.0


def _drop_caches() -> None:
    os.sync()
    Path("/proc/sys/vm/drop_caches").write_text("3\n", encoding="utf-8")


def one_run(bundle: Path, scratch: Path) -> tuple[float | None, float, int]:
    """(seconds to the first window or None, seconds to exit, exit code)."""
    env = clean_env(scratch) | {"QT_QPA_PLATFORM": "offscreen"}
    start = time.perf_counter()
    proc = subprocess.Popen(
        [str(bundle / "sbctune-gui"), "--self-test"],
        cwd=scratch,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    first: float | None = None
    assert proc.stderr is not None
    for line in proc.stderr:
        if first is None and FIRST_WINDOW_MARK in line:
            first = time.perf_counter() - start
        if time.perf_counter() - start > RUN_TIMEOUT_S:
            proc.kill()
            break
    code = proc.wait(timeout=RUN_TIMEOUT_S)
    return first, time.perf_counter() - start, code


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--drop-caches", action="store_true")
    args = parser.parse_args(argv)

    bundle, built = build_bundle()
    print(f"bundle: {bundle} ({'reused' if built is None else f'built in {built:.0f} s'})")
    size = bundle_size(bundle)
    print(
        f"size on disk: {size / 1e6:.1f} MB ({size / 2**20:.1f} MiB), "
        f"goal < {GOAL_SIZE_MB:.0f} MB: {'met' if size / 1e6 < GOAL_SIZE_MB else 'NOT met'}"
    )

    firsts: list[float] = []
    totals: list[float] = []
    with tempfile.TemporaryDirectory(prefix="sbctune-bench-") as tmp:
        for i in range(args.runs):
            if args.drop_caches:
                _drop_caches()
            first, total, code = one_run(bundle, Path(tmp))
            shown = "no window seen" if first is None else f"{first:.2f} s"
            print(f"run {i + 1}: first window {shown}, self-test {total:.2f} s, exit {code}")
            if code != 0 or first is None:
                print("the packaged GUI did not come up cleanly", file=sys.stderr)
                return 1
            firsts.append(first)
            totals.append(total)
    median = statistics.median(firsts)
    print(
        f"first window: median {median:.2f} s of {args.runs} "
        f"(min {min(firsts):.2f}, max {max(firsts):.2f}); whole self-test median "
        f"{statistics.median(totals):.2f} s; goal < {GOAL_START_S:.0f} s: "
        f"{'met' if median < GOAL_START_S else 'NOT met'}"
        + (" (page cache dropped before each run)" if args.drop_caches else " (warm cache)")
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
