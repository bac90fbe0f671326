"""Issue 24, KNOWN_GAPS closed by their class (session 18, gaps24b).

1. A chip named only by the firmware file its driver asks for, where the driver's own macro
   names the file for the chip (ath9k's hif_usb.h: `#define FIRMWARE_AR9271 "htc_9271.fw"`):
   firmware_chips.json "macros", by scripts/firmware_defines.py.
2. `lsmod`: the modules loaded. A device's in-tree driver missing from it, and not built in
   (a library module it needs is listed as a module), does not drive the device.
Real lines come from the corpus bundles named beside them."""

from __future__ import annotations

import sys
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from sbctune.catalog.driver_firmware import chip_by_firmware
from sbctune.inventory.parsers.dispatch import resolve_command
from sbctune.inventory.parsers.lsmod import LoadedModules, parse_lsmod
from tests.corpus_support import corpus_output, corpus_output_named, inventory_of

ROOT = Path(__file__).resolve().parents[2]
LSMOD = ROOT / "tests" / "captures" / "lsmod"
ALXHOFF = "alxhoff_ath9k_4_htc_9271_download_failed_trailing_blank_line"
FALLBACK = "pc_open_ath9k_htc_fw_142_dmesg_T_grep_prompt_awus036nha_fallback_firmware_ok"
ONEPLUS = "oneplus3t_nethunter_1017_uname_proc_version_lsusb_ar9271_lsmod_ath9k_without_htc"


# --- 1. a firmware file named for its chip by the driver's macro ---------------------------


def test_ath9k_htcs_files_name_their_chip_by_its_macros() -> None:
    assert chip_by_firmware("ath9k_htc", "ath9k_htc/htc_9271-1.4.0.fw") == "AR9271"
    assert chip_by_firmware("ath9k_htc", "htc_9271.fw") == "AR9271"
    assert chip_by_firmware(None, "htc_9271.fw") == "AR9271"  # a line of no bound driver
    assert chip_by_firmware("ath9k_htc", "htc_7010.fw") == "AR7010"
    assert chip_by_firmware("r8169", "htc_9271.fw") is None  # another driver's line
    # rt2800usb's FIRMWARE_RT2870 "rt2870.bin" serves the RT3070, RT5370 ... too: no chip
    assert chip_by_firmware("rt2800usb", "rt2870.bin") is None


def test_the_ar9271_is_named_by_the_firmware_ath9k_htc_asks_for() -> None:
    (nic,) = inventory_of({"dmesg": corpus_output(ALXHOFF)}).nics
    assert (nic.bus_path, nic.chip) == ("1-1", "AR9271")
    (nic,) = inventory_of({"dmesg": corpus_output(FALLBACK)}).nics
    assert (nic.bus_path, nic.driver, nic.chip) == ("2-1", "ath9k_htc", "AR9271")


def _driver(tmp_path: Path, header: str) -> Path:
    folder = tmp_path / "drv"
    folder.mkdir()
    (folder / "fw.h").write_text(header, encoding="utf-8")
    main = folder / "main.c"
    main.write_text(
        "static int pick(int v) { return v ? FIRMWARE_AB1234 : FIRMWARE_AB5678; }\n"
        "MODULE_FIRMWARE(AB_5678_MODULE_FW);\n",
        encoding="utf-8",
    )
    return main


def test_a_macro_names_a_chip_only_when_the_drivers_ids_name_no_other(tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT / "scripts"))
    from firmware_defines import named_files

    main = _driver(
        tmp_path,
        '#define FIRMWARE_AB1234 "ab1234.fw"\n#define FIRMWARE_AB5678 "old.fw"\n'
        "#define MINOR 4\n"
        '#define AB_5678_MODULE_FW "dir/ab5678-" __stringify(MINOR) ".fw"\n',
    )
    names = ["AB1234 Wireless", "Stick [Vendor AB5678+AB9999]", "Gizmo 802.11n"]
    assert named_files(main.parent, main, names) == {
        "ab1234.fw": ("AB1234", "FIRMWARE_AB1234"),
        "old.fw": ("AB5678", "FIRMWARE_AB5678"),
        "dir/ab5678-4.fw": ("AB5678", "AB_5678_MODULE_FW"),  # by its number alone
    }
    # an ID named for a chip no macro names may load one of the files: none is named
    assert named_files(main.parent, main, [*names, "AB4321 Wireless"]) == {}
    # a model no ID's name says (a PHY's firmware, cxgb3's AEL2005) names nothing
    assert named_files(main.parent, main, ["AB1234 Wireless"]) == {
        "ab1234.fw": ("AB1234", "FIRMWARE_AB1234")
    }


def test_a_file_two_models_macros_give_is_neithers(tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT / "scripts"))
    from firmware_defines import named_files

    main = _driver(tmp_path, '#define FIRMWARE_AB1234 "ab.fw"\n#define FIRMWARE_AB5678 "ab.fw"\n')
    assert named_files(main.parent, main, ["AB1234 x", "AB5678 y"]) == {}


# --- 2. lsmod -------------------------------------------------------------------------------


def test_lsmod_is_read_from_every_real_capture() -> None:
    captures = sorted(LSMOD.glob("*.txt"))
    assert len(captures) >= 4
    for path in captures:
        result, warnings = parse_lsmod(path.read_text(encoding="utf-8"))
        assert result.modules and not warnings, path.name
    oneplus, _ = parse_lsmod(corpus_output_named(ONEPLUS, "lsmod"))
    assert oneplus.modules["ath9k_hw"] == ("ath9k_common", "ath9k")
    assert oneplus.loaded("ath9k") and not oneplus.loaded("ath9k_htc")
    assert resolve_command("lsmod") == ("lsmod", None)
    assert resolve_command("sudo lsmod | grep ath") == ("lsmod", None)


@given(st.text(max_size=400))
def test_lsmod_never_raises_and_reads_only_names_in_the_text(text: str) -> None:
    result, warnings = parse_lsmod(text)
    assert isinstance(result, LoadedModules) and isinstance(warnings, list)
    flat = text.replace("-", "_")
    assert all(name in flat for name in result.modules)


def _oneplus(lsmod: str | None) -> dict[str, str]:
    commands = {"lsusb": corpus_output_named(ONEPLUS, "lsusb")}
    if lsmod is not None:
        commands["lsmod"] = lsmod
    return commands


def test_a_dongle_whose_driver_lsmod_does_not_list_has_none() -> None:
    (nic,) = inventory_of(_oneplus(corpus_output_named(ONEPLUS, "lsmod"))).nics
    assert (nic.ids, nic.driver, nic.driver_state) == ("0cf3:9271", None, "none")
    assert any("ath9k_htc" in e and "ath9k_common, a loaded module" in e for e in nic.evidence)
    (nic,) = inventory_of(_oneplus(None)).nics  # lsusb alone cannot say
    assert nic.driver_state == "unknown"


def test_lsmod_says_nothing_when_the_driver_may_be_there() -> None:
    head = "Module                  Size  Used by\n"
    loaded = head + "ath9k_htc              65536  0\nath9k_hw              437928  1 ath9k_htc\n"
    built_in = head + "wlan                 5801819  0\n"  # no library of ath9k_htc loaded
    oot = corpus_output_named(ONEPLUS, "lsmod") + "8192cu                526503  0\n"
    for text in (loaded, built_in, oot):
        (nic,) = inventory_of(_oneplus(text)).nics
        assert nic.driver_state == "unknown", text


def test_only_a_library_a_built_in_driver_forces_built_in_counts() -> None:
    """ath9k_pci_owl_loader reaches ATH9K_HW through a bool symbol, which may be y while the
    library is m: ath9k_hw loaded as a module does not say the loader is not built in."""
    from sbctune.catalog.library_modules import libraries_of, library_users

    assert "ath9k_pci_owl_loader" in library_users("ath9k_hw")
    assert "ath9k_hw" not in libraries_of("ath9k_pci_owl_loader")
    assert {"ath", "ath9k_common", "ath9k_hw"} <= libraries_of("ath9k_htc")
