"""Classes that the twenty-fifth unseen set (eight boards new to the corpus;
tests/captures/corpus) showed misread. Every log here is one of those bundles' (named beside it,
with its SOURCE.md), or a line of one changed to show what must NOT be read; the corpus test
checks whole bundles."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from sbctune.advice.inspect import inspect_bundle
from sbctune.catalog.kernel_drivers import load_kernel_drivers
from tests.corpus_support import CORPUS, corpus_line, dmesg_events, dmesg_inventory

_MBP = "mbp_2016_linux_112_brcmfmac_debug_bcm4377_pcie_probe_enter_ids_dollar_prompt"
_DONGLE = "rpi_linux_2087_brcmfmac_usb_bcm43143_clm_blob_arp_table_err"


# --- brcmfmac names its chip in brcmf_chip_recognition()'s debug line too (chip.c) ---


def test_brcmfmacs_chip_recognition_line_names_the_chip() -> None:
    """A MacBook Pro with brcmfmac.debug: "brcmf_chip_recognition found AXI chip: BCM4377/4"
    is the only line that names the chip of the PCIe card at 0000:01:00.0."""
    inv = inspect_bundle(CORPUS / _MBP)
    assert [(n.bus_path, n.driver, n.chip) for n in inv.nics] == [
        ("0000:01:00.0", "brcmfmac", "BCM4377")
    ]


def test_the_chip_words_of_another_driver_name_no_brcmfmac_chip() -> None:
    """The same words printed by another module name nothing of brcmfmac's."""
    line = corpus_line(_MBP, "found AXI chip").replace("brcmfmac:", "bcma:")
    assert not [kind for kind, _ in dmesg_events(line) if kind == "wifi_chip"]


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=80))
def test_garbage_after_the_chip_words_never_breaks_the_parser(tail: str) -> None:
    line = "[  229.986962] brcmfmac: brcmf_chip_recognition found AXI chip: " + tail
    for kind, fields in dmesg_events(line):
        if kind == "wifi_chip":
            assert fields.get("chip", "BCM").startswith("BCM")


# --- a device-less line printed from one of the driver's own ID formats gives its IDs ---


def test_a_drivers_debug_line_of_its_devices_ids_gives_the_ids() -> None:
    """brcmfmac's "brcmf_pcie_probe Enter 14e4:4488" (pcie.c, brcmf_dbg of pdev->vendor and
    pdev->device) names no device: it is about the one PCIe device brcmfmac drives."""
    inv = inspect_bundle(CORPUS / _MBP)
    assert [(n.bus_path, n.ids) for n in inv.nics] == [("0000:01:00.0", "14e4:4488")]


def test_another_drivers_line_in_those_words_gives_no_ids() -> None:
    """The same words from a driver whose source does not print them give nobody IDs."""
    line = corpus_line(_MBP, "Enter 14e4").replace("brcmfmac:", "r8169:")
    device = corpus_line(_MBP, "enabling device").replace("brcmfmac", "r8169")
    inv = dmesg_inventory(device, line)
    assert [n.ids for n in inv.nics] == [None]


# --- the firmware loader's line names the device its driver asked for the file for ---


def test_a_firmware_request_on_a_usb_device_places_the_drivers_chip_there() -> None:
    """The Pi's USB Wi-Fi dongle: brcmfmac's own lines name no device; "usb 2-6: Direct
    firmware load for brcm/brcmfmac43143.clm_blob failed" is the firmware loader's line about
    the USB device brcmfmac asked for it (usb.c declares brcmfmac43143 by BRCMF_FW_DEF)."""
    inv = inspect_bundle(CORPUS / _DONGLE)
    assert [(n.bus_path, n.bus, n.driver, n.chip, n.wireless) for n in inv.nics] == [
        ("2-6", "usb", "brcmfmac", "BCM43143", True)
    ]


def test_a_file_no_driver_declares_places_nothing() -> None:
    """The same line for a file that no driver declares, in no driver's directory, ties the
    device to no driver."""
    line = corpus_line(_DONGLE, "Direct firmware load").replace("brcm/", "nowhere/")
    chip = corpus_line(_DONGLE, "for chip BCM43143")
    inv = dmesg_inventory(line, chip)
    assert "2-6" not in [n.bus_path for n in inv.nics]


def test_macro_declared_firmware_is_in_the_driver_table() -> None:
    """brcmfmac declares its files through BRCMF_FW_DEF()/BRCMF_FW_CLM_DEF() (firmware.h):
    drivers.json has them, as MODULE_FIRMWARE lines would give them."""
    table = load_kernel_drivers()
    assert [d.name for d in table.for_firmware("brcm/brcmfmac43143.bin")] == ["brcmfmac"]
    assert [d.name for d in table.for_firmware("brcm/brcmfmac43455-sdio.clm_blob")] == ["brcmfmac"]
