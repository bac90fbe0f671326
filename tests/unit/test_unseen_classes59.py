"""Classes that the fifty-ninth unseen set (PCIe and M.2 cards on boards with a PCIe slot: Wi-Fi
and Ethernet cards on the ROCK 5B, NanoPi R5C, ROCK 3A, Orange Pi 5B, an RK3576 board and Pis;
tests/captures/corpus/m2_59_*) showed misread. Every output here is one of those bundles' (named
beside it, with its SOURCE.md); the corpus test checks whole bundles."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from sbctune.advice.inspect import inspect_bundle
from sbctune.catalog.bcmdhd_lines import bcmdhd_line, brcm_chip_name
from sbctune.catalog.kernel_drivers import load_kernel_drivers
from sbctune.inventory.ids_ties import ids_ties
from sbctune.inventory.parsers.paste_split import split_known
from sbctune.inventory.sightings import Sighting
from tests.corpus_support import CORPUS, corpus_line, corpus_output, findings_of
from tests.kernel_trees import kernel_trees

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

# --- a Wi-Fi card that lspci -k shows with no driver bound -----------------------------------

_PI5_MT7921 = "m2_59_pi5_mt76_946_mt7921_lspci_k_libkmod_no_driver_rp1"
_RK3576_3168 = "m2_59_rk3576_linux_rockchip392_3168ngw_unknown_header_7f_modules_only"
_ROCK5B_8852BE = "m2_59_rock5b_radxa_manifests38_rtl8852be_vendor_lspci_android_usb_banner"


def test_unbound_pci_wifi_card_is_a_no_driver_finding() -> None:
    """`lspci -k` prints "Kernel driver in use" from sysfs whatever libkmod says; the Pi 5's
    MT7921 and the RK3576's 3168NGW have none: the card gives no interface, as an unbound
    Ethernet card does (the check ran for wired NICs only)."""
    for bundle in (_PI5_MT7921, _RK3576_3168):
        inv = inspect_bundle(CORPUS / bundle)
        (nic,) = [n for n in inv.nics if n.bus_path == "0000:01:00.0"]
        assert nic.wireless and nic.driver is None
        (found,) = [f for f in inv.findings if f.id == "no-driver"]
        assert "0000:01:00.0" in found.nic and "No driver is bound" in found.summary


def test_bound_pci_wifi_card_is_no_no_driver_finding() -> None:
    """The ROCK 5B's RTL8852BE shows `Kernel driver in use: rtl8852be`: no finding."""
    inv = inspect_bundle(CORPUS / _ROCK5B_8852BE)
    (nic,) = [n for n in inv.nics if n.bus_path == "0002:21:00.0"]
    assert nic.driver == "rtl8852be"
    assert not findings_of(inv, "no-driver")


# --- a bare prompt whose command the paste wrapped onto the next line ------------------------

_ROCK5B_AX210 = "m2_59_rock5b_armbian473_ax210_iwlwifi_rtl8125_grep_paste"


def test_prompt_with_its_command_on_the_next_line_starts_that_output() -> None:
    """`root@rock-5b:/home/shulker# ` alone, then `lspci | grep -i net`: the lspci lines are
    lspci's output, not kernel lines of the dmesg the paste was stored under."""
    text = corpus_output(_ROCK5B_AX210)
    assert text.startswith("root@rock-5b:/home/shulker# \nlspci | grep -i net\n")
    parts = split_known(text, "dmesg")
    assert [k for k, _ in parts][:2] == ["lspci | grep -i net", "lsusb | grep -i intel"]
    assert parts[0][1].startswith("0002:21:00.0 Network controller: Intel")


def test_rock5b_rtl8125_in_the_wrapped_lspci_is_a_nic() -> None:
    """What the user sees: the board's RTL8125 at 0004:41:00.0 beside the AX210 card."""
    inv = inspect_bundle(CORPUS / _ROCK5B_AX210)
    by_path = {n.bus_path: n for n in inv.nics}
    assert set(by_path) == {"0002:21:00.0", "0004:41:00.0"}
    assert "RTL8125" in (by_path["0004:41:00.0"].chip or "")
    assert by_path["0004:41:00.0"].bus == "pci" and not by_path["0004:41:00.0"].wireless


def test_bare_prompt_without_a_read_command_after_it_is_no_break() -> None:
    """A prompt alone before a line that is no command the inventory reads (an output line,
    prose) cuts nothing."""
    text = "root@host:~# \nhello world\n[    1.0] r8169 0000:01:00.0 eth0: Link is Up\n"
    assert split_known(text, "dmesg") == [("dmesg", text)]


# --- iwlwifi by its name in the generated driver table ---------------------------------------

_R5C_BE200 = "m2_59_nanopi_r5c_armbian9668_be200_no_config_probe_einval_quoted_human"


@pytest.fixture(scope="module")
def net_trees() -> dict[str, Path]:
    from regen_kernel_source import GLOBS

    return kernel_trees(GLOBS)


@pytest.mark.posix_only("obtains Debian's kernel source with apt-get and dpkg")
def test_module_of_a_file_linked_by_a_parent_makefile(net_trees: dict[str, Path]) -> None:
    """iwlwifi's PCI driver is in pcie/drv.c (`.name = DRV_NAME`, "iwlwifi" in iwl-drv.h), which
    no Makefile of pcie/ links: iwlwifi/Makefile does (`iwlwifi-objs += pcie/drv.o ...`). Its
    KBUILD_MODNAME, the name the table falls back to, was "drv" (the file's own name)."""
    from regen_kernel_source import _module

    for series, tree in net_trees.items():
        folder = tree / "drivers/net/wireless/intel/iwlwifi"
        assert not (folder / "pcie/Makefile").exists(), series
        assert "pcie/drv.o" in (folder / "Makefile").read_text(encoding="utf-8"), series
        assert re.search(
            r'#define DRV_NAME\s+"iwlwifi"', (folder / "iwl-drv.h").read_text(encoding="utf-8")
        ), series
        assert _module(folder / "pcie/drv.c") == "iwlwifi", series
        assert _module(folder / "mvm/ops.c") == "iwlmvm", series  # its own directory's Makefile


def test_iwlwifi_is_the_tables_wifi_driver_not_drv() -> None:
    table = load_kernel_drivers()
    iwl = table.get("iwlwifi")
    assert iwl is not None and iwl.wireless and iwl.file.endswith("iwlwifi/pcie/drv.c")
    assert table.get("drv") is None


def test_card_whose_iwlwifi_probe_failed_is_wifi() -> None:
    """What the user sees: the R5C's BE200 (iwlwifi prints PCI dev 272b, then its probe fails
    with -22) is a Wi-Fi card with no driver bound, by the driver that refused it."""
    inv = inspect_bundle(CORPUS / _R5C_BE200)
    (nic,) = inv.nics
    assert (nic.bus_path, nic.ids, nic.driver, nic.wireless) == (
        "0000:01:00.0",
        "8086:272b",
        None,
        True,
    )
    assert findings_of(inv, "probe-failed")


# --- bcmdhd's GET_REVINFO: the dongle's IDs tie its lines to the PCI device lspci lists ------

_OPI5B = "m2_59_opi5b_7ji_2_bcm43752_dhd_pcie_449d_lspci_backticks_nmcli_end1"


def test_bcmdhd_revinfo_line_gives_ids_and_chip() -> None:
    """dhd_msgbuf.c dhd_sync_with_dongle() prints the dongle's vendor, device and chip number
    (bcmdhd_lines.json revinfo_format); 0xaae8 is 43752, named in decimal as brcmf_chip_name()
    names an ID above 0xa000."""
    line = corpus_line(_OPI5B, "GET_REVINFO", "002-dmesg.txt")
    msg = line.split("] ", 1)[1]
    assert msg.startswith("[dhd] dhd_sync_with_dongle: GET_REVINFO device 0x449d")
    assert bcmdhd_line(msg) == ("bcmdhd", {"ids": "14e4:449d", "chip": "BCM43752"})
    assert bcmdhd_line("[dhd] dhd_sync_with_dongle: GET_REVINFO device 0xzz") == ("bcmdhd", {})


def test_brcm_chip_names_decimal_or_hex_as_brcmfmac() -> None:
    assert [brcm_chip_name(n) for n in (0x4359, 0x4345, 0xA9A6, 0xAAE8, 0x3362)] == [
        "BCM4359",
        "BCM4345",
        "BCM43430",
        "BCM43752",
        "BCM13154",
    ]


def test_opi5b_pcie_wifi_is_the_bcm43752_by_its_ids() -> None:
    """What the user sees: lspci's unnamed Broadcom 14e4:449d at 0004:41:00.0 is the BCM43752
    Wi-Fi card whose bcmdhd brought its firmware up, beside the GMAC's end1."""
    inv = inspect_bundle(CORPUS / _OPI5B)
    by_path = {n.bus_path: n for n in inv.nics}
    card = by_path["0004:41:00.0"]
    assert (card.ids, card.chip, card.wireless, card.bus) == ("14e4:449d", "BCM43752", True, "pci")
    assert any("GET_REVINFO" in e for e in card.evidence)
    assert {n.name for n in inv.nics} == {None, "end1"}
    # bcmdhd's own lines ("Firmware up: ...") show the driver at work: not "no driver shown"
    assert card.driver == "bcmdhd" and not findings_of(inv, "driver-unknown")


def _seen(keys: list[tuple[str, str]], ids: str) -> Sighting:
    sighting = Sighting(keys)
    sighting.add("ids", ids, "test", ids)
    return sighting


def test_ids_tie_needs_one_bus_device_and_one_ids() -> None:
    driver = _seen([("wifi", "bcmdhd")], "14e4:449d")
    one = _seen([("pci", "0004:41:00.0")], "14e4:449d")
    other = _seen([("pci", "0003:31:00.0")], "14e4:449d")
    assert [set(s.keys) for s in ids_ties([one, driver])] == [
        {("pci", "0004:41:00.0"), ("wifi", "bcmdhd")}
    ]
    assert ids_ties([one, other, driver]) == []  # two cards with those IDs: which one?
    second = _seen([("wifi", "bcmdhd")], "14e4:4488")
    assert ids_ties([one, driver, second]) == []  # the driver's lines give two devices
