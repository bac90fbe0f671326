"""Benchmark: where a 100 000-line kernel log's instructions go, step by step (issue 24).

    .venv/bin/python tests/bench/bench_dmesg_steps.py [--lines 100000] [--compare-with TREE]

Counts the instructions (valgrind's callgrind: a busy machine does not change them) of one
fresh process per step, each doing the steps before it too, on the `--distinct` bundle of
bench_inventory.py (every line its own clock), with the collector paused as an inspect pauses
it (gc_pause); the differences between two counts are the steps' own:

* the kernel log's first parse in a process (`_parse_dmesg`, with the tables and lazy patterns
  it loads first) and its first sightings (`log_sightings.from_dmesg`);
* a second parse and sightings in the same process (what a parse costs once loaded);
* a third parse with every message's classification kept from the second (`classify` answered
  from a dict): what the parse pays per line, apart from the per-message rules.

The rest of `sbctune inspect BUNDLE --json` (imports, the graph, advice, JSON) is
bench_inventory.py --instructions minus these.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

ROOT = Path(__file__).resolve().parents[2]
_STEPS = ("read", "parse", "sightings", "again", "kept", "lines")
_HARNESS = """
import gc, glob, os, sys
from pathlib import Path
from sbctune.cli.dataclass_code import dataclass_code_kept
from sbctune.cli.regex_code import regex_code_kept

bundle, step = sys.argv[1], sys.argv[2]
steps = ("read", "parse", "sightings", "again", "kept", "lines")
upto = steps.index(step)
# as the command line runs: the regexes' and dataclasses' code kept in the cache folder
with dataclass_code_kept(True), regex_code_kept(True):
    dmesg = [f for f in glob.glob(bundle + "/commands/*") if "dmesg" in f][0]
    text = Path(dmesg).read_text(encoding="utf-8")
    import sbctune.inventory.parsers.dmesg as parser
    from sbctune.inventory.log_sightings import from_dmesg
    gc.disable()  # as inspect's gc_paused()
    if upto >= 1:
        res, _ = parser._parse_dmesg(text)
    if upto >= 2:
        from_dmesg(res)
    if upto >= 3:
        res, _ = parser._parse_dmesg(text)
        from_dmesg(res)
    if upto >= 4:
        kept, classify = {}, parser._classify
        def known(msg):
            found = kept.get(msg, kept)
            if found is kept:
                found = kept[msg] = classify(msg)
            return found
        parser._classify = known
        parser._parse_dmesg(text)  # fills `kept`
    if upto >= 5:
        parser._parse_dmesg(text)
os._exit(0)  # no teardown counted
"""


def _count(tree: Path, bundle: Path, step: str, env: dict[str, str]) -> int:
    out = subprocess.run(
        [
            *("valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"),
            *(str(tree / ".venv" / "bin" / "python"), "-c", _HARNESS, str(bundle), step),
        ],
        check=True,
        capture_output=True,
        text=True,
        env=env,
        timeout=3600,
    ).stderr
    found = re.search(r"Collected : (\d+)", out)
    if found is None:
        raise RuntimeError(f"callgrind gave no count: {out[-300:]}")
    return int(found.group(1))


def _steps(tree: Path, bundle: Path, env: dict[str, str]) -> dict[str, float]:
    """Each step's own instructions, in G (after one run that writes the table caches, as
    a user's first run does)."""
    subprocess.run(
        [str(tree / ".venv" / "bin" / "python"), "-c", _HARNESS, str(bundle), _STEPS[-1]],
        check=True,
        env=env,
        timeout=600,
    )
    counts = {step: _count(tree, bundle, step, env) for step in _STEPS}
    return {
        "first parse": (counts["parse"] - counts["read"]) / 1e9,
        "first sightings (from_dmesg)": (counts["sightings"] - counts["parse"]) / 1e9,
        "second parse + sightings": (counts["again"] - counts["sightings"]) / 1e9,
        "a parse's per-line part (classify kept)": (counts["lines"] - counts["kept"]) / 1e9,
    }


def main() -> None:
    from bench_inventory import big_dmesg_bundle

    parser = argparse.ArgumentParser()
    parser.add_argument("--lines", type=int, default=100_000)
    parser.add_argument("--compare-with", type=Path, default=None, help="another checkout")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        bundle = big_dmesg_bundle(Path(tmp), "pi4-ax88179", args.lines, distinct=True)
        env = dict(os.environ, SBCTUNE_CACHE_DIR=str(Path(tmp) / "cache"))
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        trees = [ROOT] + ([args.compare_with] if args.compare_with else [])
        found = {tree: _steps(tree, bundle, env) for tree in trees}
        print(f"{args.lines}-line distinct dmesg, instructions (callgrind), G:")
        for name in found[ROOT]:
            figures = "  ".join(f"{found[tree][name]:7.3f}" for tree in trees)
            ratio = (
                f"  ratio {found[trees[1]][name] / found[ROOT][name]:.2f}x"
                if len(trees) > 1
                else ""
            )
            print(f"  {name:42s} {figures}{ratio}")
        print(f"  columns: {', '.join(str(t) for t in trees)}")


if __name__ == "__main__":
    main()
