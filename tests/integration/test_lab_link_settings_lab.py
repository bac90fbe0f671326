"""The lab's ``ethtool IFACE`` and ``ethtool -s`` for real (issue 21, audit4a row 7): on the
Pi 3 B+ profile (lan78xx, no capture: the driver's facts) the link settings answer, a forced
speed bounces the link like the PHY and the link comes back at that speed, which Inspect then
reads; a refused speed changes no setting, but drops the link all the same (audit 44 row 5:
lan78xx_set_link_ksettings toggles BMCR_LOOPBACK after phylib's EINVAL on 6.1 and 6.12; the
profile names no kernel, where both agree). Before, both answered "ethtool: command not found".
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from sbctune.advice.inspect import inspect_host
from sbctune.inventory.parsers.ethtool import parse_ethtool
from sbctune.lab.model import LabInfo
from tests.lab_support import connect_to_lab, in_lab

pytestmark = [pytest.mark.lab]


def carrier_changes(lab: LabInfo) -> int:
    return int(in_lab(lab, "cat /sys/class/net/eth0/carrier_changes").strip())


def back_after(lab: LabInfo, bounces: int) -> int:
    """eth0's carrier_changes once the link dropped and came back (at most 15 s)."""
    deadline = time.monotonic() + 15
    while carrier_changes(lab) < bounces + 2 and time.monotonic() < deadline:
        time.sleep(0.2)
    return carrier_changes(lab)


async def test_ethtool_s_forces_the_speed_bounces_the_link_and_inspect_reads_it(
    lab_factory: Any, tmp_path: Path
) -> None:
    lab = lab_factory("pi3bplus-lan78xx")
    before = parse_ethtool(in_lab(lab, "ethtool eth0"))[0]
    assert (before.speed_mbps, before.duplex, before.link_detected) == (1000, "Full", True)
    assert "1000baseT/Full" in before.supported_link_modes
    assert "1000baseT/Half" not in before.supported_link_modes  # lan78xx_phy_init removes it
    start = carrier_changes(lab)
    refused = in_lab(lab, "ethtool -s eth0 speed 2500 duplex full autoneg off; echo rc=$?")
    assert "netlink error: Invalid argument" in refused and "rc=75" in refused
    # refused, and the link dropped all the same (the loopback toggle), then came back
    bounces = back_after(lab, start)
    assert bounces >= start + 2 and "Auto-negotiation: on" in in_lab(lab, "ethtool eth0")
    assert "rc=0" in in_lab(lab, "ethtool -s eth0 speed 100 duplex full autoneg off; echo rc=$?")
    # down and up: the PHY forced the speed; up again after the lab's drop (2.0 s by default,
    # the shortest real one: link_restart.json), never at once
    assert back_after(lab, bounces) >= bounces + 2
    after = parse_ethtool(in_lab(lab, "ethtool eth0"))[0]
    assert (after.speed_mbps, after.autoneg, after.link_detected) == (100, False, True)
    assert in_lab(lab, "cat /sys/class/net/eth0/speed").strip() == "100"
    async with await connect_to_lab(lab, tmp_path) as session:
        inventory, _ = await inspect_host(session)
    nic = inventory.nic("eth0")
    assert nic is not None and nic.link_speed_mbps == 100


async def test_igb_interrupts_follow_ethtool_L_in_the_lab(lab_factory: Any) -> None:
    """audit4b row 14: igb_reinit_queues frees the vectors and requests them for 2 queues."""
    lab = lab_factory("cm4-i340-igb")
    assert len(in_lab(lab, "grep -E ' eth1(-|$)' /proc/interrupts").splitlines()) == 9
    assert "rc=0" in in_lab(lab, "ethtool -L eth1 combined 2; echo rc=$?")
    lines = in_lab(lab, "grep -E ' eth1(-|$)' /proc/interrupts").splitlines()
    assert [line.split()[-1] for line in lines] == [
        "eth1", "eth1-rx-0", "eth1-rx-1", "eth1-tx-0", "eth1-tx-1"]  # fmt: skip
    assert len(in_lab(lab, "grep -E ' eth2(-|$)' /proc/interrupts").splitlines()) == 9
    # /proc/irq follows (audit4b row 14, closed in session 13): the freed vectors' folders are
    # gone, a new vector's is there and refuses as the CM4's PCIe MSI chip does
    folders = in_lab(lab, "ls /proc/irq").split()
    numbers = [line.split(":")[0].strip() for line in lines]
    assert set(numbers) <= set(folders)
    gone = sorted(set(range(46, 55)) - {int(n) for n in numbers})
    assert gone and not {str(n) for n in gone} & set(folders)
    assert "No such file" in in_lab(lab, f"cat /proc/irq/{gone[0]}/smp_affinity 2>&1")
    newest = numbers[-1]
    # coreutils' echo: dash's builtin reports any write error as "I/O error"
    written = in_lab(lab, f"/bin/echo 2 > /proc/irq/{newest}/smp_affinity; echo rc=$?")
    assert "Invalid argument" in written and "rc=1" in written


def test_threaded_napi_answers_as_the_drivers_kernel(lab_factory: Any) -> None:
    """audit4a row 5 (closed in session 13): lan78xx has NAPI from lan78xx_probe, so its kernel
    accepts /sys/class/net/eth0/threaded and reads it back; the veth the lab runs refused."""
    lab = lab_factory("pi3bplus-lan78xx")
    assert in_lab(lab, "cat /sys/class/net/eth0/threaded").strip() == "0"
    # coreutils' echo: dash's builtin reports any write error as "I/O error"
    written = in_lab(lab, "/bin/echo 1 > /sys/class/net/eth0/threaded; echo rc=$?")
    assert "rc=0" in written, written
    assert in_lab(lab, "cat /sys/class/net/eth0/threaded").strip() == "1"
    refused = in_lab(lab, "/bin/echo 2 > /sys/class/net/eth0/threaded; echo rc=$?")
    assert "Operation not supported" in refused and "rc=1" in refused
