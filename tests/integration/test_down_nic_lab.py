"""A NIC that is administratively down, in the lab (audit 18, driver_caps_audit18.md rows 1 and
3): the CM4's I340 port eth2 (igb, not the SSH NIC) taken down with `ip link set eth2 down`.

igb_set_ringparam keeps the ring sizes of a down interface for its next open and
igb_reinit_queues closes and opens only a running one (`if (netif_running(netdev))`): the
plan no longer announces a link drop, and the lab's ethtool stores the change without
bringing the port up (it ran `ip link set down; up` whatever the state). Fails before.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sbctune.advice.inspect import inspect_host
from sbctune.lab.model import LabInfo
from sbctune.tuning import plan
from tests.lab_support import connect_to_lab, in_lab

pytestmark = [pytest.mark.lab]


def _up(lab: LabInfo, iface: str) -> bool:
    return bool(int(in_lab(lab, f"cat /sys/class/net/{iface}/flags").strip(), 16) & 0x1)


def _carrier_changes(lab: LabInfo, iface: str) -> int:
    return int(in_lab(lab, f"cat /sys/class/net/{iface}/carrier_changes").strip())


async def test_a_down_igb_port_is_planned_and_changed_as_down(
    lab_factory: Any, tmp_path: Path
) -> None:
    lab = lab_factory("cm4-i340-igb")
    in_lab(lab, "ip link set dev eth2 down")
    assert not _up(lab, "eth2")
    async with await connect_to_lab(lab, tmp_path) as session:
        inventory, _ = await inspect_host(session)
        down = (await plan(session, inventory, "eth2", ["nic-rings"])).item("nic-rings")
        assert down is not None and down.applicable, down
        assert not down.restarts_link and not down.needs_link_consent
        assert "link drops briefly" not in down.reason
        assert "eth2 is down, so igb keeps it for the next open" in down.reason
        # what the plan would run, run by hand: the port stays down and keeps the sizes
        bounces = _carrier_changes(lab, "eth2")
        (command,) = down.commands
        out = in_lab(lab, f"{command}; echo rc=$?")
        assert out.strip().endswith("rc=0"), out
        assert in_lab(lab, "ethtool -L eth2 combined 2; echo rc=$?").strip().endswith("rc=0")
        assert not _up(lab, "eth2")  # no `ip link set eth2 up` behind the user's back
        assert _carrier_changes(lab, "eth2") == bounces
        current = in_lab(lab, "ethtool -g eth2").split("Current")[1]
        assert "RX:\t\t4096" in current, current
        # brought up, the same tweak restarts the port again
        in_lab(lab, "ip link set dev eth2 up")
        assert _up(lab, "eth2")
        again = (await plan(session, inventory, "eth2", ["nic-rings"])).item("nic-rings")
        assert again is not None
        assert "eth2 is down" not in again.reason
