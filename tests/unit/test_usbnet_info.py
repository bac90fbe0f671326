"""`ethtool -i`'s firmware-version of a usbnet NIC is its mini-driver's description
(driver_caps_audit4a.md row 3): usbnet_get_drvinfo (drivers/net/usb/usbnet.c, 6.1 and 6.12)
writes `driver_info->description` into fw_version, so a real cdc_ncm paste says
"firmware-version: CDC NCM (NO ZLP)". The inventory took it for the NIC's firmware (Inspect's
"Firmware" line; a missing-firmware finding is dropped where a NIC has one). Real captures, with
their sources beside them."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from sbctune.advice.inspect import inspect_bundle
from sbctune.inventory.usbnet_info import usbnet_description
from sbctune.resources import resource_root

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "captures" / "corpus"
VM = ROOT / "tests" / "captures" / "dev_vm" / "bundles"
sys.path.insert(0, str(ROOT / "scripts"))


@pytest.mark.parametrize(
    ("bundle", "nic", "driver"),
    [
        (CORPUS / "pi4_openwrt_23085_ethtool_i_cdc_ncm_no_zlp", "eth1", "cdc_ncm"),
        (VM / "qemu_bookworm_four_nics", "enx5254005b0004", "cdc_ether"),
    ],
)
def test_a_usbnet_description_is_not_the_nics_firmware(bundle: Path, nic: str, driver: str) -> None:
    found = inspect_bundle(bundle).nic(nic)
    assert found is not None and found.driver == driver
    assert found.firmware is None  # before: "CDC NCM (NO ZLP)", "CDC Ethernet Device"


def test_a_real_firmware_version_is_still_the_firmware() -> None:
    """atlantic's get_drvinfo writes the NIC's firmware ("3.1.100"): kept."""
    found = inspect_bundle(CORPUS / "x86_aqtion_5_atlantic_ethtool_i_join").nic("eth0")
    assert found is not None and found.firmware == "3.1.100"
    assert not usbnet_description("3.1.100") and not usbnet_description(None)
    assert usbnet_description("smsc95xx USB 2.0 Ethernet")  # the Pi 1-3's LAN951x


@pytest.mark.posix_only("obtains Debian's kernel source with apt-get and dpkg")
def test_the_descriptions_are_the_sources() -> None:
    from kernel_source import SERIES, obtain
    from regen_usbnet_descriptions import GLOBS, descriptions

    path = resource_root().joinpath("kernel_source").joinpath("usbnet_descriptions.json")
    table = json.loads(path.read_text(encoding="utf-8"))
    for series in SERIES:
        version = table["packages"][f"linux-source-{series}"]
        root = obtain(series, GLOBS, version=version).root
        usbnet = (root / "drivers/net/usb/usbnet.c").read_text(encoding="utf-8")
        assert "info->fw_version, dev->driver_info->description" in usbnet, series
        found = set()
        for file in sorted((root / "drivers/net/usb").glob("*.c")):
            found |= set(descriptions(file.read_text(encoding="utf-8", errors="replace")).values())
        mine = {d for d, row in table["descriptions"].items() if series in row["series"]}
        assert found == mine, series
    assert {"smsc95xx USB 2.0 Ethernet", "CDC NCM (NO ZLP)"} <= set(table["descriptions"])
