"""Issue 24, session 19 (gaps24c): what live `inspect` reads.

1. The modules loaded, over SSH too. Session 18 read `lsmod` from bundles only, so "the driver
   is not loaded" never reached a real Pi. `inspect` now reads /proc/modules (what lsmod
   reads; a file, so a plain user's PATH without /sbin does not matter), as the kernel prints
   it (kernel/module/procfs.c m_show()), and the lab serves the profile's captured `lsmod` as
   that file (sbctune.lab.proc_modules), never this host's modules.
Real outputs come from the captures named beside them."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from sbctune.advice.inspect import inventory_from_raw
from sbctune.inventory import collect
from sbctune.inventory.bundle import read_bundle
from sbctune.inventory.model import Nic
from sbctune.inventory.parsers.dispatch import resolve_command, resolve_file
from sbctune.inventory.parsers.lsmod import LoadedModules, parse_lsmod, parse_proc_modules
from sbctune.inventory.raw import RawOutputs
from sbctune.lab.proc_modules import modules_from_lsmod
from tests.corpus_support import CORPUS, corpus_output_named

ROOT = Path(__file__).resolve().parents[2]
# `cat /proc/modules` of a Dell Inspiron 3542 (QCA9565 on ath9k, RTL8101E on r8169): its .source.md
DELL = (
    ROOT
    / "tests"
    / "captures"
    / "proc_modules"
    / ("forum_dell_inspiron_3542_webcam_ath9k_qca9565_r8169.txt")
)
ONEPLUS = "oneplus3t_nethunter_1017_uname_proc_version_lsusb_ar9271_lsmod_ath9k_without_htc"


# --- 1. the modules loaded, read live ------------------------------------------------------


def test_proc_modules_is_read_as_the_kernel_prints_it() -> None:
    result, warnings = parse_proc_modules(DELL.read_text(encoding="utf-8"))
    assert warnings == [] and len(result.modules) == 84 and result.source == "/proc/modules"
    assert result.modules["ath9k_hw"] == ("ath9k", "ath9k_common")  # "ath9k,ath9k_common,"
    assert result.modules["ath9k"] == ()  # "-": no users, not a module named "-"
    assert result.modules["rts5139"] == ()  # a taint flag "(C)" after the address
    assert result.loaded("r8169") and not result.loaded("ath9k_htc")
    assert resolve_file("/proc/modules") == ("/proc/modules", None)
    assert resolve_command("cat /proc/modules") == ("/proc/modules", None)


def test_an_empty_proc_modules_is_a_kernel_without_modules_not_a_bad_read() -> None:
    result, warnings = parse_proc_modules("")
    assert (result.modules, warnings) == ({}, [])


@given(st.text(max_size=400))
def test_proc_modules_never_raises_and_reads_only_names_in_the_text(text: str) -> None:
    result, warnings = parse_proc_modules(text)
    assert isinstance(result, LoadedModules) and isinstance(warnings, list)
    flat = text.replace("-", "_")
    assert all(name in flat for name in result.modules)


def test_a_live_inspect_reads_the_module_list_as_a_file() -> None:
    assert "/proc/modules" in collect.ROUND1_FILES
    keys = {step.key for step in collect.round1_steps()}
    assert {"/proc/modules", "lsmod"} <= keys  # the file; lsmod where there is no file


def test_the_labs_proc_modules_is_the_profiles_lsmod_as_the_kernel_prints_it() -> None:
    bundle = read_bundle(CORPUS / ONEPLUS)
    served = modules_from_lsmod(bundle)
    assert served is not None
    assert served.splitlines()[2] == (
        "ath9k_hw 437928 2 ath9k_common,ath9k, Live 0x0000000000000000"
    )
    lsmod, _ = parse_lsmod(corpus_output_named(ONEPLUS, "lsmod"))
    as_file, warnings = parse_proc_modules(served)
    assert as_file.modules == lsmod.modules and warnings == []
    assert modules_from_lsmod(read_bundle(ROOT / "resources/lab/profiles/pi5-macb")) is None


def _inventory(files: dict[str, str]) -> Nic:
    raw = RawOutputs(commands={"lsusb": corpus_output_named(ONEPLUS, "lsusb")}, files=files)
    (nic,) = inventory_from_raw(raw).nics
    return nic


def test_a_dongle_whose_driver_proc_modules_does_not_list_has_none() -> None:
    """As a live inspect reads the Pi (a file, not a command): the AR9271's ath9k_htc is not
    in the module list while ath9k_common, a library it needs, is."""
    served = modules_from_lsmod(read_bundle(CORPUS / ONEPLUS)) or ""
    nic = _inventory({"/proc/modules": served})
    assert (nic.ids, nic.driver, nic.driver_state) == ("0cf3:9271", None, "none")
    assert any(e.startswith("/proc/modules: the driver") and "ath9k_htc" in e
               for e in nic.evidence)  # fmt: skip
    assert _inventory({"/proc/modules": ""}).driver_state == "unknown"  # all built in: no say
    assert _inventory({}).driver_state == "unknown"
