"""Benchmark: does iperf3 through the virtual Pi lab land on each profile's rates?

The lab shapes every NIC to the goodput its profile gives (the seeds' measured figures; see
sbctune.lab.shaping). tests/integration/test_lab.py checks that the shaper is in place with
those rates and the relations a busy machine cannot break; this prints the figures: per
profile and direction, the rate tc holds, `iperf3 -c PC -t S -P 4 [-R]` run on the lab's Pi
(against `iperf3 -s` on this machine, the receiver's figure) `--runs` times, its median and
best, and their ratio to the profile's rate, in the same process. The load average before
and after each profile is printed: a busy machine measures less (2 vCPUs: the VM lab's QEMU
and the Windows lane beside pytest took 692 of 736 Mbit/s in CI). Run as root on Linux:

    .venv/bin/python tests/bench/bench_lab_rates.py [--profile pi4-ax88179 ...] [--runs 5]

Goal: the median within 5 % of the profile's rate on a quiet machine (ratio 0.95-1.05).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from sbctune import lab  # noqa: E402
from sbctune.lab.profile import load_profile  # noqa: E402
from sbctune.remote import KnownHosts, Secret, Session, Target  # noqa: E402
from tests.lab_shaping import shaped_goodput  # noqa: E402
from tests.lab_support import iperf3_server  # noqa: E402

PROFILES = ("pi4-ax88179", "pi1b-smsc95xx")
GOAL = 0.05
DIRECTIONS = ("pi_to_pc", "pc_to_pi")


async def _once(session: Session, pc_addr: str, seconds: int, reverse: bool) -> float:
    """Goodput in Mbit/s of one `iperf3 -c PC -t S -P 4 [-R]` on the Pi, as received."""
    server, port = iperf3_server(pc_addr)
    try:
        argv = ["iperf3", "-c", pc_addr, "-p", str(port), "-t", str(seconds), "-P", "4", "-J"]
        result = await session.run(
            argv + (["-R"] if reverse else []), timeout=seconds + 30, check=True
        )
        report = json.loads(result.stdout)
        return float(report["end"]["sum_received"]["bits_per_second"]) / 1e6
    finally:
        server.kill()
        server.wait()


async def bench(profile: str, runs: int, seconds: int) -> list[str]:
    name = f"bench-rates-{os.getpid()}"
    load_before = os.getloadavg()[0]
    info = lab.up(profile, name=name)
    try:
        nic = info.test_nic
        shaped = shaped_goodput(nic)
        target = Target(info.host, info.port, info.user, password=Secret(info.password))
        got: dict[str, list[float]] = {d: [] for d in DIRECTIONS}
        with tempfile.TemporaryDirectory() as tmp:
            known = KnownHosts(read_from=[], write_to=Path(tmp) / "kh")
            async with await Session.connect(
                target, known_hosts=known, accept_new_host_key=True
            ) as session:
                for _ in range(runs):  # the directions alternate, so drift touches both alike
                    for direction in DIRECTIONS:
                        mbps = await _once(session, nic.host_addr, seconds, direction == "pc_to_pi")
                        got[direction].append(mbps)
    finally:
        lab.down(name)
    link = load_profile(profile).test_interface.link
    rates = {"pi_to_pc": link.pi_to_pc_mbps, "pc_to_pi": link.pc_to_pi_mbps}
    lines = [f"{profile}: load average {load_before:.1f} -> {os.getloadavg()[0]:.1f}"]
    for direction in DIRECTIONS:
        rate = rates[direction]
        assert rate is not None
        median, best = statistics.median(got[direction]), max(got[direction])
        within = abs(median - rate) <= GOAL * rate
        lines.append(
            f"  {direction}: profile {rate:.0f}, tc {shaped[direction]:.1f} Mbit/s; "
            f"measured {', '.join(f'{g:.0f}' for g in got[direction])}; "
            f"median {median:.1f} (ratio {median / rate:.3f}), best {best:.1f} "
            f"(ratio {best / rate:.3f}); within 5 %: {'met' if within else 'NOT met'}"
        )
    return lines


async def main(profiles: list[str], runs: int, seconds: int) -> None:
    print(f"iperf3 -t {seconds} -P 4, {runs} runs per direction, receiver's figure")
    for profile in profiles:
        for line in await bench(profile, runs, seconds):
            print(line, flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--profile", action="append", help="a lab profile (repeatable)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seconds", type=int, default=3)
    args = parser.parse_args()
    asyncio.run(main(args.profile or list(PROFILES), args.runs, args.seconds))
