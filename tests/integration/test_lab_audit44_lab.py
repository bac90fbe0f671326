"""Audit 44 row 1 in the lab (resources/tuning/driver_caps_audit44.md): an MTU above 1500 on an
r8169 renegotiates the link (rtl8169_change_mtu -> rtl_jumbo_config -> phy_start_aneg, pause
still advertised from boot). The interface stays up and only its carrier drops, so while the
link is away `ip link` shows UP and NO-CARRIER and `ethtool eth1` answers ("Link detected: no")
where before the lab set the interface down: no UP flag, and r8169's get_link_ksettings
(phy_ethtool_get_link_ksettings) "No such device" as after rtl8169_close. The profile holds the
link down for 10 s, so the reads fall inside the drop on a busy machine too."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.lab_profiles import profile_copy
from tests.lab_support import in_lab

pytestmark = [pytest.mark.lab]


def _carrier_back(lab: Any) -> bool:
    for _ in range(60):  # by count: at most 60 polls of the lab's sysfs, a second apart
        if in_lab(lab, "cat /sys/class/net/eth1/carrier 2>/dev/null").strip() == "1":
            return True
        subprocess.run(["sleep", "1"], check=False, timeout=10)
    return False


def test_a_renegotiating_mtu_change_keeps_the_interface_up(
    lab_factory: Any, tmp_path: Path
) -> None:
    profile = profile_copy(
        tmp_path, "cm4-rtl8125b-r8169", "cm4-r8169-slow-link",
        replace=[("[lab]\n", "[lab]\nlink_down_seconds = 10\n")],
    )  # fmt: skip
    lab = lab_factory(profile=str(profile))
    text = in_lab(lab, "ip link set dev eth1 mtu 9000 && ip -o link show dev eth1; ethtool eth1")
    flags = text.split("<", 1)[1].split(">", 1)[0].split(",")
    assert "UP" in flags and "NO-CARRIER" in flags, text  # before: no UP flag
    assert "Link detected: no" in text and "No such device" not in text, text
    assert _carrier_back(lab), in_lab(lab, "ip -o link show dev eth1")
    up = in_lab(lab, "ip -o link show dev eth1; ethtool eth1")
    assert "LOWER_UP" in up and "Link detected: yes" in up, up
