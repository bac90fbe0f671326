"""A ring change that restarts the interface (macb_set_ringparam closes and reopens it) on the
Pi 5 profile: held back on the NIC that carries the SSH session, applied with the user's consent
under the guard, the link bouncing for real in the lab (once: both rings in one command), and
reverted.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sbctune.advice.inspect import inspect_host
from sbctune.lab.model import LabInfo
from sbctune.tuning import apply, plan, revert
from tests.lab_support import connect_to_lab, forget_session, in_lab

pytestmark = [pytest.mark.lab]


def carrier_changes(lab: LabInfo) -> int:
    return int(in_lab(lab, "cat /sys/class/net/eth0/carrier_changes").strip())


async def test_macb_rings_on_the_ssh_nic_need_consent_and_bounce_the_link(
    lab_factory: Any, tmp_path: Path
) -> None:
    lab = lab_factory("pi5-macb")
    assert "RX:\t\t512" in in_lab(lab, "ethtool -g eth0")
    async with await connect_to_lab(lab, tmp_path) as session:
        inventory, _ = await inspect_host(session)
        held = (await plan(session, inventory, "eth0", ["nic-rings"])).item("nic-rings")
        assert held is not None and not held.applicable
        assert "restarts the interface" in held.reason and held.needs_link_consent
        agreed = await plan(session, inventory, "eth0", ["nic-rings"], {"allow_link_restart": True})
        item = agreed.item("nic-rings")
        assert item is not None and item.applicable and item.restarts_link
        bounces = carrier_changes(lab)
        applied = await apply(session, agreed, guard_seconds=60,
                              reconnect=lambda: connect_to_lab(lab, tmp_path))  # fmt: skip
        try:
            outcome = applied.outcome("nic-rings")
            assert outcome is not None and outcome.status == "applied", outcome
            assert applied.reachable  # the guard's new SSH connection came through the bounce
            # down and up ONCE: rx and tx went in one `ethtool -G` (one macb_set_ringparam);
            # two commands made it 4 (two restarts, audit 11b)
            assert carrier_changes(lab) == bounces + 2
            assert item.commands == ["ethtool -G eth0 rx 8192 tx 4096"], item.commands
            assert "RX:\t\t8192" in in_lab(lab, "ethtool -g eth0").split("Current")[1]
            assert await revert(session) == [applied.id]
            assert carrier_changes(lab) == bounces + 4  # revert.sh: one command, one bounce
        finally:
            forget_session(applied.id)
    shown = in_lab(lab, "ethtool -g eth0").split("Current")[1]
    assert "RX:\t\t512" in shown


async def test_igb_rings_restart_the_port_once(lab_factory: Any, tmp_path: Path) -> None:
    """igb_set_ringparam closes and reopens a running port (igb_down/igb_up): the CM4's I340
    port (not the SSH NIC) gets rx and tx in one `ethtool -G`, so its link drops once, and
    once again when reverted."""
    lab = lab_factory("cm4-i340-igb")

    def bounces() -> int:
        return int(in_lab(lab, "cat /sys/class/net/eth1/carrier_changes").strip())

    async with await connect_to_lab(lab, tmp_path) as session:
        inventory, _ = await inspect_host(session)
        the_plan = await plan(session, inventory, "eth1", ["nic-rings"])
        item = the_plan.item("nic-rings")
        assert item is not None and item.applicable and item.restarts_link, item
        (command,) = item.commands  # one `ethtool -G eth1 rx N tx M`
        assert " rx " in command and " tx " in command, command
        before = bounces()
        applied = await apply(session, the_plan, guard_seconds=60,
                              reconnect=lambda: connect_to_lab(lab, tmp_path))  # fmt: skip
        try:
            outcome = applied.outcome("nic-rings")
            assert outcome is not None and outcome.status == "applied", outcome
            assert bounces() == before + 2  # down and up once (two commands: 4)
            assert await revert(session) == [applied.id]
            assert bounces() == before + 4
        finally:
            forget_session(applied.id)
