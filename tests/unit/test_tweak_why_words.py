"""A tweak's why names this Pi's NIC driver and cites only the published tests that fit its board
and bus (the s13 walk: a Pi 5 with macb was told about "the Pi's own bcmgenet" and a Pi 4 test)."""

from __future__ import annotations

from sbctune.inventory.model import Board, Inventory, Nic
from sbctune.tuning import catalog
from sbctune.tuning.why_words import why_for


def _inventory(board: str, nic: Nic) -> Inventory:
    inv = Inventory()
    inv.board = Board(model="a board", catalog_id=board)
    inv.nics = [nic]
    return inv


def test_pi5_macb_rps_why_names_macb_and_cites_no_pi4_test() -> None:
    nic = Nic("eth0", driver="macb", bus="platform", builtin=True, rx_queues=1)
    why, sources = why_for(catalog.tweak("rps-rfs"), _inventory("pi5", nic), nic)
    assert "eth0 runs the macb driver with one receive queue" in why
    assert "bcmgenet" not in why
    assert "Pi 4" not in why
    assert not [s for s in sources if "seed 000" in s]
    assert [s for s in sources if "scaling.rst" in s]


def test_pi4_usb_adapter_keeps_the_published_pi4_test() -> None:
    nic = Nic("eth1", driver="ax88179_178a", bus="usb")
    why, sources = why_for(catalog.tweak("rps-rfs"), _inventory("pi4b", nic), nic)
    assert "eth1 runs the ax88179_178a driver." in why
    assert "Raspberry PI 4B USB Network Performance" in why
    assert [s for s in sources if "seed 000" in s]


def test_pi4_builtin_nic_gets_no_usb_adapter_test() -> None:
    nic = Nic("eth0", driver="bcmgenet", bus="platform", builtin=True)
    why, sources = why_for(catalog.tweak("rps-rfs"), _inventory("pi4b", nic), nic)
    assert "bcmgenet" in why and "USB Network Performance" not in why
    assert not [s for s in sources if "seed 000" in s]


def test_no_nic_read_gives_the_general_why() -> None:
    tweak = catalog.tweak("rps-rfs")
    why, sources = why_for(tweak, None, None)
    assert why == tweak.why and sources == tweak.sources
