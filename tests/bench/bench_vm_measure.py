"""Benchmark: fidelity of `sbctune measure` against raw iperf3 over the VM lab's real NICs.

Boots the VM lab (or uses a running one with --lab NAME), installs iperf3 on it from the lab's
local repository, then per NIC (e1000e and the 2-queue virtio): sbctune's runner against the
built-in endpoint vs `iperf3 -c` on the VM against `iperf3 -s` here, same durations and
streams. Prints Mbit/s per direction and the ratio (goal: 0.99 or better). Root, x86_64:

    .venv/bin/python tests/bench/bench_vm_measure.py [--seconds 8] [--lab NAME]

The measuring half runs inside the lab's namespace (re-executed under `ip netns exec`), the
only place the VM's NICs are reachable.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from sbctune.lab.vm import lab as vmlab  # noqa: E402
from sbctune.lab.vm import plan as vmplan  # noqa: E402
from sbctune.measure.install import install_iperf3  # noqa: E402
from sbctune.measure.plans import plan_named  # noqa: E402
from sbctune.measure.runner import measure  # noqa: E402
from sbctune.remote import KnownHosts, Secret, Session, Target  # noqa: E402
from tests.bench.bench_measure import _raw  # noqa: E402


async def inner(seconds: int) -> None:
    password = Secret(os.environ["SBCTUNE_PASSWORD"])
    with tempfile.TemporaryDirectory() as tmp:
        known = KnownHosts(read_from=[], write_to=Path(tmp) / "kh")
        for role in ("e1000e", "virtio-mq"):
            nic = vmplan.nic(role)
            target = Target(nic.vm_addr, 22, "pi", password=password, connect_timeout=90)
            async with await Session.connect(
                target, known_hosts=known, accept_new_host_key=True
            ) as session:
                if (await session.run(["sh", "-c", "command -v iperf3"])).exit_code != 0:
                    await install_iperf3(session)
                plan = plan_named("quick").with_overrides(duration=seconds, omit=1, streams=4)
                run = await measure(session, plan, nic=None, sample=False)
                raw = {
                    "pi_to_pc": await _raw(
                        session, nic.host_addr, nic.vm_addr, seconds, 1, 4, False
                    ),
                    "pc_to_pi": await _raw(
                        session, nic.host_addr, nic.vm_addr, seconds, 1, 4, True
                    ),
                }
            print(f"{role} ({run.nic}), {seconds} s per direction, 4 streams, 1 s omitted")
            for direction, raw_mbps in raw.items():
                outcome = run.outcome(direction, "half")  # type: ignore[arg-type]
                ours = outcome.receiver_mbps if outcome and outcome.receiver_mbps else 0.0
                print(
                    f"  {direction}: sbctune {ours:7.1f} Mbit/s, raw iperf3 {raw_mbps:7.1f} "
                    f"Mbit/s, ratio {ours / raw_mbps:.3f}"
                )


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=int, default=8)
    parser.add_argument("--lab", help="a running VM lab to use (default: boot one)")
    parser.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.inner:
        asyncio.run(inner(args.seconds))
        return 0
    name = args.lab or "bench-vm"
    lab = vmlab.load(name) if args.lab else vmlab.up(name)
    if lab is None:
        print(f"no VM lab named {name}", file=sys.stderr)
        return 1
    try:
        env = {**os.environ, "SBCTUNE_PASSWORD": lab.password}
        argv = [sys.executable, __file__, "--inner", "--seconds", str(args.seconds)]
        return subprocess.run(lab.in_netns(argv), env=env, check=False).returncode
    finally:
        if not args.lab:
            vmlab.down(name)


if __name__ == "__main__":
    sys.exit(main())
