"""Audit 22 rows 3 and 5 in the lab (resources/tuning/driver_caps_audit22.md): with its cable out an
r8152 reads 10 Mb/s half duplex (rtl8152_get_link_ksettings -> mii_ethtool_get_link_ksettings,
drivers/net/mii.c: no partner, nothing in common, SPEED_10). The lab's `ethtool eth1` on a Pi 4
with an RTL8153 whose veth lost its carrier says so; before, it printed "Unknown!" as phylib
does. The carrier comes back after: the lab's own link, nothing outside its namespace."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.lab_profiles import profile_copy

pytestmark = [pytest.mark.lab]


def _ethtool_in_lab(lab: Any, ifname: str) -> str:
    pid = str(lab.pids["sshd"])  # the lab's mount namespace holds its ethtool, its netns the NIC
    done = subprocess.run(["nsenter", "-t", pid, "-m", "-n", "ethtool", ifname],
                          capture_output=True, text=True, check=False, timeout=30)  # fmt: skip
    return done.stdout


def _shown(text: str, key: str) -> str:
    return text.split(f"{key}: ")[1].split("\n")[0].strip()


def test_an_r8152_without_carrier_shows_10_mbit_half(lab_factory: Any) -> None:
    lab = lab_factory(profile="pi4-rtl8153")
    host_end = lab.nic("eth1").host_veth
    subprocess.run(["ip", "link", "set", host_end, "down"], check=True, timeout=10)
    try:
        text = _ethtool_in_lab(lab, "eth1")
        assert _shown(text, "Link detected") == "no", text
        assert (_shown(text, "Speed"), _shown(text, "Duplex")) == ("10Mb/s", "Half"), text
    finally:
        subprocess.run(["ip", "link", "set", host_end, "up"], check=True, timeout=10)
    up = _ethtool_in_lab(lab, "eth1")
    assert _shown(up, "Link detected") == "yes" and _shown(up, "Speed") != "10Mb/s", up


def test_a_lan78xx_set_down_on_61_shows_its_last_link(lab_factory: Any, tmp_path: Path) -> None:
    """Audit 22 row 5: `ip link set eth0 down` on a Pi 3B+ running Debian's 6.1 stops the PHY
    (lan78xx_stop -> phy_stop); 6.1's PHY_HALTED keeps the last link's speed and duplex, so
    ethtool shows them beside "Link detected: no". Before, the lab printed "Unknown!"."""
    profile = profile_copy(tmp_path, "pi3bplus-lan78xx", "pi3", kernel="6.1.0-27-arm64")
    lab = lab_factory(profile=str(profile))
    before = _ethtool_in_lab(lab, "eth0")
    pid = str(lab.pids["sshd"])
    subprocess.run(["nsenter", "-t", pid, "-n", "ip", "link", "set", "eth0", "down"],
                   check=True, timeout=10)  # fmt: skip
    try:
        text = _ethtool_in_lab(lab, "eth0")
        assert _shown(text, "Link detected") == "no", text
        assert _shown(text, "Speed") == _shown(before, "Speed") != "Unknown!", text
        assert _shown(text, "Duplex") == _shown(before, "Duplex"), text
    finally:
        subprocess.run(["nsenter", "-t", pid, "-n", "ip", "link", "set", "eth0", "up"],
                       check=True, timeout=10)  # fmt: skip
