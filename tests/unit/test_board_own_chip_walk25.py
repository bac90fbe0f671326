"""Walk 25: Inspect of the cm4-i340-igb lab (a real CM4 Rev 1.1 /proc/cpuinfo, `ethtool -i
eth0` answering bcmgenet with no bus-info) showed "eth0 · built-in, Chip: unknown" right under
the board's "SoC's Ethernet: Broadcom GENET". The board's own MAC is named on the built-in NIC
its driver runs; an adapter, or a NIC some line already named, keeps its own."""

from __future__ import annotations

from pathlib import Path

from sbctune.catalog import load_catalog
from sbctune.inventory.board_own_chip import name_board_own_chip
from sbctune.inventory.bundle import Bundle
from sbctune.inventory.inspect import identify, raw_from_bundle
from sbctune.inventory.model import Inventory, Nic

CM4 = Path(__file__).resolve().parents[1] / "captures" / "cpuinfo" / "cm4_rev11_adafruit_241.txt"


def _cm4_with(*nics: Nic) -> Inventory:
    bundle = Bundle(source=Path("."), host="cm4", created="",
                    files={"/proc/cpuinfo": CM4.read_text(encoding="utf-8")})  # fmt: skip
    inventory = identify(raw_from_bundle(bundle))[0]
    assert inventory.board.model == "Raspberry Pi Compute Module 4 Rev 1.1"
    inventory.nics = list(nics)
    return inventory


def test_the_cm4s_bcmgenet_is_its_genet() -> None:
    eth0 = Nic("eth0", driver="bcmgenet", bus="platform", builtin=True)
    inventory = _cm4_with(eth0)
    name_board_own_chip(inventory, load_catalog())
    assert eth0.chip == "Broadcom GENET" == inventory.board.soc_nic
    assert any("board's own Broadcom GENET" in e for e in eth0.evidence)


def test_an_adapter_or_a_named_chip_is_left_alone() -> None:
    usb = Nic("eth1", driver="r8152", bus="usb", builtin=False)
    named = Nic("eth0", driver="bcmgenet", bus="platform", builtin=True, chip="Some GENET")
    inventory = _cm4_with(usb, named)
    name_board_own_chip(inventory, load_catalog())
    assert usb.chip is None and named.chip == "Some GENET"
