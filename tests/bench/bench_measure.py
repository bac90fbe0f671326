"""Benchmark: fidelity of `sbctune measure` against a raw iperf3 run on the same lab link.

Same process, same lab, same durations and streams: sbctune's runner (the Pi's iperf3 client
against the built-in endpoint) vs `iperf3 -c` run by hand on the Pi against `iperf3 -s` on
this machine. Prints Mbit/s per direction and the ratio. Run as root on Linux:

    .venv/bin/python tests/bench/bench_measure.py [--profile pi4-ax88179] [--seconds 8]

Goal (issue 4): ratio 0.99 or better.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import subprocess
import tempfile
from pathlib import Path

from sbctune import lab
from sbctune.measure.plans import plan_named
from sbctune.measure.runner import measure
from sbctune.remote import KnownHosts, Secret, Session, Target


def _free_port(addr: str) -> int:
    with socket.socket() as sock:
        sock.bind((addr, 0))
        return int(sock.getsockname()[1])


async def _raw(
    session: Session,
    host_addr: str,
    pi_addr: str,
    seconds: int,
    omit: int,
    streams: int,
    reverse: bool,
) -> float:
    port = _free_port(host_addr)
    server = subprocess.Popen(
        ["iperf3", "-s", "-1", "-B", host_addr, "-p", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        await asyncio.sleep(0.5)
        argv = [
            "iperf3",
            "-c",
            host_addr,
            "-p",
            str(port),
            "-B",
            pi_addr,
            "-t",
            str(seconds),
            "-O",
            str(omit),
            "-P",
            str(streams),
            "-J",
        ] + (["-R"] if reverse else [])
        result = await session.run(argv, timeout=seconds + omit + 30, check=True)
        end = json.loads(result.stdout)["end"]
        return float(end["sum_received"]["bits_per_second"]) / 1e6
    finally:
        if server.poll() is None:  # -1 exits after its test; only a failed test leaves it
            server.terminate()
            server.wait(timeout=10)


async def main(profile: str, seconds: int) -> None:
    info = lab.up(profile, name="bench-measure")
    try:
        nic = info.test_nic
        target = Target(info.host, info.port, info.user, password=Secret(info.password))
        with tempfile.TemporaryDirectory() as tmp:
            known = KnownHosts(read_from=[], write_to=Path(tmp) / "kh")
            async with await Session.connect(
                target, known_hosts=known, accept_new_host_key=True
            ) as session:
                plan = plan_named("quick").with_overrides(duration=seconds, omit=1, streams=4)
                run = await measure(session, plan, nic=nic.name, sample=False)
                raw = {
                    "pi_to_pc": await _raw(
                        session, nic.host_addr, nic.pi_addr, seconds, 1, 4, False
                    ),
                    "pc_to_pi": await _raw(
                        session, nic.host_addr, nic.pi_addr, seconds, 1, 4, True
                    ),
                }
    finally:
        lab.down("bench-measure")
    print(f"profile {profile}, {seconds} s per direction, 4 streams, 1 s omitted")
    for direction, raw_mbps in raw.items():
        outcome = run.outcome(direction, "half")
        ours = outcome.receiver_mbps if outcome and outcome.receiver_mbps else 0.0
        mean = outcome.mean_mbps if outcome and outcome.mean_mbps else 0.0
        print(
            f"  {direction}: sbctune {ours:7.1f} Mbit/s (receiver sum; interval mean "
            f"{mean:.1f}), raw iperf3 {raw_mbps:7.1f} Mbit/s, ratio {ours / raw_mbps:.3f}"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--profile", default="pi4-ax88179")
    parser.add_argument("--seconds", type=int, default=8)
    args = parser.parse_args()
    asyncio.run(main(args.profile, args.seconds))
