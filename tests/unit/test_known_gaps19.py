"""Issue 24, session 19 (gaps24c): what live `inspect` reads.

1. The modules loaded, over SSH too. Session 18 read `lsmod` from bundles only, so "the driver
   is not loaded" never reached a real Pi. `inspect` now reads /proc/modules (what lsmod
   reads; a file, so a plain user's PATH without /sbin does not matter), as the kernel prints
   it (kernel/module/procfs.c m_show()), and the lab serves the profile's captured `lsmod` as
   that file (sbctune.lab.proc_modules), never this host's modules.
2. Out-of-tree vendor drivers' lines, by their own public source
   (resources/kernel_source/vendor_formats.json, checked against the quoted calls by
   scripts/check_vendor_formats.py): a row of the driver the line names gives the line's
   level (xradio_wlan's dev_err "[RX] IF=%d, Receive failure: %d." is a complaint) and the
   interface an "iface" field prints (nuc970-emac0's "%s is OPENED", dev->name); a SoC MAC's
   interrupts named by its device (request_irq(..., pdev->name)) are its own.
3. SPI NICs. drivers.json now lists spi_driver structs (regen_kernel_source.py: enc28j60,
   ks8851, qcaspi ... with their device-tree matches). DESIGN.md's contract 2 names the buses
   usb, pci, platform, sdio and unknown: SPI is none of them, and "platform" is the SoC's own
   block, not a chip on a serial bus, so an SPI NIC's bus is "unknown" (its bus_path the SPI
   device's name, "spi0.0") and it is not the board's built-in NIC; an SPI driver whose one
   device-tree match is named for it names its chip ("microchip,enc28j60": ENC28J60).
Real outputs come from the captures named beside them."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from sbctune.advice.inspect import inventory_from_raw
from sbctune.catalog.vendor_formats import vendor_formats, vendor_line
from sbctune.inventory import collect
from sbctune.inventory.bundle import read_bundle
from sbctune.inventory.model import Nic
from sbctune.inventory.parsers.dispatch import resolve_command, resolve_file
from sbctune.inventory.parsers.lsmod import LoadedModules, parse_lsmod, parse_proc_modules
from sbctune.inventory.raw import RawOutputs
from sbctune.lab.proc_modules import modules_from_lsmod
from tests.corpus_support import CORPUS, corpus_output, corpus_output_named, inventory_of

ROOT = Path(__file__).resolve().parents[2]
# `cat /proc/modules` of a Dell Inspiron 3542 (QCA9565 on ath9k, RTL8101E on r8169): its .source.md
DELL = (
    ROOT
    / "tests"
    / "captures"
    / "proc_modules"
    / ("forum_dell_inspiron_3542_webcam_ath9k_qca9565_r8169.txt")
)
XRADIO = "opizero_xradio_11_receive_failure_flood_quoted_uname"
NUC970 = "nuc972_nuvoton_970_37_nuc970_emac_debug_xmit_flood_proc_interrupts_zero_counts"
ENC_318 = "pi_rpi_linux_795_enc28j60_backticked_lines_watchdog_3_18"
ENC_ZERO = "pizero2w_rpi_linux_3702_enc28j60_spi_half_duplex_watchdog"
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


# --- 2. out-of-tree vendor drivers' formats ------------------------------------------------


def test_every_vendor_row_is_the_call_it_quotes() -> None:
    sys.path.insert(0, str(ROOT / "scripts"))
    from check_vendor_formats import TABLE, problems

    rows = json.loads(TABLE.read_text(encoding="utf-8"))["formats"]
    assert len(rows) == len(vendor_formats()) >= 3
    assert [problems(row) for row in rows] == [[] for _ in rows]
    wrong = {**rows[0], "level": "info"}  # the check can fail: dev_err is not info
    assert problems(wrong) == ["level 'info' is not the call's 'error'"]


def test_an_out_of_tree_drivers_flood_is_its_complaint_named_by_its_source() -> None:
    inv = inventory_of({"dmesg": corpus_output(XRADIO, "001")})
    (nic,) = inv.nics
    assert (nic.driver, nic.bus, nic.wireless) == ("xradio_wlan", "sdio", True)
    (finding,) = [f for f in inv.findings if f.id == "driver-complaint"]
    assert finding.severity == "warning"
    assert '"[RX] IF=%d, Receive failure: %d." (level error, Icenowy/xradio@' in finding.summary
    assert "rx.c xradio_rx_cb()" in finding.summary
    assert finding.evidence[0] == "xradio_wlan mmc1:0001:1: [RX] IF=0, Receive failure: 4."


def test_a_vendor_row_reads_only_its_own_drivers_lines() -> None:
    line = "xradio_wlan mmc1:0001:1: dropped received frame"
    assert vendor_line("xradio_wlan", line) is not None
    assert vendor_line("brcmfmac", line.replace("xradio_wlan", "brcmfmac")) is None
    assert vendor_line(None, line) is None
    said = "nuc970-emac0 b0002000.emac0: eth0 is OPENED"
    found = vendor_line("nuc970-emac0", said)
    assert found is not None and found[1] == {"iface": "eth0"}
    assert vendor_line("nuc970-emac0", "nuc970-emac0 b0002000.emac0: eth 0 is OPENED") is None


def test_an_interface_named_only_in_a_vendor_drivers_words_is_its_devices() -> None:
    commands = {"dmesg": corpus_output(NUC970, "000")}
    files = {"/proc/interrupts": (CORPUS / NUC970 / "files" / "001-proc_interrupts.txt")
             .read_text(encoding="utf-8")}  # fmt: skip
    (nic,) = inventory_from_raw(RawOutputs(commands=commands, files=files)).nics
    assert (nic.name, nic.driver, nic.bus, nic.bus_path) == (
        "eth0", "nuc970-emac0", "platform", "b0002000.emac0"
    )  # fmt: skip
    assert nic.irqs == [19, 21]  # request_irq(..., pdev->name, dev): "b0002000.emac0" twice


@given(st.text(max_size=300), st.sampled_from(["xradio_wlan", "nuc970-emac0", "r8169"]))
def test_vendor_lines_never_raise(text: str, driver: str) -> None:
    found = vendor_line(driver, text)
    assert found is None or (found[0].driver == driver and found[0].needle in text)


# --- 3. SPI NICs ----------------------------------------------------------------------------


def test_spi_drivers_are_in_the_kernels_table_with_no_bus_of_contract_2() -> None:
    from sbctune.catalog.driver_chips import chip_by_one_compatible
    from sbctune.catalog.kernel_drivers import load_kernel_drivers

    enc = load_kernel_drivers().get("enc28j60")
    assert enc is not None and enc.spi and enc.buses == () and enc.bus is None
    assert enc.compatible == ("microchip,enc28j60",)
    assert enc.file == "drivers/net/ethernet/microchip/enc28j60.c"
    ks8851 = load_kernel_drivers().get("ks8851")  # ks8851_par (platform) and ks8851_spi
    assert ks8851 is not None and ks8851.buses == ("platform",) and ks8851.bus is None
    assert chip_by_one_compatible("enc28j60") == (
        "ENC28J60",
        'the enc28j60 driver, whose one device-tree match is "microchip,enc28j60" '
        "(drivers/net/ethernet/microchip/enc28j60.c)",
    )
    # qcaspi's one match "qca,qca7000" is the model its MODULE_DESCRIPTION names (corpus61)
    assert chip_by_one_compatible("qcaspi") is not None
    assert chip_by_one_compatible("mcp251x") is None  # three models
    assert chip_by_one_compatible("tcan4x5x") is None  # a family's placeholder
    assert chip_by_one_compatible("r8169") is None


def test_an_spi_nic_is_named_by_its_driver_on_no_bus_of_contract_2() -> None:
    # the Zero 2 W's own Wi-Fi is a NIC too (brcmfmac's power-save line, a callback of its
    # wiphy: corpus82); the SPI NIC is the one this gap is about
    nics = inventory_of({"dmesg": corpus_output(ENC_ZERO, "")}).nics
    assert sorted(n.driver or "" for n in nics) == ["brcmfmac", "enc28j60"]
    (nic,) = [n for n in nics if n.driver == "enc28j60"]
    assert (nic.name, nic.driver, nic.chip) == ("eth0", "enc28j60", "ENC28J60")
    assert (nic.bus, nic.bus_path, nic.builtin) == ("unknown", "spi0.0", False)
    (nic,) = inventory_of({"dmesg": corpus_output(ENC_318, "")}).nics  # no spi0.0 line
    assert (nic.driver, nic.chip, nic.bus, nic.builtin) == (
        "enc28j60",
        "ENC28J60",
        "unknown",
        False,
    )
