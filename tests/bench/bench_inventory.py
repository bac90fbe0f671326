"""Benchmark: time-to-inventory on the virtual Pi lab, and SSH round trips.

sbctune's collector (two batched round trips) against a baseline that runs each of the same
commands in its own SSH exec, in the same process, on the same lab. Run as root on Linux:

    .venv/bin/python tests/bench/bench_inventory.py [--profile pi4-ax88179] [--runs 5]

Goal (issue 3): at most 2 round trips and under 1 s for connect + collect + parse.

    .venv/bin/python tests/bench/bench_inventory.py --big-dmesg [--compare-with /work/main]

Goal (issues 13, 24): `inspect` of a bundle whose dmesg has 100 000 lines (real lines from
tests/captures/dmesg repeated) under 1 s; with --compare-with, the same bundle is inspected by
another checkout's code (its .venv), the two alternating, and the ratio printed. Needs no lab
and no root. `--distinct` gives every line its own kernel timestamp, increasing, as in a real
long log (the repeated lines then differ: no cache of whole lines can help); "first" is the
first inspect in a fresh process, with the tables it loads (kernel messages, drivers, boards).

    .venv/bin/python tests/bench/bench_inventory.py --big-dmesg --distinct --instructions \\
        [--lines 10000] [--compare-with /work/main]

counts the instructions of `sbctune inspect BUNDLE --json` instead (valgrind's callgrind, ~50x
slower than a plain run): the figure to compare on a busy machine, where wall and CPU times
of the same code vary by a third.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from sbctune import lab
from sbctune.advice.inspect import inspect_host
from sbctune.inventory import collect as collect_mod
from sbctune.remote import KnownHosts, Secret, Session, Target


def _channels(session: Session) -> int:
    return session.round_trips


async def _batched(target: Target, known: KnownHosts) -> tuple[float, int, int, int]:
    start = time.perf_counter()
    async with await Session.connect(target, known_hosts=known) as session:
        first = _channels(session)
        inventory, collection = await inspect_host(session)
        channels = _channels(session) - first
    return time.perf_counter() - start, channels, len(inventory.nics), collection.round_trips


async def _one_exec_each(target: Target, known: KnownHosts) -> tuple[float, int, int]:
    start = time.perf_counter()
    async with await Session.connect(target, known_hosts=known) as session:
        first = _channels(session)
        steps = collect_mod.round1_steps()
        results = [(await session.run_script([step]))[0] for step in steps]
        links = next(r for r in results if r.step.key == "net-links")
        interfaces = collect_mod.interfaces_to_probe(collect_mod._split_links(links.stdout))
        for step in collect_mod.round2_steps(interfaces):
            await session.run_script([step], sudo=True)
        channels = _channels(session) - first
    return time.perf_counter() - start, channels, len(steps)


# As `sbctune inspect HOST` runs in its own process: under the command line's regex cache
# where the tree has one (cli/regex_code.py; the first parse's patterns, after the last answer)
_SSH_TIMER = """
import asyncio, contextlib, json, sys, tempfile, time
from pathlib import Path
from sbctune.advice.inspect import inspect_host
from sbctune.remote import KnownHosts, Secret, Session, Target
try:
    from sbctune.cli.regex_code import regex_code_kept
except ImportError:
    regex_code_kept = lambda own_process: contextlib.nullcontext()
spec = json.loads(sys.stdin.read())  # the lab's password comes on stdin, never in argv

async def once():
    target = Target(spec["host"], spec["port"], spec["user"], password=Secret(spec["password"]))
    known = KnownHosts(read_from=[], write_to=Path(spec["kh"]))
    start = time.perf_counter()
    async with await Session.connect(target, known_hosts=known, accept_new_host_key=True) as s:
        await inspect_host(s)
    return time.perf_counter() - start

with regex_code_kept(own_process=True):
    print(asyncio.run(once()))
"""


def _time_other(other: Path, info: lab.LabInfo, kh: Path) -> float:
    """One inspect over SSH by a checkout's code (its .venv) on the same lab, in a fresh
    process as `sbctune inspect` runs (its imports not timed; its tables loaded)."""
    spec = {"host": info.host, "port": info.port, "user": info.user, "kh": str(kh)}
    spec["password"] = info.password
    out = subprocess.run(
        [str(other / ".venv" / "bin" / "python"), "-c", _SSH_TIMER],
        input=json.dumps(spec),
        check=True,
        capture_output=True,
        text=True,
        timeout=120,
    ).stdout
    return float(out.split()[-1])


async def main(profile: str, runs: int, other: Path | None = None, name: str | None = None) -> None:
    # a name of this run's own: two checkouts benchmarking at once must not meet (`--lab-name`:
    # one that says whose it is, on a machine several people share)
    name = name or f"bench-inv-{os.getpid()}"
    info = lab.up(profile, name=name)
    theirs: list[float] = []
    try:
        target = Target(info.host, info.port, info.user, password=Secret(info.password))
        with tempfile.TemporaryDirectory() as tmp:
            known = KnownHosts(read_from=[], write_to=Path(tmp) / "kh")
            await Session.connect(target, known_hosts=known, accept_new_host_key=True)
            # the children's caches (tables, kept code), not the user's: one untimed run each
            os.environ["SBCTUNE_CACHE_DIR"] = str(Path(tmp) / "cache")
            if other is not None:
                _time_other(ROOT, info, Path(tmp) / "kh-this")
                _time_other(other, info, Path(tmp) / "kh-other")
            batched = []
            fresh: list[float] = []
            for _ in range(runs):  # interleaved: a busy machine slows both alike
                batched.append(await _batched(target, known))
                if other is not None:
                    fresh.append(_time_other(ROOT, info, Path(tmp) / "kh-this"))
                    theirs.append(_time_other(other, info, Path(tmp) / "kh-other"))
            baseline = [await _one_exec_each(target, known) for _ in range(runs)]
    finally:
        lab.down(name)
    b_time = statistics.median(t for t, *_rest in batched)
    s_time = statistics.median(t for t, _, _ in baseline)
    print(f"profile {profile}, {runs} runs each, medians:")
    print(
        f"  sbctune collector : {b_time * 1000:7.0f} ms, {batched[0][3]} SSH round trips in"
        f" sequence ({batched[0][1]} exec channels, round 2's shell held open during round 1),"
        f" {batched[0][2]} NICs"
    )
    print(f"  one exec per read : {s_time * 1000:7.0f} ms, {baseline[0][1]} SSH exec round trips")
    print(f"  ratio baseline/sbctune: {s_time / b_time:.1f}x faster; goal <= 2 round trips, < 1 s")
    if theirs:
        t_time, f_time = statistics.median(theirs), statistics.median(fresh)
        print("  connect + inspect in a fresh process each (as the CLI), interleaved, medians:")
        print(f"  this tree : {f_time * 1000:7.0f} ms (goal: under 400 ms)")
        print(f"  {other} : {t_time * 1000:7.0f} ms")
        print(f"  ratio {other.name}/this tree: {t_time / f_time:.2f}x")


ROOT = Path(__file__).resolve().parents[2]
_TIMER = """
import sys, time
try:
    from sbctune.advice.inspect import inspect_bundle
except ImportError:  # before the advice layer took the inspect step
    from sbctune.inventory.inspect import inspect_bundle
best, cpu, first = None, None, None
for _ in range(int(sys.argv[2])):
    start, used = time.perf_counter(), time.process_time()
    inv = inspect_bundle(sys.argv[1])
    took, spent = time.perf_counter() - start, time.process_time() - used
    first = took if first is None else first
    best = took if best is None else min(best, took)
    cpu = spent if cpu is None else min(cpu, spent)
print(best, cpu, len(inv.nics), len(inv.findings), first)
"""


_LEADING_TS = re.compile(r"^\s*\[\s*\d+\.\d+\]\s?")


def _own_clock(body: list[str]) -> list[str]:
    """Every line with its own kernel timestamp, 1 ms apart (its old one replaced)."""
    return [f"[{no / 1000:12.6f}] {_LEADING_TS.sub('', line)}" for no, line in enumerate(body)]


def big_dmesg_bundle(dest: Path, profile: str, lines: int, distinct: bool = False) -> Path:
    """The profile's bundle with its dmesg replaced by `lines` real kernel log lines."""
    source = ROOT / "resources" / "lab" / "profiles" / profile
    bundle = dest / "bundle"
    shutil.copytree(source, bundle)
    real = [
        line
        for path in sorted((ROOT / "tests" / "captures" / "dmesg").glob("*.txt"))
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines()
        if line.strip()
    ]
    manifest = json.loads((bundle / "manifest.json").read_text(encoding="utf-8"))
    own = (bundle / manifest["commands"]["dmesg"]).read_text(encoding="utf-8").splitlines()
    body = (real * (lines // len(real) + 1))[: lines - len(own)] + own
    if distinct:
        body = _own_clock(body)
    (bundle / manifest["commands"]["dmesg"]).write_text("\n".join(body) + "\n", encoding="utf-8")
    return bundle


def _time_with(python: str, bundle: Path, runs: int) -> tuple[float, float, int, int, float]:
    out = subprocess.run(
        [python, "-c", _TIMER, str(bundle), str(runs)],
        check=True,
        capture_output=True,
        text=True,
        timeout=600,
    ).stdout.split()
    first = float(out[4]) if len(out) > 4 else float("nan")
    return float(out[0]), float(out[1]), int(out[2]), int(out[3]), first


def _time_cli(tree: Path, bundle: Path, env: dict[str, str]) -> tuple[float, float]:
    """`sbctune inspect BUNDLE --json` as a user runs it: a fresh process; its wall time and
    its CPU time (user + system, what a busy machine's waiting leaves out)."""
    start = time.perf_counter()
    child = subprocess.Popen(
        [str(tree / ".venv" / "bin" / "sbctune"), "inspect", str(bundle), "--json"],
        stdout=subprocess.DEVNULL,
        env=env,
    )
    try:
        _pid, status, usage = os.wait4(child.pid, 0)  # posix-only: the bench runs on Linux
    except BaseException:
        child.kill()
        raise
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
    if child.returncode != 0:
        raise subprocess.CalledProcessError(child.returncode, child.args)
    return wall, usage.ru_utime + usage.ru_stime


def bench_cli(bundle: Path, other: Path | None, rounds: int, cache: Path) -> None:
    """The command line's wall and CPU time, this tree and `other` alternating, after one
    untimed run each (it writes the bytecode, the table cache and fills the page cache)."""
    env = dict(os.environ, SBCTUNE_CACHE_DIR=str(cache))
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # the bytecode kept, as an installed program has
    trees = [ROOT] + ([other] if other is not None else [])
    for tree in trees:
        _time_cli(tree, bundle, env)
    times: dict[Path, list[tuple[float, float]]] = {tree: [] for tree in trees}
    for _ in range(rounds):
        for tree in trees:
            times[tree].append(_time_cli(tree, bundle, env))

    def figures(tree: Path) -> tuple[float, float, float, float]:
        walls, cpus = [w for w, _ in times[tree]], [c for _, c in times[tree]]
        return statistics.median(walls), min(walls), statistics.median(cpus), min(cpus)

    mine = figures(ROOT)
    print(f"`sbctune inspect BUNDLE --json`, fresh process, {rounds} runs, median (best):")
    print(
        f"  this tree : {mine[0] * 1000:7.0f} ms ({mine[1] * 1000:.0f}), CPU "
        f"{mine[2] * 1000:.0f} ms ({mine[3] * 1000:.0f}); goal < 1 s"
    )
    if other is not None:
        theirs = figures(other)
        print(
            f"  {other} : {theirs[0] * 1000:7.0f} ms ({theirs[1] * 1000:.0f}), CPU "
            f"{theirs[2] * 1000:.0f} ms ({theirs[3] * 1000:.0f})"
        )
        print(
            f"  ratio {other.name}/this tree: wall {theirs[0] / mine[0]:.2f}x, CPU median "
            f"{theirs[2] / mine[2]:.2f}x, CPU best {theirs[3] / mine[3]:.2f}x"
        )


def _instructions(tree: Path, bundle: Path, env: dict[str, str]) -> int:
    """Instructions `sbctune inspect BUNDLE --json` runs (valgrind's callgrind), in a fresh
    process: a figure a busy machine does not change, unlike its wall and CPU time."""
    out = subprocess.run(
        [
            *("valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"),
            *(str(tree / ".venv" / "bin" / "sbctune"), "inspect", str(bundle), "--json"),
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


def bench_instructions(bundle: Path, other: Path | None, cache: Path) -> None:
    """The command line's instruction count, this tree and `other` (after one run each that
    fills their caches, as bench_cli's untimed run)."""
    env = dict(os.environ, SBCTUNE_CACHE_DIR=str(cache))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    trees = [ROOT] + ([other] if other is not None else [])
    counts = {}
    for tree in trees:
        _time_cli(tree, bundle, env)
        counts[tree] = _instructions(tree, bundle, env)
    print("`sbctune inspect BUNDLE --json`, fresh process, instructions (callgrind):")
    print(f"  this tree : {counts[ROOT] / 1e9:7.3f} G")
    if other is not None:
        print(f"  {other} : {counts[other] / 1e9:7.3f} G")
        print(f"  ratio {other.name}/this tree: {counts[other] / counts[ROOT]:.2f}x")


def _best(results: list[tuple[float, float, int, int, float]]) -> tuple[float, float, float]:
    """Best wall, best CPU and median first-inspect time over fresh processes."""
    return (
        min(r[0] for r in results),
        min(r[1] for r in results),
        statistics.median(r[4] for r in results),
    )


def bench_big_dmesg(
    profile: str,
    runs: int,
    lines: int,
    other: Path | None,
    distinct: bool,
    rounds: int,
    instructions: bool = False,
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        bundle = big_dmesg_bundle(Path(tmp), profile, lines, distinct)
        if instructions:
            bench_instructions(bundle, other, Path(tmp) / "cache")
            return
        os.environ["SBCTUNE_CACHE_DIR"] = str(Path(tmp) / "cache")  # the children's, not the user's
        for python in [ROOT] + ([other] if other is not None else []):
            _time_with(str(python / ".venv" / "bin" / "python"), bundle, 1)  # builds the cache
        mine_py = str(ROOT / ".venv" / "bin" / "python")
        mine: list[tuple[float, float, int, int, float]] = []
        theirs: list[tuple[float, float, int, int, float]] = []
        for _ in range(rounds):  # alternating: a busy machine slows both alike
            mine.append(_time_with(mine_py, bundle, runs))
            if other is not None:
                theirs.append(_time_with(str(other / ".venv" / "bin" / "python"), bundle, runs))
        kind = "distinct lines (own timestamps)" if distinct else "repeated lines"
        print(
            f"inspect of {profile} with a {lines}-line dmesg ({kind}), {rounds} processes x "
            f"{runs} inspects: best wall, best CPU, median first inspect of a process:"
        )
        wall, cpu, first = _best(mine)
        print(
            f"  this tree : {wall * 1000:7.0f} ms, CPU {cpu * 1000:6.0f} ms, first "
            f"{first * 1000:6.0f} ms ({mine[0][2]} NICs, {mine[0][3]} findings); goal < 1 s"
        )
        if theirs:
            o_wall, o_cpu, o_first = _best(theirs)
            print(
                f"  {other} : {o_wall * 1000:7.0f} ms, CPU {o_cpu * 1000:6.0f} ms, first "
                f"{o_first * 1000:6.0f} ms ({theirs[0][2]} NICs, {theirs[0][3]} findings)"
            )
            print(
                f"  ratio {other.name}/this tree: wall {o_wall / wall:.2f}x, "
                f"CPU {o_cpu / cpu:.2f}x, first {o_first / first:.2f}x (CPU holds best when busy)"
            )
        bench_cli(bundle, other, rounds, Path(tmp) / "cache")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--profile", default="pi4-ax88179")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--big-dmesg", action="store_true", help="time inspect, no lab")
    parser.add_argument("--lines", type=int, default=100_000)
    parser.add_argument("--compare-with", type=Path, default=None, help="another checkout")
    parser.add_argument("--distinct", action="store_true", help="every dmesg line its own clock")
    parser.add_argument("--rounds", type=int, default=3, help="fresh processes per tree")
    parser.add_argument("--lab-name", default=None, help="the lab's name (default: its pid's)")
    parser.add_argument(
        "--instructions", action="store_true", help="with --big-dmesg: callgrind's counts"
    )
    args = parser.parse_args()
    if args.big_dmesg:
        bench_big_dmesg(
            args.profile,
            args.runs,
            args.lines,
            args.compare_with,
            args.distinct,
            args.rounds,
            args.instructions,
        )
    else:
        asyncio.run(main(args.profile, args.runs, args.compare_with, args.lab_name))
