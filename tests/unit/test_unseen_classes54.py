"""The fifty-fourth unseen set's classes ("it worked before the update"): what the user sees of
a NIC after a kernel, firmware or driver update, from lines no older set showed. Each test uses
the real paste's lines (tests/captures/corpus/regr54_*, their SOURCE.md), kept whole."""

# ruff: noqa: E501

from __future__ import annotations

from pathlib import Path

from sbctune.advice.inspect import inspect_bundle
from sbctune.catalog.detected_names import detected_name
from sbctune.catalog.id_formats import load_id_formats
from sbctune.inventory.bundle import write_bundle
from sbctune.inventory.model import Nic

CORPUS = Path(__file__).resolve().parents[1] / "captures" / "corpus"


def _bundle(tmp_path: Path, commands: dict[str, str]) -> Path:
    return write_bundle(tmp_path, "", commands, {}, created="2026-12-01T00:00:00Z")


def _one_nic(bundle: Path) -> Nic:
    found = inspect_bundle(bundle).nics
    assert len(found) == 1, found
    return found[0]


# NixOS/nixpkgs#271020, "When it fails" (a laptop's AX200)
NIXOS_FAILS = (
    "[    7.560762] iwlwifi 0000:3b:00.0: enabling device (0000 -> 0002)\n"
    "[    7.571782] iwlwifi 0000:3b:00.0: Detected crf-id 0x3617, cnv-id 0x100530 wfpm id 0x80000000\n"
    "[    7.571964] iwlwifi 0000:3b:00.0: PCI dev 2723/1654, rev=0x340, rfid=0x10a100\n"
    "[    7.572574] iwlwifi 0000:3b:00.0: Direct firmware load for iwlwifi-cc-a0-77.ucode failed with error -2\n"
)
# QubesOS/qubes-issues#9882 (sys-net's AX211), its bracketed wall clock kept
QUBES = (
    "[2025-04-07 08:14:08] [    4.159821] iwlwifi 0000:00:06.0: Detected crf-id 0x400410, cnv-id 0x80400 wfpm id 0x80000020\n"
    "[2025-04-07 08:14:08] [    4.161742] iwlwifi 0000:00:06.0: PCI dev 51f0/0090, rev=0x370, rfid=0x2010d000\n"
    "[2025-04-07 08:14:08] [    4.161790] iwlwifi 0000:00:06.0: Detected Intel(R) Wi-Fi 6E AX211 160MHz\n"
    "[2025-04-07 08:14:08] [    4.172456] iwlwifi 0000:00:06.0: loaded firmware version 89.6b44fa0b.0 so-a0-gf-a0-89.ucode op_mode iwlmvm\n"
)


def test_iwlwifi_pci_dev_line_names_the_device_ids(tmp_path: Path) -> None:
    """iwl_pci_probe prints pdev->device and pdev->subsystem_device only ("PCI dev 2723/1654");
    the vendor is the one of iwlwifi's alias table entry with that number: 8086:2723, an AX200."""
    nic = _one_nic(_bundle(tmp_path, {"dmesg": NIXOS_FAILS}))
    assert nic.bus_path == "0000:3b:00.0" and nic.driver == "iwlwifi"
    assert nic.ids == "8086:2723"
    assert "AX200" in (nic.chip or "")


def test_a_device_number_alone_needs_the_drivers_table() -> None:
    """The product-only format gives no IDs without the line's driver, nor for a number the
    driver's alias table does not have (no vendor guessed)."""
    line = "iwlwifi 0000:3b:00.0: PCI dev 2723/1654, rev=0x340, rfid=0x10a100"
    table = load_id_formats()
    assert table.ids_in(line) is None
    found = table.ids_in(line, "iwlwifi")
    assert found is not None and found[0] == "8086:2723"
    assert table.ids_in(line.replace("2723", "ffff"), "iwlwifi") is None
    assert table.ids_in(line, "r8169") is None  # r8169's table has no entry 10ec:2723 alone


def test_iwlwifi_detected_name_is_the_chip_not_the_cnvi_function(tmp_path: Path) -> None:
    """With the IDs known (8086:51f0, pci.ids "Alder Lake-P PCH CNVi WiFi"), the chip is still
    the product iwlwifi's own table names on its "Detected" line: the AX211."""
    nic = _one_nic(_bundle(tmp_path, {"dmesg": QUBES}))
    assert nic.ids == "8086:51f0"
    assert nic.chip == "Intel(R) Wi-Fi 6E AX211 160MHz"


def test_detected_name_reads_only_the_tables_names() -> None:
    assert detected_name("iwlwifi", "Detected Intel(R) Wireless-AC 9560 160MHz") == (
        "Intel(R) Wireless-AC 9560 160MHz"
    )
    # 6.1's mvm/ops.c form, with the hardware revision after the name
    assert detected_name("iwlwifi", "Detected Intel(R) Wireless-AC 9560 160MHz, REV=0x318")
    assert detected_name("iwlwifi", "Detected crf-id 0x3617, cnv-id 0x100530") is None
    assert detected_name("hns3", "Detected Intel(R) Wireless-AC 9560 160MHz") is None
    assert detected_name(None, "Detected ") is None


# MichaIng/DietPi#7490 (an Orange Pi 3B): bash's "\w\$ " prompt, the working directory alone
OPI3B_UNAME = (
    "~$ uname -a\n"
    "Linux opi3b 6.12.24-current-rockchip64 #1 SMP PREEMPT Sun Apr 20 08:16:02 UTC 2025 aarch64 GNU/Linux\n"
)
# zabbly/linux#41 (a ThinkPad X1 Carbon Gen 8): the uname line inside the post's dmesg block
ZABBLY_BLOCK = (
    "20U90008GE ThinkPad X1 Carbon Gen 8 \n"
    "Linux x1-carbon 6.10.14-zabbly+ #debian12 SMP PREEMPT_DYNAMIC Sat Oct 12 03:24:19 UTC 2024 x86_64 GNU/Linux\n"
    "\n"
    "[    9.870625] iwlwifi 0000:00:14.3: enabling device (0000 -> 0002)\n"
)


def test_uname_behind_a_working_directory_prompt(tmp_path: Path) -> None:
    """The board's kernel is the release `uname -a` printed behind "~$ "."""
    inv = inspect_bundle(_bundle(tmp_path, {"uname -a": OPI3B_UNAME}))
    assert inv.board.kernel == "6.12.24-current-rockchip64"


def test_uname_line_inside_a_log_paste(tmp_path: Path) -> None:
    """A `uname -a` line pasted in a dmesg block is the kernel the log came from; a log line
    that only mentions GNU/Linux is not."""
    inv = inspect_bundle(_bundle(tmp_path, {"dmesg": ZABBLY_BLOCK}))
    assert inv.board.kernel == "6.10.14-zabbly+"
    other = "[    1.0] foo: this is not GNU/Linux\n[    2.0] Linux x #1 GNU/Linux\n"
    assert inspect_bundle(_bundle(tmp_path / "o", {"dmesg": other})).board.kernel is None


# agherzan/meta-raspberrypi#547 (a Yocto Pi 3 build): `ip addr`'s lines in an inline code span,
# and brcmfmac's 4.18-5.0 chip line in a journal
YOCTO_IP = (
    "`3: wlan0: <BROADCAST,MULTICAST> mtu 1500 qdisc noop state DOWN group default qlen 1000\n"
    "    link/ether b8:27:eb:f5:ff:50 brd ff:ff:ff:ff:ff:ff`\n"
)
YOCTO_JOURNAL = (
    "root@raspberrypi3:~# journalctl | grep brcm | head -n 30\n"
    "Jan 01 00:00:06 localhost kernel: brcmfmac: F1 signature read @0x18000000=0x15264345\n"
    "Jan 01 00:00:06 localhost kernel: brcmfmac: brcmf_fw_map_chip_to_name: using brcm/brcmfmac43455-sdio.bin for chip 0x004345(17221) rev 0x000006\n"
    "Jan 01 00:00:06 localhost kernel: usbcore: registered new interface driver brcmfmac\n"
)


def test_ip_addr_in_an_inline_code_span(tmp_path: Path) -> None:
    """The backtick that opens the span is no part of "3: wlan0:": wlan0 is listed, not up."""
    nic = _one_nic(_bundle(tmp_path, {"ip addr": YOCTO_IP}))
    assert nic.name == "wlan0" and nic.mac == "b8:27:eb:f5:ff:50"
    assert nic.set_down is True


def test_brcmfmac_old_chip_line_names_the_chip_and_its_bus(tmp_path: Path) -> None:
    """ "for chip 0x004345(17221) rev 0x000006" is the BCM4345, on SDIO by its firmware's
    name; with `ip addr`'s wlan0 it is one NIC."""
    bundle = _bundle(
        tmp_path, {"journalctl | grep brcm | head -n 30": YOCTO_JOURNAL, "ip addr": YOCTO_IP}
    )
    nic = _one_nic(bundle)
    assert nic.name == "wlan0" and nic.driver == "brcmfmac"
    assert nic.chip == "BCM4345" and nic.bus == "sdio" and nic.wireless is True


# RPi-Distro/repo#345 (a Pi 3 after `apt upgrade`): only the board's own file is absent
PI3_BRCMFMAC = (
    "[   10.442857] brcmfmac: F1 signature read @0x18000000=0x1541a9a6\n"
    "[   10.459351] brcmfmac: brcmf_fw_alloc_request: using brcm/brcmfmac43430-sdio for chip BCM43430/1\n"
    "[   10.464530] brcmfmac mmc1:0001:1: Direct firmware load for brcm/brcmfmac43430-sdio.raspberrypi,3-model-b.bin failed with error -2\n"
    "[   10.493613] usbcore: registered new interface driver brcmfmac\n"
)
# the same driver when the canonical file is absent too (corpus/visionfive_starfive_51_*)
BOTH_ABSENT = (
    "[Wed Jan 26 18:40:14 2022] brcmfmac: brcmf_fw_alloc_request: using brcm/brcmfmac43430-sdio for chip BCM43430/1\n"
    "[Wed Jan 26 18:40:14 2022] brcmfmac mmc0:0001:1: Direct firmware load for brcm/brcmfmac43430-sdio.starfive,visionfive-v1.bin failed with error -2\n"
    "[Wed Jan 26 18:40:14 2022] brcmfmac mmc0:0001:1: Direct firmware load for brcm/brcmfmac43430-sdio.bin failed with error -2\n"
)


def _ids(bundle: Path) -> set[str]:
    return {f.id for f in inspect_bundle(bundle).findings}


def test_brcmfmac_board_file_alone_absent_is_no_missing_firmware(tmp_path: Path) -> None:
    """brcm_alt_fw_path's board file is the first try; brcmfmac falls back to the canonical
    brcmfmac43430-sdio.bin, whose load no line faults: no firmware-missing. When the canonical
    file fails too, the finding stays."""
    assert "firmware-missing" not in _ids(_bundle(tmp_path / "pi3", {"dmesg": PI3_BRCMFMAC}))
    assert "firmware-missing" in _ids(_bundle(tmp_path / "vf", {"dmesg": BOTH_ABSENT}))


def test_brcmfmac_board_type_names_the_soc(tmp_path: Path) -> None:
    """The board type is the device tree's first root compatible: raspberrypi,3-model-b is
    bcm2837-rpi-3-b.dts, a BCM2837."""
    board = inspect_bundle(_bundle(tmp_path, {"dmesg": PI3_BRCMFMAC})).board
    assert board.soc == "BCM2837"
    assert "raspberrypi,3-model-b" in (board.soc_source or "")


def test_iwlwifi_tlv_parse_line_means_a_file_was_found(tmp_path: Path) -> None:
    """The -77 .. -73 files are absent, then iwlwifi parses a file's TLVs (zabbly/linux#41): no
    firmware-missing; without that line the same failures are a finding."""
    lines = ZABBLY_BLOCK + (
        "[    9.878743] iwlwifi 0000:00:14.3: Direct firmware load for iwlwifi-QuZ-a0-hr-b0-77.ucode failed with error -2\n"
        "[    9.878778] iwlwifi 0000:00:14.3: Direct firmware load for iwlwifi-QuZ-a0-hr-b0-76.ucode failed with error -2\n"
    )
    fseq = "[    9.884657] iwlwifi 0000:00:14.3: TLV_FW_FSEQ_VERSION: FSEQ Version: 89.3.35.37\n"
    assert "firmware-missing" in _ids(_bundle(tmp_path / "a", {"dmesg": lines}))
    assert "firmware-missing" not in _ids(_bundle(tmp_path / "b", {"dmesg": lines + fseq}))
