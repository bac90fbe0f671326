"""Start-up timing against "today": the same measurement, in one run, of this checkout and of
an older commit (default: `main` as it was when the work began), so load on the machine
affects both alike and the ratio is what counts.

The older commit's app/, ui/ and resources/ are unpacked with `git archive` into the layout of
the import namespace (sbctune/, sbctune/ui/, sbctune/resources/); a process given that folder
first on PYTHONPATH imports it instead of the editable install (the editable finder comes after
the path finder).
"""

from __future__ import annotations

import io
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LAYOUT = {"app": "sbctune", "ui": "sbctune/ui", "resources": "sbctune/resources"}


def unpack(ref: str) -> Path:
    """The tree of `ref`, importable as `sbctune` from the returned folder."""
    target = Path(tempfile.mkdtemp(prefix="sbctune-start-"))
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", ref, "--", *LAYOUT],
        capture_output=True, check=True, timeout=60,
    ).stdout  # fmt: skip
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        for member in tar.getmembers():
            top, _, rest = member.name.partition("/")
            if top in LAYOUT and rest:
                member.name = f"{LAYOUT[top]}/{rest}"
                tar.extract(member, target, filter="data")
    return target


def timed(argv: list[str], tree: Path | None, env: dict[str, str] | None = None) -> float:
    """Wall seconds of one run of `argv` (a Python process), with `tree` first on its path."""
    run_env = dict(os.environ, **(env or {}))
    if tree is not None:
        run_env["PYTHONPATH"] = str(tree)
    else:
        run_env.pop("PYTHONPATH", None)
    started = time.perf_counter()
    subprocess.run(argv, env=run_env, check=True, capture_output=True, timeout=120)
    return time.perf_counter() - started


def compare(
    argv: list[str], today: Path, runs: int, env: dict[str, str] | None = None
) -> tuple[float, float]:
    """Medians of `runs` runs each (alternating, so both see the same load): (now, today)."""
    now: list[float] = []
    then: list[float] = []
    for _ in range(runs):
        now.append(timed(argv, None, env))
        then.append(timed(argv, today, env))
    return statistics.median(now), statistics.median(then)


def report(name: str, now: float, then: float, goal: float | None) -> None:
    verdict = (
        "" if goal is None else (f"; {'meets' if now < goal else 'MISSES'} the goal of < {goal} s")
    )
    print(
        f"{name}: {now * 1000:.0f} ms now, {then * 1000:.0f} ms today; "
        f"ratio {now / then:.2f} ({then / now:.1f}x faster){verdict}"
    )


PYTHON = sys.executable
