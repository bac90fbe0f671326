"""Issue 24, session 24 (gaps24): KNOWN_GAPS closed by their class.

1. An out-of-tree driver's firmware file names its chip by the function that builds the name.
   firmware_chips.json knows the kernel's own files (MODULE_FIRMWARE, macros, structs, from
   Debian's 6.1/6.12 source); an out-of-tree driver's are read by hand from its public source
   into vendor_formats.json "firmware_prefixes", each row quoting the name expression
   (Morse Micro's morse_driver, mm6108.c mm610x_get_fw_path(): MORSE_FW_DIR "/" MM6108_FW_BASE
   "%s" MORSE_FW_EXT) and its macros' strings, checked by scripts/check_vendor_formats.py.
   Real pastes: two HaLow boards' morse_spi "Loaded firmware from morse/mm6108.bin" (corpus
   halow_pi3b_openmanet_51_*, halow_zero2w_mm6108_5_*).
2. A probe that gave up, told only by the driver's own words. The driver core logs a probe's
   -ENODEV and -ENXIO at debug level only (drivers/base/dd.c call_driver_probe()), so rtw88's
   rtw_sdio_probe() printing "failed to setup chip information" and returning
   rtw_chip_info_setup()'s -ENODEV left the driver taken as bound. probe_exits.json
   (scripts/regen_probe_exits.py, from Debian's 6.1/6.12 source; tests/
   test_probe_exits_source.py) holds the messages each network driver's probe function prints
   in an if block that leaves it with an error; such a line of that driver on its device is
   the probe failing (no driver bound, a probe-failed finding citing the function). Real
   paste: an Amlogic box's `dmesg | grep rtw` (corpus amlogic_ophub_2755_*).
Real outputs come from the captures named beside them (each bundle's SOURCE.md).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from sbctune.catalog.driver_firmware import chip_by_firmware
from sbctune.catalog.probe_exits import probe_exit
from tests.corpus_support import corpus_line, corpus_output, findings_of, inventory_of

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


# --- 2. a probe that gave up, told only by the driver's own words ---------------------------

# ophub/amlogic-s9xxx-armbian issue 2755: `dmesg | grep rtw` then `dmesg | grep mmc` (its SOURCE.md)
RTW_SDIO = "amlogic_ophub_2755_rtw8822cs_rfe_255_backtick_two_greps"


def test_a_probe_that_gave_up_in_its_own_words_binds_no_driver() -> None:
    inv = inventory_of({"dmesg": corpus_output(RTW_SDIO)})
    (nic,) = inv.nics
    assert (nic.bus, nic.bus_path, nic.wireless) == ("sdio", "mmc0:0001:1", True)
    assert nic.chip is not None and "8822CS" in nic.chip
    assert nic.driver is None and nic.driver_state != "unknown"  # none bound, not unshown
    (summary,) = findings_of(inv, "probe-failed")
    assert "rtw_8822cs's probe gave up" in summary
    assert "rtw_sdio_probe() in drivers/net/wireless/realtek/rtw88/sdio.c" in summary
    assert "-ENODEV" in summary and "drivers/base/dd.c" in summary


def test_only_the_drivers_whose_probe_prints_the_words_are_read() -> None:
    line = corpus_line(RTW_SDIO, "failed to setup chip information")
    text = line.split("] ", 1)[1]
    found = probe_exit("rtw_8822cs", text)
    assert found is not None and found.files == (
        "drivers/net/wireless/realtek/rtw88/sdio.c:rtw_sdio_probe",
    )
    assert probe_exit("brcmfmac", text) is None  # brcmfmac's probe prints no such words
    before = corpus_line(RTW_SDIO, "Firmware version 9.9.11").split("] ", 1)[1]
    assert probe_exit("rtw_8822cs", before) is None  # a line of a probe that goes on


def test_a_goto_back_to_an_earlier_label_is_no_exit() -> None:
    """regen_probe_exits reads a `goto` as the probe leaving only when its label comes after
    the block: a jump back (`goto retry;`) is the probe trying again."""
    sys.path.insert(0, str(ROOT / "scripts"))
    from regen_probe_exits import _mask, exit_blocks, function_span

    source = (
        "static int foo_probe(struct device *dev)\n{\n\tint ret;\nretry:\n"
        "\tret = foo_reset(dev);\n"
        '\tif (ret == -EAGAIN) {\n\t\tdev_warn(dev, "reset busy, again\\n");\n'
        "\t\tgoto retry;\n\t}\n"
        '\tif (ret) {\n\t\tdev_err(dev, "failed to reset: %d\\n", ret);\n\t\tgoto err;\n\t}\n'
        "\treturn 0;\nerr:\n\treturn ret;\n}\n"
    )
    masked = _mask(source)
    span = function_span(masked, "foo_probe")
    assert span is not None
    (block,) = exit_blocks(source, masked, *span)
    assert "failed to reset" in block
