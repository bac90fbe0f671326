"""A Pi with hundreds of interfaces named like a container host's (`en*`, no device, no
address): live `inspect` asks ethtool about a bounded number, those in use first, and says
what it left out, instead of running 6 ethtool steps per interface until the round trip's
timeout loses everything."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from sbctune.limits import MAX_PROBED_INTERFACES
from tests.peak_memory import run_measured

pytest_plugins = ["tests.lab_support"]

EXTRA = 40  # more than the bound: enough to show the cut, cheap to make (one `ip -batch`)


def test_live_inspect_bounds_the_interfaces_it_probes(lab_factory: Any, tmp_path: Path) -> None:
    lab = lab_factory(profile="pi4-ax88179")
    # veth pairs, as a container host has (this kernel has no dummy module)
    batch = "".join(
        f"link add en{i:04d} type veth peer name en{i + 1:04d}\n" for i in range(0, EXTRA, 2)
    )
    subprocess.run(["ip", "-n", lab.netns, "-batch", "-"], input=batch.encode(), check=True,
                   timeout=60)  # fmt: skip

    env = dict(os.environ, SBCTUNE_PASSWORD=lab.password, SBCTUNE_DATA_DIR=str(tmp_path))
    argv = [sys.executable, "-m", "sbctune", "inspect", f"{lab.user}@{lab.host}",
            "--accept-new-host-key"]  # fmt: skip
    ran = run_measured(argv, tmp_path, env=env, timeout=240)

    assert ran.code == 0, ran.err
    assert f"{EXTRA + 2} network interfaces were found" in ran.out, ran.out  # + eth0, eth1
    assert f"asked ethtool about the first {MAX_PROBED_INTERFACES}" in ran.out
    assert "en0" in ran.out and "try again" not in (ran.out + ran.err).lower()
    # The interface in use (the lab's link to this PC, with its address) was probed.
    assert "eth1" in ran.out and "ax88179" in ran.out
    assert ran.peak_within(500), ran.peak_mb
    print(f"live inspect, {EXTRA} extra interfaces: {ran.seconds:.1f} s, {ran.peak_mb} MB")
