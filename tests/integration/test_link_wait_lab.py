"""Audit 19 (resources/tuning/driver_caps_audit19.md): a change that drops the link is read back,
and the next step starts, only once the link is back.

A Pi 3 B+ on 6.12: lan78xx_set_eee goes through phy_ethtool_set_eee, which restarts
autonegotiation when EEE is turned off (driver_caps.json restarts_on eee, a renegotiation). The
lab holds such a link down for 2.5 s ([lab] link_down_seconds; a Pi 4 was seen down 2.0 to 3.1 s,
resources/tuning/link_restart.json). Before, apply read the value back and went on at once, and
`tune revert` returned with the link still down: the next measurement would start on no link.
Where the NIC is the one SSH runs over, the Pi's answer itself waits for the link; on a test
NIC that is not (the CM4's I340 port, igb: igb_set_ringparam's igb_down/igb_up, a `reset`),
only the wait keeps `tune revert` from returning on a link that is down.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from sbctune.advice.inspect import inspect_host
from sbctune.lab.model import LabInfo
from sbctune.tuning import apply, plan, revert
from tests.lab_profiles import profile_copy
from tests.lab_support import connect_to_lab, forget_session, in_lab

pytestmark = [pytest.mark.lab]

DOWN_SECONDS = 2.5
BACK = re.compile(r"the link of eth0 dropped and came back within (\d+(?:\.\d)?) s")


def said_ahead(said: list[str], nic: str) -> None:
    """Revert said the wait before it (walk 22: silent until the link was back), as apply does."""
    ahead = next(i for i, s in enumerate(said) if f"the link of {nic} drops for about" in s)
    back = next(i for i, s in enumerate(said) if f"the link of {nic} dropped and came back" in s)
    assert ahead < back and "waiting for it to come back" in said[ahead], said


def carrier(lab: LabInfo, nic: str = "eth0") -> str:
    return in_lab(lab, f"cat /sys/class/net/{nic}/carrier 2>/dev/null || echo 0").strip()


async def test_eee_off_is_read_back_and_reverted_once_the_link_is_back(
    lab_factory: Callable[..., LabInfo], tmp_path: Path
) -> None:
    profile = profile_copy(
        tmp_path, "pi3bplus-lan78xx", "pi3bplus-612-slow-link", kernel="6.12.47+rpt-rpi-v8",
        replace=[("[lab]\n", f"[lab]\nlink_down_seconds = {DOWN_SECONDS}\n")],
    )  # fmt: skip
    lab = lab_factory(str(profile))
    async with await connect_to_lab(lab, tmp_path) as session:
        inventory, _ = await inspect_host(session)
        agreed = await plan(session, inventory, "eth0", ["eee-off"], {"allow_link_restart": True})
        item = agreed.item("eee-off")
        assert item is not None and item.applicable and item.restarts_link, item
        said: list[str] = []
        applied = await apply(session, agreed, guard_seconds=60, on_event=said.append,
                              reconnect=lambda: connect_to_lab(lab, tmp_path))  # fmt: skip
        try:
            outcome = applied.outcome("eee-off")
            assert outcome is not None and outcome.status == "applied", outcome
            assert any("waiting for it to come back" in s for s in said), said
            found = [m for s in said if (m := BACK.search(s))]
            assert found, said
            # the wait lasted as long as the lab held the link down (never less than most of it)
            assert float(found[0].group(1)) >= DOWN_SECONDS - 0.5, said
            # said before the tweak's verdict: the value was read back after the link came back
            link_at = next(i for i, s in enumerate(said) if BACK.search(s))
            verdict_at = next(i for i, s in enumerate(said) if s.endswith(": applied"))
            assert link_at < verdict_at, said
            assert carrier(lab) == "1"
            reverted: list[str] = []
            assert await revert(session, on_event=reverted.append) == [applied.id]
            # revert.sh turned EEE on again (another renegotiation) and waited for the link
            assert carrier(lab) == "1", reverted
            assert any(BACK.search(s) for s in reverted), reverted
            said_ahead(reverted, "eth0")
        finally:
            forget_session(applied.id)


async def test_a_ring_change_on_a_port_ssh_does_not_use_is_waited_for_both_ways(
    lab_factory: Callable[..., LabInfo], tmp_path: Path
) -> None:
    held = 6  # longer than revert.sh's own last steps take in the lab
    profile = profile_copy(
        tmp_path, "cm4-i340-igb", "cm4-igb-slow-link",
        replace=[("[lab]\n", f"[lab]\nlink_down_seconds = {held}\n")],
    )  # fmt: skip
    lab = lab_factory(str(profile))
    async with await connect_to_lab(lab, tmp_path) as session:
        inventory, _ = await inspect_host(session)
        the_plan = await plan(session, inventory, "eth1", ["nic-rings"])
        item = the_plan.item("nic-rings")
        assert item is not None and item.applicable and item.restarts_link, item
        said: list[str] = []
        applied = await apply(session, the_plan, guard_seconds=60, on_event=said.append,
                              reconnect=lambda: connect_to_lab(lab, tmp_path))  # fmt: skip
        try:
            outcome = applied.outcome("nic-rings")
            assert outcome is not None and outcome.status == "applied", outcome
            found = [m for s in said if (m := BACK.search(s.replace("eth1", "eth0")))]
            assert found and float(found[0].group(1)) >= held - 0.5, said
            assert carrier(lab, "eth1") == "1", said  # the measurement after starts on a link
            reverted: list[str] = []
            assert await revert(session, on_event=reverted.append) == [applied.id]
            assert carrier(lab, "eth1") == "1", reverted  # before: 0, for `held` s more
            assert any("the link of eth1 dropped and came back" in s for s in reverted), reverted
            said_ahead(reverted, "eth1")
        finally:
            forget_session(applied.id)
