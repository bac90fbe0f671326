"""Issue 24, class 2: a chip named only by the firmware file its driver runs. Drivers that make
the file's name at run time from a per-chip prefix (iwlwifi's cfg->fw_name_pre, ath1xk's
hw_params fw.dir) are read by scripts/firmware_prefixes.py into firmware_chips.json
"prefixes"; a file that starts with one is that chip's. Real lines come from the corpus
bundles named beside them."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sbctune.advice.inspect import inventory_from_raw
from sbctune.catalog.driver_firmware import chip_by_firmware
from sbctune.inventory.log_complaints import firmware_file
from sbctune.inventory.raw import RawOutputs
from sbctune.resources import resource_root

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "captures" / "corpus"


def _line(bundle: str, needle: str) -> str:
    text = (CORPUS / bundle / "commands" / "000-dmesg.txt").read_text(encoding="utf-8")
    return next(line for line in text.splitlines() if needle in line)


IWL_7260 = _line("x86_openwrt_10858_iwlwifi_7260_microcode_sw_error", "Loaded firmware")


def test_a_firmware_file_named_in_a_drivers_line_is_read() -> None:
    assert firmware_file(IWL_7260) == "7260-17.ucode"
    assert firmware_file("iwlwifi 0000:01:00.0: 0x00000084 | NMI_INTERRUPT_UNKNOWN") is None
    assert firmware_file("r8169 0000:01:00.0 eth0: version 1.binary") is None


def test_iwlwifi_prints_its_file_without_its_prefix_and_the_table_knows_both() -> None:
    assert chip_by_firmware("iwlwifi", "iwlwifi-7260-17.ucode") == "Intel(R) Wireless 7260"
    assert chip_by_firmware("iwlwifi", "7260-17.ucode") == "Intel(R) Wireless 7260"
    assert chip_by_firmware(None, "7260-17.ucode") is None  # the cut name needs its driver
    assert chip_by_firmware("r8169", "7260-17.ucode") is None  # another driver's line
    # the longest prefix wins: 7265D's files are not 7265's
    assert "3165" in (chip_by_firmware("iwlwifi", "7265D-29.ucode") or "")
    assert "3165" not in (chip_by_firmware("iwlwifi", "7265-17.ucode") or "3165")


def test_ath11k_files_name_their_chip_by_directory() -> None:
    wanted = "ath11k/WCN6855/hw2.1/nfa765/amss.bin"  # a board's firmware-name subdirectory
    assert chip_by_firmware("ath11k_pci", wanted) == "wcn6855 hw2.1"
    assert chip_by_firmware("ath10k_pci", wanted) is None
    assert chip_by_firmware("ath10k_pci", "ath10k/QCA9377/hw1.0/firmware-6.bin") == "qca9377"


def test_newer_iwlwifi_cfgs_are_named_by_the_device_table() -> None:
    """An AX200 ("cc-a0-55.ucode"): its cfg struct has no .name; pcie/drv.c's IWL_DEV_INFO
    table pairs the cfg with its names (the Intel card and Killer rebadges). An AX211-class
    "ma-b0-gf-a0-89.ucode" is named by 6.12 from the MAC and radio parts (fw_name_mac, not a
    prefix): no chip, rather than another's."""
    line = _line("x86_zen_190_iwlwifi_journal_time_only_error_dump", "cc-a0-55.ucode")
    assert firmware_file(line) == "cc-a0-55.ucode"
    assert "AX200" in (chip_by_firmware("iwlwifi", "cc-a0-55.ucode") or "")
    line = _line("x86_clearlinux_3143_iwlwifi_cnvi_14_3_sysassert", "ma-b0-gf-a0-89.ucode")
    assert firmware_file(line) == "ma-b0-gf-a0-89.ucode"
    assert chip_by_firmware("iwlwifi", "ma-b0-gf-a0-89.ucode") is None


def test_the_7260_bundle_names_its_chip() -> None:
    text = (
        CORPUS / "x86_openwrt_10858_iwlwifi_7260_microcode_sw_error" / "commands" / "000-dmesg.txt"
    ).read_text(encoding="utf-8")
    (nic,) = inventory_from_raw(RawOutputs(commands={"dmesg": text})).nics
    assert (nic.driver, nic.chip) == ("iwlwifi", "Intel(R) Wireless 7260")


@given(st.text(max_size=300))
def test_any_text_gives_a_file_or_none_and_never_raises(text: str) -> None:
    found = firmware_file(text)
    assert found is None or (found in text and found.endswith((".ucode", ".bin", ".fw", ".mbn")))
    chip = chip_by_firmware("iwlwifi", text)
    assert chip is None or text.split()[0].endswith(".ucode")


@pytest.mark.posix_only("obtains Debian's kernel source with apt-get and dpkg")
def test_the_prefix_table_is_what_the_source_says() -> None:
    sys.path.insert(0, str(ROOT / "scripts"))
    from firmware_prefixes import SPECS, prefixes
    from kernel_source import obtain

    data = json.loads(
        resource_root().joinpath("kernel_source", "firmware_chips.json").read_text(encoding="utf-8")
    )
    rows = data["prefixes"]
    assert rows["iwlwifi-7260-"]["chip"] == "Intel(R) Wireless 7260"
    assert rows["ath11k/WCN6855/hw2.1/"]["chip"] == "wcn6855 hw2.1"
    seen: dict[str, set[str]] = {}
    for name, version in data["packages"].items():
        series = name.removeprefix("linux-source-")
        tree = obtain(series, ("drivers/net/*",), version=version).root
        fresh = prefixes(tree)
        for prefix, row in rows.items():
            if series not in row["series"]:
                assert prefix not in fresh, (series, prefix)
                continue
            assert prefix in fresh, (series, prefix)
            text = (tree / fresh[prefix]["file"]).read_text(encoding="utf-8", errors="replace")
            seen.setdefault(prefix, set()).update(n for n in row["names"] if f'"{n}"' in text)
            seen[prefix].update(fresh[prefix]["names"])  # type: ignore[arg-type]
            for spec in SPECS:  # the function that makes the path is where the row says
                if row["made_by"].startswith(spec["dir"]):
                    where, function = spec["made_by"].split(" ")[0], spec["made_by"].split(" ")[1]
                    made = (tree / spec["dir"] / where).read_text(encoding="utf-8")
                    assert function.removesuffix("():") in made, (series, where, function)
                    if cut := spec.get("logged_without"):
                        assert f'"{cut}"' in made  # iwl_reduced_fw_name()'s strncmp
    for prefix, row in rows.items():
        assert set(row["names"]) <= seen[prefix], prefix
