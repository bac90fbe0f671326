"""Instructions of each step of `sbctune inspect BUNDLE --json` after the parse (issue 24).

The command line of a big dmesg bundle (bench_inventory.big_dmesg_bundle) under callgrind, in
a fresh process as a user runs it (`sbctune.ui.launcher.run`), with a mark at each step's
entry and exit: `divmod(1, 1)`, which nothing in the inventory calls, and callgrind's
`--dump-before=builtin_divmod` dumps the count at each mark. The steps:

    up to the sightings   imports, reading the bundle, parse_all, the board
    sightings             build.devices up to graph.join (from_dmesg, the listings)
    graph.join
    is_nic list           build_inventory's first list (every device)
    join_returned
    NIC loop              _pair_usb_by_bus, nic_from_device of each NIC, the sort
    add_static_advice
    rest                  within_reach, to_json, the JSON printed, exit

    .venv/bin/python tests/bench/bench_inspect_steps.py [--lines 20000] [--other /work/wt/ref]

One process per tree (~1-2 min each at 20 000 lines); instruction counts, which a busy
machine does not change.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).resolve().parent))

# Run by the tree's own python: the steps wrapped, then the command line as `sbctune` runs it.
_MARKED = """
import sys
import sbctune.advice.inspect as advice
import sbctune.inventory.build as build

def wrap(module, name):
    real = getattr(module, name)
    def marked(*args, **kwargs):
        divmod(1, 1)
        try:
            return real(*args, **kwargs)
        finally:
            divmod(1, 1)
    setattr(module, name, marked)

for module, name in ((build, "devices"), (build, "join"), (build, "join_returned"),
                     (build, "_pair_by_elimination"), (advice, "add_static_advice")):
    wrap(module, name)
sys.argv = ["sbctune", "inspect", sys.argv[1], "--json"]
from sbctune.ui.launcher import run
sys.exit(run())
"""

# The marks in call order, and which step each interval between two marks belongs to.
_STEPS = (
    ("up to the sightings", 0),  # start -> devices in
    ("sightings", 1),  # devices in -> join in
    ("graph.join", 2),  # join in -> join out
    ("sightings", 3),  # join out -> devices out
    ("is_nic list", 4),  # devices out -> join_returned in
    ("join_returned", 5),
    ("NIC loop", 6),  # join_returned out -> _pair_by_elimination in
    ("rest of build_inventory", 7),  # _pair_by_elimination, ..., up to add_static_advice
    ("rest of build_inventory", 8),
    ("add_static_advice", 9),
    ("rest", 10),  # add_static_advice out -> exit
)


def steps(tree: Path, bundle: Path, cache: Path) -> dict[str, int]:
    """Each step's instructions in one fresh process of `tree`'s code."""
    env = dict(os.environ, SBCTUNE_CACHE_DIR=str(cache))
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # the bytecode kept, as an installed program has
    python = str(tree / ".venv" / "bin" / "python")
    # once untimed: the bytecode, the table cache
    subprocess.run([python, "-c", _MARKED, str(bundle)], check=True, env=env, timeout=600,
                   stdout=subprocess.DEVNULL)  # fmt: skip
    with tempfile.TemporaryDirectory() as out:
        subprocess.run(
            [
                *("valgrind", "--tool=callgrind", "--dump-before=builtin_divmod"),
                f"--callgrind-out-file={out}/cg.out",
                *(python, "-c", _MARKED, str(bundle)),
            ],
            check=True,
            env=env,
            timeout=3600,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        dumps = sorted(Path(out).glob("cg.out.*"), key=lambda p: int(p.suffix[1:]))
        counts = [_total(p) for p in dumps] + [_total(Path(out) / "cg.out")]
    # imports may call divmod before the first mark: those intervals are start-up
    marks = len(_STEPS) - 1
    start, ours = sum(counts[: len(counts) - marks - 1]), counts[len(counts) - marks - 1 :]
    found: dict[str, int] = {}
    for (name, place), count in zip(_STEPS, ours, strict=True):
        found[name] = found.get(name, 0) + count + (start if place == 0 else 0)
    return found


def _total(path: Path) -> int:
    found = re.search(r"^(?:summary|totals): (\d+)", path.read_text(encoding="utf-8"), re.M)
    return int(found.group(1)) if found else 0


def main() -> None:
    import bench_inventory

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lines", type=int, default=20_000)
    parser.add_argument("--profile", default="pi4-ax88179")
    parser.add_argument("--other", type=Path, default=None)
    args = parser.parse_args()
    trees = [ROOT] + ([args.other] if args.other is not None else [])
    with tempfile.TemporaryDirectory() as tmp:
        bundle = bench_inventory.big_dmesg_bundle(Path(tmp), args.profile, args.lines, True)
        found = {tree: steps(tree, bundle, Path(tmp) / "cache") for tree in trees}
    print(f"`sbctune inspect BUNDLE --json`, {args.lines} distinct lines, instructions (M):")
    print(f"  {'step':<26}" + "".join(f"{tree.name:>14}" for tree in trees))
    for name in dict.fromkeys(name for name, _place in _STEPS):
        print(f"  {name:<26}" + "".join(f"{found[t][name] / 1e6:14.1f}" for t in trees))
    print(f"  {'total':<26}" + "".join(f"{sum(found[t].values()) / 1e6:14.1f}" for t in trees))


if __name__ == "__main__":
    main()
