"""Classes that the sixtieth unseen set (TI and NXP boards: BeagleBone wireless boards' WiLink,
Layerscape SDK drivers, Toradex and NXP i.MX boards' Marvell/NXP Wi-Fi; tests/captures/corpus/
tinxp60_*) showed misread. Every output here is one of those bundles' (named beside it, with its
SOURCE.md); the corpus test checks whole bundles."""

from __future__ import annotations

from sbctune.advice.inspect import inspect_bundle
from sbctune.inventory.firmware_requester import firmware_requester
from sbctune.inventory.graph import Device
from sbctune.inventory.sightings import Fact
from tests.corpus_support import CORPUS, corpus_line, findings_of

# --- a device whose only driver word is the firmware file its driver asked for ---------------

_APALIS_IMX6 = "tinxp60_apalis_imx6_toradex_17613_mwifiex_usb_fw_missing_bare_journal"
_FW_LINE = "usb 1-1.2: Direct firmware load for mrvl/usbusb8997_combo_v4.bin failed with error -2"


def test_device_asking_for_a_drivers_firmware_is_that_drivers() -> None:
    """`usb 1-1.2: Direct firmware load for mrvl/usbusb8997_combo_v4.bin`: the loader prints on
    the device mwifiex_usb's probe passed to request_firmware(), and only mwifiex_usb declares
    the file: its driver, not "no driver is bound" (the file is missing, the driver is there)."""
    inv = inspect_bundle(CORPUS / _APALIS_IMX6)
    (nic,) = [n for n in inv.nics if n.bus_path == "1-1.2"]
    assert nic.driver == "mwifiex_usb" and nic.wireless
    assert findings_of(inv, "firmware-missing")
    assert not findings_of(inv, "no-driver")


def _device(*facts: tuple[str, str]) -> Device:
    line = corpus_line(_APALIS_IMX6, "Direct firmware load", "000-journalctl.txt")
    assert line == _FW_LINE
    return Device(facts=[Fact(field, value, "dmesg", line) for field, value in facts])


def test_firmware_names_no_driver_of_another_bus_or_one_that_refused() -> None:
    """The file's driver binds USB only: a device on another bus, or one whose driver said it
    gave up (a probe failure), gets no driver from it."""
    wanted = ("firmware_wanted", "mrvl/usbusb8997_combo_v4.bin")
    assert firmware_requester(_device(wanted), "usb") == "mwifiex_usb"
    assert firmware_requester(_device(wanted), "pci") is None
    assert firmware_requester(_device(wanted, ("refused_by", "mwifiex_usb")), "usb") is None
    assert firmware_requester(_device(("firmware_wanted", "no-such/file.bin")), "usb") is None
