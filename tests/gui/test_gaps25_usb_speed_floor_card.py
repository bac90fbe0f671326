"""gaps25: a USB device on a SuperSpeed bus of plain lsusb (root hub 1d6b:0003) is shown on
Inspect's card with its speed as a floor, "5000 Mbit/s or more", not as the speed it runs at
(a USB 3.1 Gen 2 host's bus has the same root hub). Real paste: corpus wwan34_omr_4030_*."""

from __future__ import annotations

from sbctune.ui.widgets.inventory_cards import bus_text
from tests.corpus_support import corpus_output, inventory_of


def test_the_card_says_the_superspeed_buss_speed_is_a_floor() -> None:
    bundle = "wwan34_omr_4030_rm520n_gl_lsusb_superspeed_bus_via_hub_lsmod_grep"
    (nic,) = inventory_of({"lsusb": corpus_output(bundle, "000-lsusb")}).nics
    assert bus_text(nic) == "USB 5000 Mbit/s or more (USB 3)"
