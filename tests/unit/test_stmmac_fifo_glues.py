"""stmmac's TX FIFO where the glue driver sets it (audit 6b row 11's 'left', session 15):
dwmac-sun8i (sun8i_dwmac_probe) and dwmac-sunxi (sun7i_gmac_probe) write
plat_dat->tx_fifo_size = 4096, so stmmac_change_mtu refuses an MTU whose
ALIGN(ALIGN(mtu, 64), 16) exceeds 4096 on the Allwinner H3/H5-era, A64, H6 and A20 boards
(Orange Pi, NanoPi, Pine64, Banana Pi). On the A20 ip -d link still shows maxmtu 9000; the
dwmac-sun8i EMACs' max_mtu is lower than their FIFO (audit 8b row 2: SKB_MAX_HEAD, 3710/3774)."""

from __future__ import annotations

import dataclasses

import pytest

from sbctune.inventory.model import Board, Inventory, Nic
from sbctune.lab import ip_front, ip_model, load_profile
from sbctune.tuning import catalog, driver_caps
from sbctune.tuning.kinds import PLANNERS, Context
from sbctune.tuning.probe import Facts, Read


@pytest.mark.parametrize(
    ("chip", "kernel", "mtu", "refused"),
    [
        ("allwinner,sun8i-h3-emac", "6.1", 4096, False),
        ("allwinner,sun8i-h3-emac", "6.1", 4097, True),  # ALIGN(4097, 64) = 4160
        ("allwinner,sun50i-a64-emac", "6.12", 9000, True),
        ("allwinner,sun50i-h6-emac", "6.12", 9000, True),
        ("allwinner,sun7i-a20-gmac", "6.12", 9000, True),
        ("allwinner,sun7i-a20-gmac", "6.1", 4000, False),
    ],
)
def test_allwinner_emacs_refuse_an_mtu_above_their_4k_tx_fifo(
    chip: str, kernel: str, mtu: int, refused: bool
) -> None:
    caps = driver_caps.caps("stmmac", kernel, chip)
    assert caps is not None
    assert (driver_caps.mtu_fifo_refused(caps, chip, mtu) is not None) is refused
    found = Facts("eth0")
    found.knobs["/sys/class/net/eth0/mtu"] = Read(True, "1500")
    tweak = catalog.tweak("mtu-jumbo")
    nic = Nic("eth0", driver="stmmac", chip=chip)
    inventory = Inventory(board=Board(kernel=f"{kernel}.0-arm64"), nics=[nic])
    options = {"path_supports_jumbo": True, "mtu": mtu}
    item = PLANNERS[tweak.kind](Context(tweak, found, inventory, nic, options, {}, ("mtu-jumbo",)))
    top = caps.mtu_max(chip) or 0
    if mtu > top:  # audit 8b row 2: the Allwinner EMAC's max_mtu (SKB_MAX_HEAD) refuses first
        assert f"allows an MTU of at most {top}" in item.reason, item.reason  # the chip's, cited
    else:
        assert ("transmit FIFO holds 4096 bytes" in item.reason) is refused, item.reason
    if refused:
        assert not item.applicable and not item.needs_link_consent
    base = load_profile("pi4-ax88179")
    spec = next(s for s in base.interfaces if s.driver)
    profile = dataclasses.replace(
        base, interfaces=(dataclasses.replace(spec, driver="stmmac", chip=chip),)
    )
    limit = ip_front.limits(profile)[spec.name]
    said = ip_model.refusal({"eth0": limit}, "eth0", mtu)
    if mtu > top:  # dev_validate_mtu's extack, before stmmac_change_mtu's FIFO check
        assert said == "Error: mtu greater than device maximum.\n"
    else:
        assert (said == "RTNETLINK answers: Invalid argument\n") is refused
