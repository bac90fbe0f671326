"""Classes that the twenty-ninth unseen set (network devices that are not wired Ethernet: USB,
SDIO and PCIe Wi-Fi, cellular modems, on routers, PCs and SBCs; tests/captures/corpus) showed
misread. Every output here is one of those bundles' (named beside it, with its SOURCE.md), or a
line of one changed to show what must NOT be read; the corpus test checks whole bundles."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from sbctune.advice.inspect import inspect_bundle
from tests.corpus_support import CORPUS, corpus_line, dmesg_inventory

_RTL8188FU = "openwrt_pr14697_rtl8xxxu_rtl8188fu_chip_line_firmware_ok"
_WRITEN = "x86_rtl8xxxu_a5a5_2_journal_rtl8188eus_writen_eproto"


# --- a network driver's line on the whole USB device (rtl8xxxu's dev_info(&udev->dev, ...)) ---


def test_a_driver_naming_itself_on_a_usb_device_drives_it() -> None:
    """ "usb 1-1: rtl8xxxu: Loading firmware ...": the dongle at 1-1 is rtl8xxxu's Wi-Fi NIC."""
    inv = inspect_bundle(CORPUS / _RTL8188FU)
    assert [(n.bus_path, n.driver, n.bus, n.wireless) for n in inv.nics] == [
        ("1-1", "rtl8xxxu", "usb", True)
    ]


def test_a_function_name_with_the_drivers_prefix_names_the_driver() -> None:
    """ "usb 1-1.2.4: rtl8xxxu_writeN: Failed to write block ... status -71" (__func__ first):
    rtl8xxxu's device, and its -71 is the driver's complaint."""
    inv = inspect_bundle(CORPUS / _WRITEN)
    assert [(n.bus_path, n.driver) for n in inv.nics] == [("1-1.2.4", "rtl8xxxu")]
    assert "driver-complaint" in {f.id for f in inv.findings}


def test_a_word_that_is_no_usb_network_driver_names_none() -> None:
    """The same line under a function of no network driver's prefix, or of a driver that binds
    no USB device, names no driver of the USB device."""
    line = corpus_line(_WRITEN, "addr: 1000", "000-journalctl.txt")
    for other in ("usbfs_writeN", "igb_writeN", "writeN"):
        inv = dmesg_inventory(line.replace("rtl8xxxu_writeN", other))
        assert [n.driver for n in inv.nics if n.driver] == [], other


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=200))
def test_garbage_on_a_usb_device_line_never_raises(tail: str) -> None:
    dmesg_inventory("[   17.4] usb 1-1: " + tail)
