"""Benchmark: time-to-inventory on the virtual Pi lab, and SSH round trips.

sbctune's collector (two batched round trips) against a baseline that runs each of the same
commands in its own SSH exec, in the same process, on the same lab. Run as root on Linux:

    .venv/bin/python tests/bench/bench_inventory.py [--profile pi4-ax88179] [--runs 5]

Goal (issue 3): at most 2 round trips and under 1 s for connect + collect + parse.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from sbctune import lab
from sbctune.advice.inspect import inspect_host
from sbctune.inventory import collect as collect_mod
from sbctune.remote import KnownHosts, Secret, Session, Target


def _channels(session: Session) -> int:
    return session.round_trips


async def _batched(target: Target, known: KnownHosts) -> tuple[float, int, int]:
    start = time.perf_counter()
    async with await Session.connect(target, known_hosts=known) as session:
        first = _channels(session)
        inventory, _collection = await inspect_host(session)
        channels = _channels(session) - first
    return time.perf_counter() - start, channels, len(inventory.nics)


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


async def main(profile: str, runs: int) -> None:
    info = lab.up(profile, name="bench-inventory")
    try:
        target = Target(info.host, info.port, info.user, password=Secret(info.password))
        with tempfile.TemporaryDirectory() as tmp:
            known = KnownHosts(read_from=[], write_to=Path(tmp) / "kh")
            await Session.connect(target, known_hosts=known, accept_new_host_key=True)
            batched = [await _batched(target, known) for _ in range(runs)]
            baseline = [await _one_exec_each(target, known) for _ in range(runs)]
    finally:
        lab.down("bench-inventory")
    b_time = statistics.median(t for t, _, _ in batched)
    s_time = statistics.median(t for t, _, _ in baseline)
    print(f"profile {profile}, {runs} runs each, medians:")
    print(
        f"  sbctune collector : {b_time * 1000:7.0f} ms, {batched[0][1]} SSH exec round trips"
        f" (sudo probe folded in), {batched[0][2]} NICs"
    )
    print(f"  one exec per read : {s_time * 1000:7.0f} ms, {baseline[0][1]} SSH exec round trips")
    print(f"  ratio baseline/sbctune: {s_time / b_time:.1f}x faster; goal <= 2 round trips, < 1 s")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--profile", default="pi4-ax88179")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    asyncio.run(main(args.profile, args.runs))
