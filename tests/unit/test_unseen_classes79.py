"""Classes that the seventy-ninth unseen set (handheld game devices and retro-gaming systems'
network devices; tests/captures/corpus/game79_*) showed misread. Every output here is one of
the corpus' bundles (named beside it, with its SOURCE.md); the corpus test checks whole
bundles."""

from __future__ import annotations

from sbctune.advice.inspect import inspect_bundle
from sbctune.inventory.parsers.glued_fence import unglue_fences
from tests.corpus_support import CORPUS, corpus_output, inventory_of

_RETROROLLER = "game79_rk3326_retroroller_183_rt5370_rt2800usb_firmware_missing_fenced"
_STEAMDECK = "game79_steamdeck_steamos_1119_rtw88_deep_power_mode_warning_modules_only"

# --- a Markdown fence typed on the output's first line ------------------------------------------


def test_fence_glued_to_the_first_lines_keeps_them() -> None:
    """ "```[ 2301.316735] usb 1-1.1: reset high-speed USB device ..." and "``` Bus 001 Device
    006: ID 148f:5370 ...": the lines are read, so the RT5370 stick has its IDs and its USB
    speed, and its wiphy's chip line joins it (no second, busless Wi-Fi NIC)."""
    inv = inspect_bundle(CORPUS / _RETROROLLER)
    (nic,) = inv.nics
    assert nic.bus_path == "1-1.1" and nic.ids == "148f:5370"
    assert nic.usb_speed_mbps == 480 and nic.driver == "rt2800usb"


def test_a_fence_with_its_language_alone_stays_a_fence() -> None:
    """An opening fence's info string ("```console") is no output line; a closing fence glued
    to the last line is taken off that line."""
    text = "```console\n[    1.0] r8152 2-1:1.0 eth1: carrier on```\n```"
    assert unglue_fences(text) == "```console\n[    1.0] r8152 2-1:1.0 eth1: carrier on\n```"


# --- the IDs' product beside a revision register's family --------------------------------------


def test_ids_name_the_product_a_mac_register_shares() -> None:
    """rt2x00's "RT chipset 5390" is MAC_CSR0's chipset field, the RT5370's too: the stick's
    IDs (148f:5370, usb.ids "RT5370 Wireless Adapter") name it."""
    (nic,) = inspect_bundle(CORPUS / _RETROROLLER).nics
    assert "RT5370" in (nic.chip or "")


def test_a_register_chip_the_ids_do_not_contradict_stays() -> None:
    """A wiphy line whose chip the IDs' name does not name another member of: the line's chip
    (RT3070 on an ID usb.ids names by vendor alone)."""
    dmesg = (
        "[    5.100000] usb 1-1: new high-speed USB device number 2 using dwc2\n"
        "[    5.200000] usb 1-1: New USB device found, idVendor=148f, idProduct=3070\n"
        "[    5.900000] ieee80211 phy0: rt2x00_set_rt: Info - RT chipset 3070, rev 0201 detected\n"
    )
    (nic,) = inventory_of({"dmesg": dmesg}).nics
    assert "RT3070" in (nic.chip or "")


# --- a trace in a directory many drivers share, and the modules then loaded ---------------------


def test_modules_linked_in_choose_the_directorys_driver() -> None:
    """A Steam Deck's rtw88 WARNING in ps.c (rtw88_core, a dozen drivers' shared code): of the
    loaded modules (print_modules()), rtw88_8822ce alone is a device driver of that directory,
    so the NIC is rtw_8822ce's, on PCI, Wi-Fi."""
    (nic,) = inspect_bundle(CORPUS / _STEAMDECK).nics
    assert nic.driver == "rtw_8822ce" and nic.bus == "pci" and nic.wireless is True


def test_two_drivers_of_the_directory_loaded_name_none() -> None:
    """The same lines with rtw88_8821ce loaded too: which device the code ran for is not said,
    so no driver is claimed."""
    text = corpus_output(_STEAMDECK).replace(" rtw88_8822ce ", " rtw88_8822ce rtw88_8821ce ")
    inv = inventory_of({"dmesg": text})
    assert all(n.driver is None for n in inv.nics)
