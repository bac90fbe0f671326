"""Audit 32 in the lab (resources/tuning/driver_caps_audit32.md): what the lab's Pi 4 prints over
SSH, as a real Pi 4 on the same drivers would.

Row 1: bcmgenet's `ethtool -S` ends with its five rings' six counters (STAT_GENET_Q(0..4),
bcmgenet.c; 109 names). Row 2: `ethtool eth0` prints the GENET's PHY address, the `reg` of
bcm2711-rpi-4-b.dts' ethernet-phy@1. Row 3: `ip -d link` shows the imitated NICs without the
veth's peer, netns and kind (net/core/rtnetlink.c rtnl_fill_ifinfo). Each failed before."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from sbctune.lab import LabInfo
from tests.lab_support import raw_ssh

pytestmark = [pytest.mark.lab]


async def test_the_pi4_lab_prints_what_a_pi4_prints(lab_factory: Callable[..., LabInfo]) -> None:
    info = lab_factory("pi4-ax88179")  # eth0 bcmgenet, eth1 ax88179_178a
    async with raw_ssh(info) as conn:
        commands = ("ethtool -S eth0", "ethtool eth0", "ip -d link show eth1",
                    "ip -d -j link show eth0")  # fmt: skip
        runs = {cmd: await conn.run(cmd, check=False) for cmd in commands}
    stats = str(runs["ethtool -S eth0"].stdout).splitlines()[1:]
    names = [line.strip().rpartition(": ")[0] for line in stats]
    assert len(names) == 109 and names[-30] == "txq0_packets" and names[-1] == "rxq4_dropped"
    settings = str(runs["ethtool eth0"].stdout)
    assert "\tPort: MII\n\tPHYAD: 1\n\tTransceiver: external\n" in settings
    shown = str(runs["ip -d link show eth1"].stdout)
    assert shown.split(" <")[0].endswith(": eth1:"), shown
    assert "veth" not in shown and "link-netnsid" not in shown, shown
    assert "maxmtu 4088 addrgenmode " in shown  # ax88179's max_mtu, on the link/ether line
    (link,) = json.loads(str(runs["ip -d -j link show eth0"].stdout))
    assert not {"linkinfo", "link_index", "link_netnsid", "link"} & set(link), link
