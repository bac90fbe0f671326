"""Benchmark aid: where a first `log_sightings.from_dmesg` spends its time, by Python function.

    .venv/bin/python tests/bench/sample_from_dmesg.py [--lines 20000] [--runs 8] [--under NAME]

callgrind counts a step's instructions but, on CPython 3.11, not by Python function. This
samples the stack every 0.5 ms of CPU (SIGPROF) while one fresh process per run reads the
`--distinct` bundle of bench_inventory.py (the parse first, not sampled; then from_dmesg, as an
inspect runs it with the collector paused), and prints each function's share of the samples
under from_dmesg (inclusive, then its own), or the children of `--under` ("file.py:function").
A share, not a time: a busy machine stretches every part alike. (Session 32, speed32a.)
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

ROOT = Path(__file__).resolve().parents[2]
_ROOT_FRAME = "log_sightings.py:from_dmesg"
_SAMPLER = """
import gc, glob, os, signal, sys
from collections import Counter
from pathlib import Path
from sbctune.cli.dataclass_code import dataclass_code_kept
from sbctune.cli.regex_code import regex_code_kept

bundle, out = sys.argv[1], sys.argv[2]
stacks = Counter()

def sample(signum, frame):
    names = []
    while frame is not None:
        names.append(os.path.basename(frame.f_code.co_filename) + ":" + frame.f_code.co_name)
        frame = frame.f_back
    stacks[";".join(reversed(names))] += 1

with dataclass_code_kept(True), regex_code_kept(True):
    dmesg = [f for f in glob.glob(bundle + "/commands/*") if "dmesg" in f][0]
    text = Path(dmesg).read_text(encoding="utf-8")
    import sbctune.inventory.parsers.dmesg as parser
    from sbctune.inventory.log_sightings import from_dmesg
    gc.disable()
    result, _ = parser._parse_dmesg(text)
    signal.signal(signal.SIGPROF, sample)
    signal.setitimer(signal.ITIMER_PROF, 0.0005, 0.0005)
    from_dmesg(result)
    signal.setitimer(signal.ITIMER_PROF, 0, 0)
with open(out, "a", encoding="utf-8") as kept:
    for stack, n in stacks.items():
        kept.write(f"{n}\\t{stack}\\n")
os._exit(0)
"""


def _shares(samples: Path, under: str | None) -> tuple[int, Counter[str], Counter[str]]:
    """(samples under from_dmesg, inclusive counts, own counts or --under's children)."""
    total, inclusive, own = 0, Counter[str](), Counter[str]()
    for line in samples.read_text(encoding="utf-8").splitlines():
        count, _tab, stack = line.partition("\t")
        frames = stack.split(";")
        if _ROOT_FRAME not in frames:
            continue
        frames = frames[frames.index(_ROOT_FRAME) :]
        total += int(count)
        for name in set(frames):
            inclusive[name] += int(count)
        if under is None:
            own[frames[-1]] += int(count)
        elif under in frames:
            at = frames.index(under)
            own[frames[at + 1] if at + 1 < len(frames) else "(itself)"] += int(count)
    return total, inclusive, own


def main() -> None:
    from bench_inventory import big_dmesg_bundle

    parser = argparse.ArgumentParser()
    parser.add_argument("--lines", type=int, default=20_000)
    parser.add_argument("--runs", type=int, default=8)
    parser.add_argument("--under", default=None, help='children of "file.py:function"')
    parser.add_argument("--top", type=int, default=40)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        bundle = big_dmesg_bundle(Path(tmp), "pi4-ax88179", args.lines, distinct=True)
        env = dict(os.environ, SBCTUNE_CACHE_DIR=str(Path(tmp) / "cache"))
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        samples = Path(tmp) / "samples.txt"
        python = str(ROOT / ".venv" / "bin" / "python")
        # one run first, not counted: it writes the table and regex caches, as a user's first
        for out in [Path(tmp) / "warm.txt"] + [samples] * args.runs:
            subprocess.run(
                [python, "-c", _SAMPLER, str(bundle), str(out)],
                check=True,
                env=env,
                timeout=600,
            )
        total, inclusive, own = _shares(samples, args.under)
    print(f"{total} samples under from_dmesg ({args.runs} processes, {args.lines} lines)")
    print("inclusive:")
    for name, count in inclusive.most_common(args.top):
        print(f"  {100 * count / total:5.1f} %  {name}")
    print(f"children of {args.under}:" if args.under else "own:")
    for name, count in own.most_common(args.top):
        print(f"  {100 * count / total:5.1f} %  {name}")


if __name__ == "__main__":
    main()
