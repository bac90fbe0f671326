"""stmmac as a real board names it (issue 21, driver_caps_audit7b.md row 9).

No stmmac NIC is ever named "stmmac": /sys/class/net/IFACE/device/driver is the glue's platform
(or PCI) driver ("rk_gmac-dwmac" on Rockchip, "meson8b-dwmac" on Amlogic, "dwmac-sun8i" on
Allwinner, "stmmaceth" for dwmac-generic and stmmac_pci), and ``ethtool -i`` says what
stmmac_ethtool_getdrvinfo writes: "st_gmac" (GMAC 3.x and 4.x), "st_xgmac" or "st_mac100" (a real
capture: tests/captures/ethtool_i/k1max_creality_k1debian_1_st_gmac_ethtool_i_no_bus_info.txt).
The inventory takes those names, so the table answered None for every real stmmac board: no
ring limits, and a ring change (stmmac_reinit_ringparam: close and reopen) planned on the SSH NIC
without the user's consent.
"""

from __future__ import annotations

import json

import pytest

from sbctune.inventory.model import Board, Inventory, Nic
from sbctune.tuning import catalog, driver_caps
from sbctune.tuning.kinds import PLANNERS, Context
from sbctune.tuning.probe import Facts
from tests.plan_one import pi_answer

RINGS = """Ring parameters for eth0:
Pre-set maximums:
RX:		1024
RX Mini:	n/a
RX Jumbo:	n/a
TX:		1024
Current hardware settings:
RX:		512
RX Mini:	n/a
RX Jumbo:	n/a
TX:		512
"""  # the layout of ethtool 6.1's -g (tests/captures/ethtool_g), stmmac's DMA_MAX/DEFAULT sizes


@pytest.mark.parametrize(
    "name", ["st_gmac", "st_xgmac", "st_mac100", "rk_gmac-dwmac", "meson8b-dwmac", "dwmac-sun8i",
             "stmmaceth"],
)  # fmt: skip
def test_every_name_a_board_shows_is_stmmac(name: str) -> None:
    caps = driver_caps.caps(name, "6.1.0-rpi", "RK3568")
    assert caps is not None and caps.driver == "stmmac"
    assert caps.restarts("rings")


def test_a_ring_change_on_a_real_boards_ssh_nic_needs_consent() -> None:
    found = Facts("eth0")
    found.steps["ethtool -g"] = pi_answer("ethtool -g", RINGS)
    route = json.dumps([{"dst": "198.18.0.1", "dev": "eth0"}])  # ip -j route get's keys
    found.steps["ssh-route"] = pi_answer("ssh-route", route)
    nic = Nic("eth0", driver="rk_gmac-dwmac")
    tweak = catalog.tweak("nic-rings")
    inventory = Inventory(board=Board(kernel="6.1.0-rockchip64"), nics=[nic])
    item = PLANNERS[tweak.kind](Context(tweak, found, inventory, nic, {}, {}, ("nic-rings",)))
    assert not item.applicable and item.needs_link_consent


def test_a_name_of_no_driver_is_still_unknown() -> None:
    assert driver_caps.caps("no-such-dwmac", "6.1") is None
