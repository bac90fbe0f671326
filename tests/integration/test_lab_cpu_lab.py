"""The lab's CPU, over SSH as the product reads it: the sampler's per-core figures in the lab
are this host's real /proc/stat (the lab is namespaces here; /proc/stat is not namespaced), and
every sample says so (the lab's /etc/sbctune-lab-cpu), so the chart and the command line call
them "lab host CPU, N cores" while `inspect` keeps the profile's Pi (4 cores on a Pi 4)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from sbctune.advice.inspect import inspect_host
from sbctune.lab import load_profile
from sbctune.measure.sampler import PiSampler
from sbctune.measure.sampler_data import LabCpu
from tests.lab_cpu_samples import host_cores
from tests.lab_support import connect_to_lab

pytestmark = [pytest.mark.lab]


# pi5-macb and pi1b-smsc95xx captured no /proc/cpuinfo: the s13 walk saw "CPU cores: unknown" in
# Inspect beside "not the Pi's 4" / "not the Pi's 1" on the chart; both now read the lab's Pi.
@pytest.mark.parametrize("lab", ["pi4-ax88179", "pi5-macb", "pi1b-smsc95xx"], indirect=True)
async def test_the_labs_cpu_samples_say_they_are_the_hosts(lab: Any, tmp_path: Path) -> None:
    pi_cores = load_profile(lab.profile).cpu.count
    async with await connect_to_lab(lab, tmp_path) as session:
        inventory, _ = await inspect_host(session)
        sampler = PiSampler(session, lab.test_nic.name, interval=0.5)
        async with sampler:
            await asyncio.sleep(1.6)
    assert sampler.error is None and sampler.samples
    for sample in sampler.samples:
        assert sample.lab_cpu == LabCpu(host_cores(), pi_cores)
        assert len(sample.cpus) == host_cores()  # the host's real counters, none invented
    assert sample.lab_cpu is not None
    heading = sample.lab_cpu.heading
    assert heading.startswith(f"Lab host CPU, {host_cores()} core")
    assert f"not the Pi's {pi_cores}" in heading
    assert inventory.board.cpu_cores == pi_cores  # what Inspect shows is the profile's Pi
    assert not Path("/etc/sbctune-lab-cpu").exists()  # written in the lab's /etc only
