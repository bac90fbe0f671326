"""Classes that the sixtieth unseen set (TI and NXP boards: BeagleBone wireless boards' WiLink,
Layerscape SDK drivers, Toradex and NXP i.MX boards' Marvell/NXP Wi-Fi; tests/captures/corpus/
tinxp60_*) showed misread. Every output here is one of those bundles' (named beside it, with its
SOURCE.md); the corpus test checks whole bundles."""

from __future__ import annotations

import json

import pytest

from sbctune.advice.inspect import inspect_bundle
from sbctune.catalog.kernel_drivers import load_kernel_drivers
from sbctune.inventory.firmware_requester import firmware_requester
from sbctune.inventory.graph import Device
from sbctune.inventory.sightings import Fact
from sbctune.resources import resource_root
from tests.corpus_support import CORPUS, corpus_line, findings_of
from tests.kernel_trees import kernel_trees

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


# --- a firmware file a driver picks in a switch on the device's ID ---------------------------

_APALIS_IMX8QM = "tinxp60_apalis_imx8qm_toradex_16753_mwifiex_pcie_fw_missing_grep_prompt"


def test_firmware_picked_by_switch_case_names_the_chip() -> None:
    """mwifiex_pcie asks for mrvl/pcieusb8997_combo_v4.bin under `case
    PCIE_DEVICE_ID_MARVELL_88W8997:` (pcie.c mwifiex_pcie_get_fw_name()), mwifiex_usb for
    mrvl/usbusb8997_combo_v4.bin under `case USB8997_PID_1:` (usb.c mwifiex_register_dev()):
    the 88W8997 of the Apalis iMX8QM and the Apalis iMX6 board, whose lines name no chip."""
    inv = inspect_bundle(CORPUS / _APALIS_IMX8QM)
    (pcie,) = [n for n in inv.nics if n.bus_path == "0000:01:00.0"]
    assert pcie.chip == "88W8997"
    (usb,) = [n for n in inspect_bundle(CORPUS / _APALIS_IMX6).nics if n.bus_path == "1-1.2"]
    assert usb.chip == "USB8997"


def test_switch_case_firmware_of_another_driver_names_no_chip() -> None:
    """The row is the driver's: another driver asking for the same name gets no chip from it."""
    from sbctune.catalog.driver_firmware import chip_by_firmware

    assert chip_by_firmware("mwifiex_pcie", "mrvl/pcieusb8997_combo_v4.bin") == "88W8997"
    assert chip_by_firmware("mwifiex_sdio", "mrvl/pcieusb8997_combo_v4.bin") is None


@pytest.mark.posix_only("obtains Debian's kernel source with apt-get and dpkg")
def test_switch_case_table_matches_the_source() -> None:
    """firmware_chips.json's "cases" are what scripts/firmware_cases.py reads in the pinned 6.1
    and 6.12 trees (mwifiex pcie.c and usb.c), each row in the series that have it."""
    from firmware_cases import case_files
    from regen_firmware_chips import GLOBS

    table = json.loads(
        resource_root().joinpath("kernel_source", "firmware_chips.json").read_text("utf-8")
    )["cases"]
    drivers = load_kernel_drivers()
    for series, tree in kernel_trees(GLOBS).items():
        for firmware, row in table.items():
            path = tree / row["file"]
            if series in row["series"]:
                got = case_files(path).get(firmware)
                assert got is not None and got[0] == row["chip"], (series, firmware)
                assert drivers.get(row["driver"]) is not None
    assert table["mrvl/pcieusb8997_combo_v4.bin"]["label"] == "PCIE_DEVICE_ID_MARVELL_88W8997"
