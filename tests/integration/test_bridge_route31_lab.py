"""bridge31 over SSH: a Pi 5 (pi5-macb lab) whose eth0 is made a bridge port, its address moved
to br0 as a user does it (audit 39's lab, resources/tuning/driver_caps_audit39.md). The default
NIC of `tune plan`, the one-click flow and the window is eth0 (under br0, which the route
names), and a measurement over eth0 uses br0's address instead of refusing.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from sbctune.lab.model import LabInfo
from sbctune.measure.route import find_path
from tests.lab_support import connect_to_lab, in_lab

pytestmark = [pytest.mark.lab]

# As a user bridges the Pi's NIC (NetworkManager or ifupdown do the same steps); STP stays off,
# the kernel's default for `ip link add type bridge` (net/bridge/br_device.c: br_dev_setup).
BRIDGE = (
    "set -e; mac=$(cat /sys/class/net/eth0/address); ip link add br0 type bridge; "
    "ip link set br0 address $mac; ip -o -4 addr show dev eth0 | while read -r _ _ _ a _; do "
    'ip addr del "$a" dev eth0; ip addr add "$a" dev br0; done; '
    "ip link set eth0 master br0; ip link set br0 up; echo bridged"
)


async def test_a_bridged_pi_is_tested_and_tuned_on_the_nic_under_the_bridge(
    lab_factory: Callable[..., LabInfo], tmp_path: Path
) -> None:
    lab = lab_factory("pi5-macb")
    assert in_lab(lab, BRIDGE).strip().endswith("bridged")
    async with await connect_to_lab(lab, tmp_path) as session:
        chosen = await find_path(session, None)
        over_eth0 = await find_path(session, "eth0")
    assert (chosen.route_dev, chosen.nic) == ("br0", "eth0")
    assert chosen.note == "eth0, under br0, carries your session: sbctune tests and tunes eth0."
    assert (over_eth0.pi_address, over_eth0.warning) == (lab.host, None)
    assert over_eth0.note is not None and f"br0's address {lab.host}" in over_eth0.note
