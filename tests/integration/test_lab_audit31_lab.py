"""Audit 31 over SSH (resources/tuning/driver_caps_audit31.md rows 2 and 3): the lab's Pi and
the planner reading it answer as a kernel after 6.12 does.

- A Pi 3 B+ on rpi-6.18.y: lan78xx's pause is phylink's from 6.17 (e110bc825897), whose
  request at start is autonegotiation alone, so `ethtool -a eth0` shows RX and TX off (6.12's
  lan78xx_phy_init asked for both). The PHY still advertises Pause and Asym_Pause
  (phylink_bringup_phy), so the link resolves pause on: "RX negotiated: on", and (audit 35 row 5)
  the flow-control tweak is "not needed here" rather than a renegotiation for nothing.
- A Pi 5 on Debian's 7.2: mainline's RP1 (dc110d1b2356, 6.18) has no interrupt coalescing, so
  `ethtool -c eth0` answers "Operation not supported" and the coalescing tweak is not planned.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from sbctune.advice.inspect import inspect_host
from sbctune.lab.model import LabInfo
from sbctune.tuning import plan
from tests.lab_profiles import profile_copy
from tests.lab_support import connect_to_lab, in_lab

pytestmark = [pytest.mark.lab]


async def test_a_pi3bplus_on_rpi_618_shows_pause_requested_off_but_negotiated_on(
    lab_factory: Callable[..., LabInfo], tmp_path: Path
) -> None:
    copy = profile_copy(tmp_path, "pi3bplus-lan78xx", "pi3bp-618", kernel="6.18.3+rpt-rpi-v8")
    lab = lab_factory(str(copy))
    shown = in_lab(lab, "ethtool -a eth0")
    lines = {
        k.strip(): v.strip() for k, _, v in (line.partition(":") for line in shown.splitlines())
    }
    assert (lines.get("Autonegotiate"), lines.get("RX"), lines.get("TX")) == ("on", "off", "off")
    assert (lines.get("RX negotiated"), lines.get("TX negotiated")) == ("on", "on"), shown
    async with await connect_to_lab(lab, tmp_path) as session:
        inventory, _ = await inspect_host(session)
        # the new advertisement renegotiates (phy_set_asym_pause): eth0 carries the session
        options = {"allow_link_restart": True}
        planned = await plan(session, inventory, "eth0", ["flow-control"], options)
    item = planned.item("flow-control")
    assert item is not None and not item.applicable and item.not_needed, item and item.reason
    assert "in force already" in item.reason and "RX negotiated on" in item.reason, item.reason
    assert not item.changes, item.changes


async def test_a_pi5_on_debian_72_has_no_coalescing_to_plan(
    lab_factory: Callable[..., LabInfo], tmp_path: Path
) -> None:
    copy = profile_copy(tmp_path, "pi5-macb", "pi5-72", kernel="7.2.0-1-arm64")
    lab = lab_factory(str(copy))
    answer = in_lab(lab, "ethtool -c eth0; echo exit=$?")
    assert "Operation not supported" in answer and "exit=0" not in answer, answer
    async with await connect_to_lab(lab, tmp_path) as session:
        inventory, _ = await inspect_host(session)
        item = (await plan(session, inventory, "eth0", ["irq-coalescing"], {})).item(
            "irq-coalescing"
        )
    assert item is not None and not item.applicable
    assert "no set_coalesce" in item.reason, item.reason
