"""Issue 24, corpus7's first gap by its class: a driver that binds on several buses (brcmfmac:
SDIO, USB, PCIe) whose lines name none of its devices gets its bus from the devices the log
shows on those buses that no other driver claims (app/inventory/bus_elimination.py). A card on
an MMC host counts as a possible SDIO one unless the log shows it to be a memory card.

Every line is a real one, from the corpus bundle named beside it (its SOURCE.md gives the
public source); the tests put real lines of several bundles side by side."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from sbctune.advice.inspect import inventory_from_raw
from sbctune.inventory.model import Nic
from sbctune.inventory.parsers.dmesg import _classify
from sbctune.inventory.raw import RawOutputs

CORPUS = Path(__file__).resolve().parents[1] / "captures" / "corpus"


def _lines(bundle: str) -> list[str]:
    folder = CORPUS / bundle / "commands"
    (path,) = sorted(folder.iterdir())
    return path.read_text(encoding="utf-8").splitlines()


ZERO = _lines("pizero2w_firmware_1768_journal_brcmf_fw_crashed_phy0")
BRCMF = [line for line in ZERO if "brcmf" in line]  # power save, the crash, its two errors
REMOVED = [line for line in ZERO if "card 0001 removed" in line]
NANOPI = _lines("nanopi_r1_openwrt_11469_sun8i")
SDIO_CARD = [line for line in NANOPI if "SDIO card at address" in line]
EDGE_V = _lines("edge_v_fenix_177_rk3399_gmac_probe_no_ifname")
EMMC = [line for line in EDGE_V if "MMC card at address" in line or "mmcblk2: mmc2:" in line]
SAMA5 = _lines("sama5_esp_hosted_198_esp_sdio_ebusy_no_timestamps")
SDHC = [line for line in SAMA5 if "SDHC card at address" in line or "mmcblk1: mmc1:" in line]
USB_NEW = [
    line
    for line in _lines("x86_rtl8xxxu_9_rtl8192eu_efuse_dump_usb_device")
    if "new high-speed USB device" in line
]


def _wifi(lines: list[str]) -> Nic:
    inv = inventory_from_raw(RawOutputs(commands={"dmesg": "\n".join(lines) + "\n"}))
    (nic,) = [n for n in inv.nics if n.driver == "brcmfmac"]
    return nic


def test_the_lines_are_there() -> None:
    assert len(BRCMF) == 4 and len(REMOVED) == 1 and len(SDIO_CARD) == 1
    assert len(EMMC) == 2 and len(SDHC) == 2 and len(USB_NEW) == 1


def test_the_mmc_cores_card_lines_are_read_with_their_type() -> None:
    assert _classify("mmc1: card 0001 removed") == (
        "mmc_card",
        {"device": "mmc1", "rca": "0001", "removed": "removed"},
    )
    assert _classify("mmc2: new high speed SDIO card at address 0001") == (
        "mmc_card",
        {"device": "mmc2", "type": "SDIO", "rca": "0001"},
    )
    kind, fields = _classify("mmcblk2: mmc2:0001 BJTD4R 29.1 GiB ") or ("", {})
    assert (kind, fields.get("disk"), fields.get("device")) == ("mmc_card", "mmcblk2", "mmc2")


def test_the_zero_2_ws_crash_is_on_sdio_and_the_evidence_says_why() -> None:
    nic = _wifi(ZERO)
    assert (nic.bus, nic.wireless) == ("sdio", True)
    said = [e for e in nic.evidence if "card 0001 removed" in e]
    assert said and "no other driver claims" in said[0] and "SDIO" in said[0]


def test_a_new_sdio_card_gives_sdio_too() -> None:
    assert _wifi(SDIO_CARD + BRCMF).bus == "sdio"


def test_a_memory_card_is_no_sdio_device() -> None:
    """An eMMC (address 0001 too) or an SD card with its disk: brcmfmac's bus stays unknown."""
    assert _wifi(EMMC + BRCMF).bus == "unknown"
    assert _wifi(SDHC + BRCMF).bus == "unknown"
    # the same host's other card (address 0001, its type not shown) may be an SDIO one
    assert _wifi(SDHC + REMOVED + BRCMF).bus == "sdio"


def test_an_unclaimed_usb_device_leaves_two_buses_and_no_answer() -> None:
    """A USB device whose IDs are not shown may be brcmfmac's (it binds on USB too)."""
    assert _wifi(USB_NEW + REMOVED + BRCMF).bus == "unknown"


@settings(max_examples=25, deadline=None)
@given(st.permutations(BRCMF + REMOVED + EMMC + SDIO_CARD))
def test_the_bus_does_not_depend_on_the_order_of_the_lines(lines: list[str]) -> None:
    assert _wifi(list(lines)).bus == "sdio"
