"""Benchmark: `inspect` over SSH, code and lab apart (issue 24, speed).

bench_inventory.py --compare-with runs both checkouts' code against ONE lab (this tree's), so
its ratio is the code's alone. Part of the time is the lab's own "Pi" (its stand-in ethtool is
a Python program; a Pi's is C), so a change to the lab moves the figure too. This runs the 2 x 2:
{this code, the other code} x {this tree's lab, the other tree's lab}, each cell a fresh process
(imports untimed; connect + inspect_host timed, as bench_inventory's --compare-with), the cells
interleaved round by round (a busy machine slows all alike). Run as root on Linux:

    .venv/bin/python tests/bench/bench_ssh_2x2.py --other /path/to/checkout [--runs 7]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _timer() -> str:
    text = (ROOT / "tests" / "bench" / "bench_inventory.py").read_text(encoding="utf-8")
    return text.split('_SSH_TIMER = """')[1].split('"""')[0]


def _lab(tree: Path, name: str, profile: str, action: str) -> dict[str, object]:
    up = ["up", "--profile", profile, "--name", name, "--json"]
    words = up if action == "up" else ["down", name]
    out = subprocess.run(
        [str(tree / ".venv" / "bin" / "sbctune"), "lab", *words],
        capture_output=True, text=True, check=True, timeout=300,
    ).stdout  # fmt: skip
    return json.loads(out) if action == "up" else {}


def main(other: Path, runs: int, profile: str) -> None:
    trees = {"this": ROOT, "other": other}
    labs: dict[str, dict[str, object]] = {}
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # the bytecode kept, as an installed program has
    timer = _timer()
    try:
        for key, tree in trees.items():
            labs[key] = _lab(tree, f"b2x2-{key}", profile, "up")
        with tempfile.TemporaryDirectory() as tmp:

            def one(code: str, lab: str) -> float:
                info = labs[lab]
                spec = {k: info[k] for k in ("host", "port", "user", "password")}
                spec["kh"] = str(Path(tmp) / f"kh-{code}-{lab}")
                out = subprocess.run(
                    [str(trees[code] / ".venv" / "bin" / "python"), "-c", timer],
                    input=json.dumps(spec),  # the lab's password on stdin, never in argv
                    capture_output=True, text=True, check=True, timeout=120, env=env,
                ).stdout  # fmt: skip
                return float(out.split()[-1])

            cells = [(code, lab) for code in trees for lab in trees]
            for cell in cells:
                one(*cell)  # host keys learnt, bytecode written, page cache filled
            times: dict[tuple[str, str], list[float]] = {cell: [] for cell in cells}
            loads = []
            for round_no in range(runs):
                loads.append(os.getloadavg()[0])  # posix-only: the bench runs on Linux
                for cell in cells if round_no % 2 == 0 else cells[::-1]:
                    times[cell].append(one(*cell))
    finally:
        for key in labs:
            _lab(trees[key], f"b2x2-{key}", profile, "down")
    med = {cell: statistics.median(v) for cell, v in times.items()}
    print(f"connect + inspect over SSH, {profile}, {runs} rounds, load {min(loads):.1f}-"
          f"{max(loads):.1f}; median (best):")  # fmt: skip
    for (code, lab), values in times.items():
        print(
            f"  {code:5s} code on {lab:5s} tree's lab: {med[code, lab] * 1000:5.0f} ms"
            f" ({min(values) * 1000:.0f})"
        )
    print(f"  before -> after (other on its lab / this on its lab): "
          f"{med['other', 'other'] / med['this', 'this']:.2f}x")  # fmt: skip
    print(f"  code alone: on this lab {med['other', 'this'] / med['this', 'this']:.2f}x, "
          f"on the other lab {med['other', 'other'] / med['this', 'other']:.2f}x")  # fmt: skip
    print(f"  lab alone: this code {med['this', 'other'] / med['this', 'this']:.2f}x, "
          f"other code {med['other', 'other'] / med['other', 'this']:.2f}x")  # fmt: skip


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--other", type=Path, required=True, help="another checkout, its .venv")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--profile", default="pi4-ax88179")
    args = parser.parse_args()
    main(args.other, args.runs, args.profile)
