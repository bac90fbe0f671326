"""Audit 22 row 3 in the lab (resources/tuning/driver_caps_audit22.md): with its cable out an
r8152 reads 10 Mb/s half duplex (rtl8152_get_link_ksettings -> mii_ethtool_get_link_ksettings,
drivers/net/mii.c: no partner, nothing in common, SPEED_10). The lab's `ethtool eth1` on a Pi 4
with an RTL8153 whose veth lost its carrier says so; before, it printed "Unknown!" as phylib
does. The carrier comes back after: the lab's own link, nothing outside its namespace."""

from __future__ import annotations

import subprocess
from typing import Any

import pytest

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
