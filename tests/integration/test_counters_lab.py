"""The interface counters over real SSH: `inspect` of the pi4-ax88179 lab reads each NIC's
packet, error and drop counters from sysfs in its first round and asks `ethtool -S` in its
second (no extra round trip); the bundle `collect` writes carries them unchanged."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sbctune.advice.inspect import inspect_bundle, inspect_host, save_bundle
from tests.lab_support import connect_to_lab

pytestmark = [pytest.mark.lab]


async def test_counters_come_with_the_inventory(lab_factory: Any, tmp_path: Path) -> None:
    lab = lab_factory(profile="pi4-ax88179")
    async with await connect_to_lab(lab, tmp_path) as session:
        inventory, collection = await inspect_host(session)
    assert collection.round_trips == 2
    nic = inventory.nic("eth1")
    assert nic is not None
    # The SSH session itself crossed the lab's links: real, non-zero traffic on some NIC.
    assert set(nic.counters) >= {"rx_packets", "tx_packets", "rx_errors", "rx_dropped"}
    assert any(n.counters.get("rx_packets", 0) > 0 for n in inventory.nics)
    assert "/sys/class/net/eth1/statistics/rx_packets" in collection.files
    # A quiet, error-free veth gives no counter finding.
    ids = {f.id for f in inventory.findings}
    assert not ids & {"interface-errors", "counter-errors", "counter-drops", "pause-frames"}
    again = inspect_bundle(save_bundle(collection, tmp_path / "bundle.zip"))
    same = again.nic("eth1")
    assert same is not None and same.counters == nic.counters
    assert same.ethtool_stats == nic.ethtool_stats
