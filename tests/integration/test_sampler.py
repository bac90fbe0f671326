"""The Pi sampler against the virtual Pi lab: live samples over real SSH, under real load.

Inside the lab /proc/stat and /proc/softirqs are this machine's kernel (so load made in the lab
shows), /proc/interrupts is the captured Pi's (static: the NIC's interrupt rates stay 0), and
the NIC's byte counters are the lab veth's (real iperf3 traffic shows).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from sbctune.measure.sampler import PiSample, PiSampler, SamplerSummary
from tests.lab_support import connect_to_lab, iperf3_server

pytestmark = [pytest.mark.lab, pytest.mark.slow]

IPERF = ["iperf3", "-t", "2", "-c"]  # the Pi sends for 2 s
# $1 gzip processes of 2 s each (one per core): the cores have no idle time while they run.
CPU_LOAD = (
    'i=0; while [ $i -lt "$1" ]; do timeout 2 gzip </dev/zero >/dev/null & i=$((i+1)); done; wait'
)


def _lab_processes(netns: str) -> list[str]:
    """Command lines of the processes in the lab's network namespace: the machine's process
    table is shared, and other labs (other tests) run samplers of their own."""
    pids = subprocess.run(
        ["ip", "netns", "pids", netns], capture_output=True, text=True, check=True
    ).stdout.split()
    lines = []
    for pid in pids:
        with contextlib.suppress(OSError):  # it may have exited since
            raw = Path(f"/proc/{pid}/cmdline").read_bytes()
            lines.append(raw.replace(b"\0", b" ").decode(errors="replace").strip())
    return lines


def _sum(summary: SamplerSummary, name: str) -> float:
    """One figure (e.g. "mean_busy") summed over all cores."""
    return float(sum(getattr(core, name) for core in summary.cores))


async def test_sampler_sees_load_and_traffic_and_leaves_nothing_behind(
    lab: Any, tmp_path: Path
) -> None:
    nic = lab.test_nic
    server, port = iperf3_server(nic.host_addr)
    arrivals: list[float] = []

    def on_sample(sample: PiSample) -> None:
        arrivals.append(time.monotonic())

    try:
        async with await connect_to_lab(lab, tmp_path) as session:
            sampler = PiSampler(session, nic.name, irqs=[46], interval=0.5, on_sample=on_sample)
            began = time.monotonic()
            async with sampler:
                await asyncio.sleep(1.6)  # a quiet baseline
                cores = len(sampler.samples[-1].cpus)
                load_start = time.monotonic()
                iperf, _ = await asyncio.gather(
                    session.run([*IPERF, nic.host_addr, "-p", str(port), "-B", nic.pi_addr]),
                    session.run(["sh", "-c", CPU_LOAD, "sh", str(cores)]),
                )
                await asyncio.sleep(0.6)
            elapsed = time.monotonic() - began
            leftovers = _lab_processes(lab.netns)
    finally:
        server.kill()
        server.wait()

    assert iperf.ok, iperf.stderr
    assert sampler.error is None
    # At least one sample a second, live (the first sample only anchors the deltas).
    assert len(arrivals) == len(sampler.samples) >= int(elapsed) - 1
    assert all(s.interval <= 1.0 for s in sampler.samples)
    assert max(b - a for a, b in itertools.pairwise(arrivals)) < 1.5

    quiet = sampler.summary(began, load_start)
    during = sampler.summary(load_start + 0.3, load_start + 1.8)
    # /proc/stat in the lab is this machine's, which other work shares: the load is one
    # always-runnable process per core, which leaves no idle time whatever else runs here.
    # Only a baseline that was already saturated cannot rise.
    if min(core.mean_busy for core in quiet.cores) < 98:
        assert _sum(during, "mean_busy") > _sum(quiet, "mean_busy"), (quiet, during)
    assert min(core.mean_busy for core in during.cores) > 90, during
    assert during.mean_tx_mbps is not None and during.mean_tx_mbps > 10  # the Pi sends
    assert during.mean_rx_mbps is not None and during.mean_rx_mbps > 0  # the PC's ACKs
    assert during.busiest_core is not None
    # The captured Pi 4 has 4 CPUs and its xhci_hcd line (IRQ 46) carries the USB NIC.
    assert all(len(s.nic_irqs_per_s) == 4 for s in sampler.samples)

    stray = [
        line for line in leftovers if "@@sbctune-sample" in line or line.strip() == "sleep 0.500"
    ]
    assert stray == [], stray
