"""The lab's /sys/class/net/IFACE/speed and duplex as the kernel answers them (walk 25,
net/core/net-sysfs.c speed_show/duplex_show, 6.1 and 6.12): with a carrier the negotiated link;
up without a carrier the driver's reading (bcmgenet through phylib: SPEED_UNKNOWN "-1",
"unknown"), the same the lab's `ethtool eth0` shows; set down, EINVAL. Before, the lab bound two
plain files over them: "1000" and "full" in every state."""

from __future__ import annotations

import subprocess
import time
from typing import Any

import pytest

from sbctune.inventory.parsers.ethtool import parse_ethtool
from tests.lab_support import in_lab

pytestmark = [pytest.mark.lab]

READ = "cat /sys/class/net/eth0/speed /sys/class/net/eth0/duplex 2>&1"


def _host(*argv: str) -> None:
    subprocess.run(["ip", "link", "set", *argv], check=True, timeout=10)


def _wait(lab: Any, want: str) -> str:
    deadline = time.monotonic() + 10
    got = in_lab(lab, "cat /sys/class/net/eth0/carrier 2>&1").strip()
    while got != want and time.monotonic() < deadline:
        time.sleep(0.1)
        got = in_lab(lab, "cat /sys/class/net/eth0/carrier 2>&1").strip()
    return got


def test_speed_and_duplex_follow_the_link_as_the_kernel_reads_them(lab_factory: Any) -> None:
    lab = lab_factory("pi4-ax88179")
    eth0 = next(n for n in lab.nics if n.name == "eth0")  # bcmgenet, not the SSH NIC
    assert in_lab(lab, READ).split() == ["1000", "full"]
    _host(eth0.host_veth, "down")  # the cable out: the lab's eth0 loses its carrier
    try:
        assert _wait(lab, "0") == "0"
        assert in_lab(lab, READ).split() == ["-1", "unknown"]
        shown = parse_ethtool(in_lab(lab, "ethtool eth0"))[0]
        assert (shown.speed_mbps, shown.link_detected) == (None, False)
    finally:
        _host(eth0.host_veth, "up")
    assert _wait(lab, "1") == "1"
    assert in_lab(lab, READ).split() == ["1000", "full"]
    in_lab(lab, "ip link set eth0 down")
    said = in_lab(lab, READ)
    assert said.count("Invalid argument") == 2, said  # netif_running: false
    in_lab(lab, "ip link set eth0 up")
    assert _wait(lab, "1") == "1"
    assert in_lab(lab, READ).split() == ["1000", "full"]
