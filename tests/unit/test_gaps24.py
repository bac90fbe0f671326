"""Issue 24, session 24 (gaps24): KNOWN_GAPS closed by their class.

1. An out-of-tree driver's firmware file names its chip by the function that builds the name.
   firmware_chips.json knows the kernel's own files (MODULE_FIRMWARE, macros, structs, from
   Debian's 6.1/6.12 source); an out-of-tree driver's are read by hand from its public source
   into vendor_formats.json "firmware_prefixes", each row quoting the name expression
   (Morse Micro's morse_driver, mm6108.c mm610x_get_fw_path(): MORSE_FW_DIR "/" MM6108_FW_BASE
   "%s" MORSE_FW_EXT) and its macros' strings, checked by scripts/check_vendor_formats.py.
   Real pastes: two HaLow boards' morse_spi "Loaded firmware from morse/mm6108.bin" (corpus
   halow_pi3b_openmanet_51_*, halow_zero2w_mm6108_5_*).
Real outputs come from the captures named beside them (each bundle's SOURCE.md).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from sbctune.catalog.driver_firmware import chip_by_firmware
from tests.corpus_support import corpus_line, corpus_output, inventory_of

ROOT = Path(__file__).resolve().parents[2]

# --- 1. an out-of-tree driver's firmware file names its chip --------------------------------

# an OpenMANET Pi 3 B's logread then dmesg (its SOURCE.md); a Zero 2 W's `dmesg -T` (its SOURCE.md)
HALOW = [
    "halow_pi3b_openmanet_51_logread_then_dmesg_morse_spi_errno_95",
    "halow_zero2w_mm6108_5_morse_spi_human_clock_bare_brcmfmac_line",
]


@pytest.mark.parametrize("bundle", HALOW)
def test_the_firmware_an_out_of_tree_driver_loaded_names_its_chip(bundle: str) -> None:
    inv = inventory_of({"dmesg": corpus_output(bundle)})
    (nic,) = [n for n in inv.nics if n.bus_path == "spi0.0"]
    assert (nic.driver, nic.wireless) == ("morse_spi", True)
    assert nic.chip is not None and "MM6108" in nic.chip


def test_only_the_lines_of_the_drivers_that_build_the_name_are_read() -> None:
    line = corpus_line(HALOW[0], "Loaded firmware from")
    assert line.endswith(
        "morse_spi spi0.0: Loaded firmware from morse/mm6108.bin, size 459124, crc32 0x51d355b9"
    )
    assert chip_by_firmware("morse_spi", "morse/mm6108.bin") == "MM6108"
    assert chip_by_firmware("brcmfmac", "morse/mm6108.bin") is None  # not that driver's file
    assert chip_by_firmware("morse_spi", "morse/bcf_fgh100mhaamd.bin") is None  # its BCF


def test_every_vendor_firmware_row_is_the_expression_it_quotes() -> None:
    sys.path.insert(0, str(ROOT / "scripts"))
    from check_vendor_formats import TABLE, firmware_problems

    rows = json.loads(TABLE.read_text(encoding="utf-8"))["firmware_prefixes"]
    assert len(rows) >= 2 and [firmware_problems(r) for r in rows] == [[] for _ in rows]
    wrong = {**rows[0], "prefix": "morse/mm8108"}  # the check can fail: not what mm6108.c builds
    assert firmware_problems(wrong) == [
        "prefix 'morse/mm8108' does not begin the expression's 'morse/mm6108'"
    ]
