"""resources/lab/usb_hosts.toml (and link_settings.toml's bcmgenet `by_board`) against Debian's
kernel source (audit 32 rows 2 and 8): each `writers` function calls usb_make_path, which
prints "usb-%s-%s" of the bus name and the devpath; the Pi 4 B's xHCI is the device at bus 1,
device 0 behind BCM2711's PCIe root port; the GENET's PHY addresses are the boards' device
trees'. Uses linux-source-6.1 and -6.12 from ~/.cache/sbctune/kernel-src (fetched once when
missing, as tests/test_driver_caps_source.py does)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from sbctune.lab.ethtool_models import load_toml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import kernel_source  # noqa: E402

GLOBS = ("drivers/net/*", "include/*", "arch/arm/boot/dts/*")
HOSTS = load_toml(ROOT / "resources/lab/usb_hosts.toml")
LINKS = load_toml(ROOT / "resources/lab/ethtool/link_settings.toml")
FILES = {"usbnet_get_drvinfo": "drivers/net/usb/usbnet.c",
         "rtl8152_get_drvinfo": "drivers/net/usb/r8152.c",
         "lan78xx_get_drvinfo": "drivers/net/usb/lan78xx.c"}  # fmt: skip


@pytest.fixture(scope="module", params=["6.1", "6.12"])
def root(request: pytest.FixtureRequest) -> Path:
    return kernel_source.obtain(request.param, GLOBS).root


def _body(text: str, function: str) -> str:
    """The function's definition (usbnet.c writes "usbnet_get_drvinfo (struct net_device")."""
    heads = [f"{function}(struct net_device", f"{function} (struct net_device"]
    start = min(text.index(h) for h in heads if h in text)
    return text[start : text.index("\n}\n", start)]


def test_each_writer_writes_usb_make_path(root: Path) -> None:
    assert sorted(HOSTS["writers"]) == sorted(FILES)
    for function, path in FILES.items():
        body = _body((root / path).read_text(encoding="utf-8", errors="replace"), function)
        called = "usb_make_path(" in body or "usb_make_path (" in body  # usbnet.c's spacing
        assert called and "info->bus_info" in body, function
    usb_h = (root / "include/linux/usb.h").read_text(encoding="utf-8", errors="replace")
    assert '"usb-%s-%s", dev->bus->bus_name,' in usb_h


def _dts(root: Path, name: str) -> str:
    for where in ("arch/arm/boot/dts", "arch/arm/boot/dts/broadcom"):
        if (root / where / name).is_file():
            return (root / where / name).read_text(encoding="utf-8", errors="replace")
    raise AssertionError(f"{name} not in {root}")


def test_the_pi4s_xhci_is_bus_1_device_0(root: Path) -> None:
    text = _dts(root, "bcm2711-rpi-4-b.dts")
    pcie = text[text.index("&pcie0 {") :]
    assert "pci@0,0 {" in pcie and "usb@0,0 {" in pcie and "reg = <0 0 0 0 0>;" in pcie
    assert HOSTS["Raspberry Pi 4 Model B"] == {"xhci_hcd": "0000:01:00.0"}


def test_the_genets_phy_addresses_are_the_device_trees(root: Path) -> None:
    by_board = LINKS["bcmgenet"]["by_board"]
    four = _dts(root, "bcm2711-rpi-4-b.dts")
    assert "ethernet-phy@1 {" in four and "reg = <0x1>;" in four.split("ethernet-phy@1 {")[1][:80]
    assert by_board["Raspberry Pi 4 Model B"] == {"phyad": 1}
    assert '#include "bcm2711-rpi-4-b.dts"' in _dts(root, "bcm2711-rpi-400.dts")
    assert by_board["Raspberry Pi 400"] == {"phyad": 1}
    cm4 = _dts(root, "bcm2711-rpi-cm4.dtsi")
    assert "ethernet-phy@0 {" in cm4 and "reg = <0x0>;" in cm4.split("ethernet-phy@0 {")[1][:80]
    assert by_board["Raspberry Pi Compute Module 4"] == {"phyad": 0}
