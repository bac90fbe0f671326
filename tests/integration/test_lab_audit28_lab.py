"""Audit 28 over SSH (resources/tuning/driver_caps_audit28.md row 2): a Pi 3 B+ on a 5.10
kernel. 5.10's lan78xx_change_mtu refuses (EDOM) an MTU whose mtu + hard_header_len (ETH_HLEN
plus lan78xx_bind's TX_OVERHEAD: 22) is a whole number of 512-byte USB 2.0 packets, until
0dd87266c133 (5.17) made it mtu + 18: on 5.10 MTU 1514 is refused and 1518 taken, the other way
round from 6.1. The lab's ip and the planner, reading the lab over SSH, say the same.
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


async def test_a_pi3bplus_on_510_refuses_mtu_1514_and_takes_1518(
    lab_factory: Callable[..., LabInfo], tmp_path: Path
) -> None:
    copy = profile_copy(tmp_path, "pi3bplus-lan78xx", "pi3bp-510", kernel="5.10.0-23-arm64")
    lab = lab_factory(str(copy))
    try:
        refused = in_lab(lab, "ip link set dev eth0 mtu 1514; echo exit=$?")
        assert "Numerical argument out of domain" in refused and "exit=0" not in refused
        taken = in_lab(lab, "ip link set dev eth0 mtu 1518; echo exit=$?")
        assert taken.strip().endswith("exit=0"), taken
    finally:
        in_lab(lab, "ip link set dev eth0 mtu 1500")
    async with await connect_to_lab(lab, tmp_path) as session:
        inventory, _ = await inspect_host(session)
        options = {"path_supports_jumbo": True, "mtu": 1514}
        item = (await plan(session, inventory, "eth0", ["mtu-jumbo"], options)).item("mtu-jumbo")
    assert item is not None and not item.applicable
    assert "EDOM" in item.reason and "lan78xx_change_mtu" in item.reason, item.reason
