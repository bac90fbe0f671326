"""Classes that the sixty-second unseen set (tiny and unusual CPUs: RISC-V, MIPS and ARMv5
boards; tests/captures/corpus/tiny62_*) showed misread. Every output here is one of the corpus'
bundles (named beside it, with its SOURCE.md); the corpus test checks whole bundles."""

from __future__ import annotations

import json

import pytest

from sbctune.advice.inspect import inspect_bundle
from sbctune.catalog.mips_system_types import system_type_soc
from sbctune.resources import resource_root
from tests.corpus_support import CORPUS, corpus_line
from tests.kernel_trees import kernel_trees

# --- a MIPS SoC names itself in its "system type" (log and /proc/cpuinfo) ---------------------

_OMEGA2 = "tiny62_omega2_mt76_28_mt7688_mips_machine_is_boot_head"
_MT7628AN_LOGREAD = "tiny62_mt7628an_owrtforum_189769_mt76x2e_eeprom_check_failed_logread"
_MT7620A = "tiny62_mt7620a_owrtforum_59349_rt2800_wmac_eeprom_missing_probe_failed_cpuinfo"
_QCA956X = "qca956x_dir842_openwrt_pr12997_qca8k_dsa_ports_grep_qca_ath10k"
_XRX200 = "zyxel_p2812hnu_f1_openwrt_9464_lantiq_xrx200_mips_machine_is_boot_head"


def test_ralink_soc_type_line_names_the_soc() -> None:
    """`SoC Type: MediaTek MT7688 ver:1 eco:2` (arch/mips/ralink/prom.c prom_init()) is written
    by mt7620.c's "MediaTek %s ver:%u eco:%u": the SoC is the MT7688, also inside OpenWrt's
    logread wrapper."""
    line = corpus_line(_OMEGA2, "SoC Type", "000-dmesg.txt")
    assert line.endswith("SoC Type: MediaTek MT7688 ver:1 eco:2")
    inv = inspect_bundle(CORPUS / _OMEGA2)
    assert inv.board.soc == "MT7688" and inv.board.model == "Onion Omega2"
    assert "MediaTek MT7688 ver:1 eco:2" in (inv.board.soc_source or "")
    assert inspect_bundle(CORPUS / _MT7628AN_LOGREAD).board.soc == "MT7628AN"


def test_mips_cpuinfo_machine_and_system_type() -> None:
    """/proc/cpuinfo on MIPS (arch/mips/kernel/proc.c show_cpuinfo()) prints "system type" and
    "machine", the device tree's model: the board and its SoC."""
    board = inspect_bundle(CORPUS / _MT7620A).board
    assert board.model == "Ralink MT7620a + MT7610e evaluation board"
    assert board.soc == "MT7620A"


def test_ath79_soc_line_and_lantiq_stay_read() -> None:
    """ath79's "SoC: Qualcomm Atheros QCA956X ver 1 rev 0" (ath79_detect_sys_type(), format
    "Qualcomm Atheros QCA%s ver %u rev %u") is a QCA956X; Lantiq's bare "SoC: xRX200 rev 1.1" is
    still read as before."""
    assert inspect_bundle(CORPUS / _QCA956X).board.soc == "QCA956X"
    assert inspect_bundle(CORPUS / _XRX200).board.soc == "xRX200"


def test_system_type_of_no_known_format_names_no_soc() -> None:
    """A sentence no platform's format writes names nothing: bcm63xx's "bcm63xx/<board> (...)",
    bmips' "Generic BMIPS kernel", a version-less vendor word, an overlong text."""
    assert system_type_soc("Generic BMIPS kernel") is None
    assert system_type_soc("MediaTek MT7628AN") is None
    assert system_type_soc("MediaTek " + "X" * 200 + " ver:1 eco:2") is None
    assert system_type_soc(None) is None
    found = system_type_soc("Atheros AR9344 rev 3")
    assert found is not None and found.soc == "AR9344" and found.file == "arch/mips/ath79/setup.c"


@pytest.mark.posix_only("obtains Debian's kernel source with apt-get and dpkg")
def test_system_type_table_matches_the_source() -> None:
    """mips_system_types.json's formats are what scripts/regen_mips_system_types.py reads in the
    pinned 6.1 and 6.12 trees, each in the files and series its row names."""
    from regen_mips_system_types import GLOBS, formats

    table = json.loads(
        resource_root().joinpath("kernel_source", "mips_system_types.json").read_text("utf-8")
    )["formats"]
    assert "MediaTek %s ver:%u eco:%u" in table
    for series, tree in kernel_trees(GLOBS).items():
        for fmt, row in table.items():
            for rel in row["files"]:
                got = formats((tree / rel).read_text(encoding="utf-8", errors="replace"))
                assert (fmt in got) == (series in row["series"]), (series, fmt, rel)


# --- OpenWrt's `ubus call system board` names the board, its kernel and its SoC --------------

_MT7628AN_UBUS = "tiny62_mt7628an_owrtforum_201153_mt76x2e_firmware_failed_to_start_ubus_board"


def test_ubus_system_board_gives_model_kernel_and_soc() -> None:
    """procd's system_board() prints uname's release, cpuinfo's "system type" (the MIPS SoC's
    sentence) and /tmp/sysinfo/model: the board is the MT7628AN evaluation board on 5.15.137."""
    board = inspect_bundle(CORPUS / _MT7628AN_UBUS).board
    assert board.model == "Mediatek MT7628AN evaluation board"
    assert board.kernel == "5.15.137"
    assert board.soc == "MT7628AN"


def test_ubus_system_board_reads_the_first_level_only() -> None:
    """The nested "release" object (its "target", "description") is the firmware, not the
    board; a prompt before the object is not read as a field."""
    from sbctune.inventory.parsers.ubus_board import parse_ubus_system_board

    text = (CORPUS / _MT7628AN_UBUS / "commands" / "001-ubus_call_system_board.txt").read_text(
        encoding="utf-8"
    )
    board, warnings = parse_ubus_system_board(text)
    assert board.board_name == "mediatek,mt7628an-eval-board" and not warnings
    cut = text.replace('\t"model": "Mediatek MT7628AN evaluation board",\n', "")
    assert parse_ubus_system_board(cut)[0].model is None  # "description" is not a model
