"""The Windows lane: sbctune as a Windows program under Wine, against the lab.

    python packaging/winlane/lane.py [--only unit,cli-bundles,cli-lab,gui,gui-live,bundle]

Sets up (cached) Wine, the embeddable CPython for Windows and the win_amd64 wheels, then runs the
unit tests, the CLI against captured bundles and a namespace lab, the GUI self-test under Xvfb
(a 1366x768 screen) and a PyInstaller build with its smoke test, all as Windows programs.
Prints a table of what ran and its time; exits 1 when any check failed. Logs and screenshots go
to tests/output/winlane/. Run by scripts/test.sh; README "Windows" says more.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from checks import Checks
from setup_lane import ROOT, Lane, strings

OUT = ROOT / "tests" / "output" / "winlane"


def timed(name: str, rows: list[tuple[str, str, float]], run: Callable[[], str | None]) -> None:
    print(f"== winlane: {name}", flush=True)
    start = time.monotonic()
    try:
        problem = run()
    except Exception as exc:  # one broken check must not hide the others' results
        problem = f"{type(exc).__name__}: {exc}"
    seconds = time.monotonic() - start
    rows.append((name, "ok" if problem is None else "FAIL", seconds))
    if problem is not None:
        print("     FAIL " + problem.replace("\n", "\n     "), flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--only", help="comma-separated checks to run (default: lane.toml's default_checks)"
    )
    args = parser.parse_args(argv)
    shutil.rmtree(OUT, ignore_errors=True)
    OUT.mkdir(parents=True)
    rows: list[tuple[str, str, float]] = []
    lane = Lane()
    cached: list[bool] = []

    def set_up() -> None:
        cached.append(lane.ensure())
        lane.install_own_wheel()

    timed("set-up", rows, set_up)
    if rows[-1][1] == "ok":
        rows[-1] = ("set-up (cached)" if cached and cached[0] else "set-up (first)",
                    *rows[-1][1:])  # fmt: skip
        checks = Checks(lane, OUT)
        every = {
            "unit": checks.unit_tests,
            "cli-bundles": checks.cli_bundles,
            "cli-lab": checks.cli_lab,
            "gui": checks.gui_self_test,
            "gui-live": checks.gui_live,
            "bundle": checks.bundle,
        }
        default = strings(lane.cfg["default_checks"])
        wanted = args.only.split(",") if args.only else default
        unknown = sorted(set(wanted) - set(every))
        if unknown:
            parser.error(f"unknown checks {unknown}: choose from {', '.join(every)}")
        for name in wanted:
            timed(name, rows, every[name])
        lane.wine.wait_idle()
    print("\nWindows lane (Wine 8.0, embeddable CPython, win_amd64 wheels):")
    for name, status, seconds in rows:
        print(f"  {name:<18} {status:<5} {seconds:7.1f} s")
    print(f"  {'total':<18} {'':<5} {sum(r[2] for r in rows):7.1f} s   logs: {OUT}")
    return 0 if all(status == "ok" for _, status, _ in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
