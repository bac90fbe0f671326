"""brcmfmac drives SDIO, PCIe and USB chips: its chip line ("brcmfmac: brcmf_fw_alloc_request:
using brcm/<name> for chip <chip>", firmware.c) names no device, so the bus comes from the
device's address where a line shows it, else from the firmware name, whose suffix the bus's own
table gives it (sdio.c brcmf_sdio_fwnames "-sdio", pcie.c brcmf_pcie_fwnames "-pcie", usb.c
brcmf_usb_fwnames: none). Every paste is a real one, in tests/captures/dmesg with its source."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sbctune.advice.inspect import inventory_from_raw
from sbctune.inventory.brcmfmac_bus import firmware_bus
from sbctune.inventory.model import Nic
from sbctune.inventory.raw import RawOutputs
from sbctune.resources import resource_root

ROOT = Path(__file__).resolve().parents[2]
DMESG = ROOT / "tests" / "captures" / "dmesg"
CORPUS = ROOT / "tests" / "captures" / "corpus"


def _wifi(text: str) -> Nic:
    inv = inventory_from_raw(RawOutputs(commands={"dmesg": text}))
    (nic,) = [n for n in inv.nics if n.driver == "brcmfmac"]
    return nic


def _capture(name: str) -> str:
    return (DMESG / f"{name}.txt").read_text(encoding="utf-8")


def test_a_usb_chip_is_on_usb() -> None:
    """syzkaller's emulated USB BCM43236 (its trace runs through brcmf_usb_probe)."""
    nic = _wifi(_capture("qemu_syzkaller_brcmfmac_usb_43236"))
    assert (nic.bus, nic.chip) == ("usb", "BCM43236")


def test_a_pcie_chip_named_only_by_its_firmware_is_on_pci() -> None:
    """A MacBook's BCM43602 in journal lines: no line names its PCI address."""
    nic = _wifi(_capture("mbp_archinstall_1_brcmfmac_pcie_43602_journal"))
    assert (nic.bus, nic.chip) == ("pci", "BCM43602")


def test_a_pcie_chip_with_its_address_is_one_nic_on_pci() -> None:
    nic = _wifi(_capture("x86_t2linux_143_brcmfmac_pcie_4364"))
    assert (nic.bus, nic.chip, nic.name) == ("pci", "BCM4364", "wlp2s0")


@pytest.mark.parametrize(
    "bundle",
    ["pizero2w_pikvm_1262_brcmfmac", "radxa_zero_libreelec_21_brcmfmac_bcm4345_prompt"],
)
def test_an_sdio_chip_stays_on_sdio(bundle: str) -> None:
    text = (CORPUS / bundle / "commands" / "000-dmesg.txt").read_text(encoding="utf-8")
    assert _wifi(text).bus == "sdio"


def test_the_firmware_name_says_the_bus() -> None:
    line = "brcmfmac: brcmf_fw_alloc_request: using brcm/{} for chip BCM4345/6"
    assert (firmware_bus(line.format("brcmfmac43455-sdio")) or ("",))[0] == "sdio"
    assert (firmware_bus(line.format("brcmfmac4366c-pcie")) or ("",))[0] == "pci"
    assert (firmware_bus(line.format("brcmfmac4373")) or ("",))[0] == "usb"
    assert firmware_bus("brcmfmac: brcmf_c_preinit_dcmds: Firmware: BCM4345/6 wl0: ...") is None


@given(st.text(max_size=300))
def test_any_text_gives_a_bus_or_none(text: str) -> None:
    found = firmware_bus(text)
    assert found is None or found[0] in ("sdio", "pci", "usb")


@pytest.mark.posix_only("obtains Debian's kernel source with apt-get and dpkg")
def test_every_name_in_each_bus_table_has_that_bus() -> None:
    """Every BRCMF_FW_DEF / BRCMF_FW_CLM_DEF name in sdio.c, pcie.c and usb.c of both kernels
    gives its file's bus (the table in resources/kernel_source/brcmfmac_buses.json)."""
    sys.path.insert(0, str(ROOT / "scripts"))
    from kernel_source import obtain

    versions = json.loads(
        resource_root().joinpath("kernel_source", "VERSION.json").read_text(encoding="utf-8")
    )["packages"]
    table = json.loads(
        resource_root().joinpath("kernel_source", "brcmfmac_buses.json").read_text(encoding="utf-8")
    )
    files = {row["file"]: row["bus"] for row in table["suffixes"]}
    files[table["no_suffix"]["file"]] = table["no_suffix"]["bus"]
    for package, version in versions.items():
        tree = obtain(package.removeprefix("linux-source-"), ("drivers/net/*",), version=version)
        for file, bus in files.items():
            text = (tree.root / file).read_text(encoding="utf-8", errors="replace")
            names = re.findall(r'BRCMF_FW_(?:CLM_)?DEF\(\w+, "([^"]+)"\)', text)
            assert len(names) >= 5, (package, file)
            for name in names:
                line = f"brcmfmac: brcmf_fw_alloc_request: using brcm/{name} for chip BCM1/1"
                assert (firmware_bus(line) or ("",))[0] == bus, (package, file, name)
