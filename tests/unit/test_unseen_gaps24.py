"""KNOWN_GAPS entries of earlier unseen sets closed by a mechanism (issue 24, gaps24). Every
output here is a corpus bundle's (tests/captures/corpus, each with its SOURCE.md) or a real line
of another capture put beside it (named where it is used); the corpus test checks whole bundles.

lshw lists every USB device as a ``*-usb`` node (lyonel/lshw src/core/usb.cc scan_usb()): bus
info ``usb@BUS:PORTS`` (the kernel's 1-based port numbers), vendor and product from the
device's own Manufacturer/Product strings over usb.ids' names, ``driver=`` from its interfaces'
drivers and UNCLAIMED when none has one, ``speed=`` the USB speed. It prints no IDs; plain
``lsusb`` prints IDs and no port. The two are one device when the lshw node's vendor is the
usb.ids vendor of exactly one device lsusb lists on that bus."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sbctune.advice.inspect import inspect_bundle
from sbctune.catalog.old_formats import old_format_line
from sbctune.inventory.model import Inventory
from sbctune.inventory.parsers.dispatch import resolve_command
from sbctune.inventory.parsers.iwinfo import parse_iwinfo
from sbctune.inventory.parsers.lshw import parse_lshw
from tests.corpus_support import corpus_line, corpus_output_named, inventory_of

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "captures" / "corpus"
_PI3 = "pi3_8821au_26_lshw_unclaimed_then_hash_chained_lsusb_rfkill"
_LSHW = corpus_output_named(_PI3, "lshw")
_CHAINED = corpus_output_named(_PI3, "uname")  # uname; ...; lsusb; rfkill list all; ...
# A real lsusb line of another Realtek device on a bus 001 (a Pi 2's RTL88x2BU dongle,
# tests/captures/lsusb/pi2_rincat_211_lsusb_rtl88x2bu_smsc9512.source.md)
_OTHER_REALTEK = next(
    line
    for line in (ROOT / "tests/captures/lsusb/pi2_rincat_211_lsusb_rtl88x2bu_smsc9512.txt")
    .read_text(encoding="utf-8")
    .splitlines()
    if line.startswith("Bus 001 Device 088: ID 0bda:b812")
)


def _dongles(inv: Inventory) -> list[str | None]:
    return sorted(str(n.ids) for n in inv.nics if n.bus == "usb" and n.ids != "0424:ec00")


def test_lshw_reads_a_usb_node_that_no_driver_claimed() -> None:
    result, warnings = parse_lshw(_LSHW)
    assert warnings == [] and result.networks == []
    (node,) = result.usb
    assert (node.usb_port, node.unclaimed, node.vendor, node.product, node.usb_speed_mbps) == (
        "1-1.5",
        True,
        "Realtek",
        "802.11ac NIC",
        480.0,
    )


def test_the_unclaimed_dongle_is_one_nic_with_no_driver() -> None:
    """lsusb's ``Bus 001 Device 004: ID 0bda:c811`` and lshw's ``*-usb:1 UNCLAIMED`` at
    usb@1:1.5 (vendor Realtek) are one dongle: listed once, at its port, with no driver."""
    inv = inspect_bundle(CORPUS / _PI3)
    (dongle,) = [n for n in inv.nics if n.ids == "0bda:c811"]
    assert (dongle.bus, dongle.bus_path, dongle.driver, dongle.wireless) == (
        "usb",
        "1-1.5",
        None,
        True,
    )
    assert dongle.usb_speed_mbps == 480
    assert _dongles(inv) == ["0bda:c811"]  # not a second NIC for the lshw node
    no_driver = [f for f in inv.findings if f.id == "no-driver"]
    assert [f.nic for f in no_driver] == ["Realtek Semiconductor Corp. at 1-1.5"]
    assert any("UNCLAIMED" in line for f in no_driver for line in f.evidence)


def test_lshw_alone_lists_the_dongle_at_its_port() -> None:
    inv = inventory_of({"lshw": _LSHW})
    (dongle,) = inv.nics
    assert (dongle.bus_path, dongle.driver, dongle.ids, dongle.wireless) == (
        "1-1.5",
        None,
        None,
        True,
    )
    assert "no-driver" in {f.id for f in inv.findings}


def test_two_devices_of_the_vendor_on_the_bus_are_not_guessed_between(tmp_path: Path) -> None:
    """With a second Realtek device on bus 001, lshw's vendor no longer picks one: neither
    lsusb device takes the lshw node's UNCLAIMED."""
    bundle = tmp_path / "b"
    shutil.copytree(CORPUS / _PI3, bundle)
    manifest = json.loads((bundle / "manifest.json").read_text(encoding="utf-8"))
    chained = bundle / manifest["commands"]["uname -a"]
    lines = _CHAINED.splitlines()
    at = next(i for i, line in enumerate(lines) if "0bda:c811" in line)
    chained.write_text(
        "\n".join([*lines[:at], _OTHER_REALTEK, *lines[at:]]) + "\n", encoding="utf-8"
    )
    inv = inspect_bundle(bundle)
    for nic in inv.nics:
        if nic.ids in ("0bda:c811", "0bda:b812"):
            assert nic.driver_state != "none" and nic.bus_path is None, nic


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.permutations(range(4)), st.booleans())
def test_the_join_does_not_depend_on_the_order_of_the_listings(order: list[int], first: bool):
    lines = _CHAINED.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("Bus 001"))
    listed = lines[at : at + 4]
    shuffled = [*lines[:at], *(listed[i] for i in order), *lines[at + 4 :]]
    outputs = {"uname -a": "\n".join(shuffled) + "\n", "lshw": _LSHW}
    if not first:
        outputs = dict(reversed(list(outputs.items())))
    inv = inventory_of(outputs)
    (dongle,) = [n for n in inv.nics if n.ids == "0bda:c811"]
    assert (dongle.bus_path, dongle.driver_state) == ("1-1.5", "none")
    assert _dongles(inv) == ["0bda:c811"]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from([*_LSHW.splitlines(), "", "  *-usb", "speed=x", "*-usb:2"])))
def test_any_mix_of_usb_node_lines_is_read_without_a_crash(lines: list[str]) -> None:
    result, _warnings = parse_lshw("\n".join(lines))
    for node in result.usb:
        assert node.usb_port is None or node.usb_port.startswith("1-")


# --- OpenWrt's iwinfo: one radio per PHY, its PCI IDs (iwinfo_nl80211.c) ---------------------

_LUCI = "openwrt_luci_1069_iwinfo_mt7662e_three_vaps"
_IWINFO = corpus_output_named(_LUCI, "iwinfo")


def test_iwinfo_is_read_as_one_radio_per_phy() -> None:
    result, warnings = parse_iwinfo(_IWINFO)
    assert warnings == []
    (radio,) = result.networks  # wlan0, wlan0-1 (phy0) and wlan0-2 (cut before its PHY line)
    assert (radio.logical_name, radio.ids, radio.bus, radio.product) == (
        "wlan0",
        "14c3:7662",
        "pci",
        None,  # "[Generic MAC80211]": iwinfo's default, no chip name
    )


def test_the_router_has_one_wifi_nic_on_pci() -> None:
    inv = inspect_bundle(CORPUS / _LUCI)
    (nic,) = inv.nics
    assert (nic.name, nic.ids, nic.bus, nic.wireless) == ("wlan0", "14c3:7662", "pci", True)
    assert "MT7662" in str(nic.chip)


def test_the_iwinfo_commands_that_are_read() -> None:
    assert resolve_command("iwinfo") == ("iwinfo", None)
    assert resolve_command("root@OpenWrt:~# iwinfo wlan0 info") == ("iwinfo", None)
    assert resolve_command("iwinfo wlan0 scan") == (None, None)


@settings(max_examples=25, deadline=None)
@given(st.permutations(range(3)))
def test_the_radio_is_named_alike_whatever_order_lists_its_interfaces(order: list[int]) -> None:
    blocks = _IWINFO.split("\n\n")
    (radio,) = parse_iwinfo("\n\n".join(blocks[i] for i in order))[0].networks
    assert (radio.logical_name, radio.ids) == ("wlan0", "14c3:7662")


def test_a_block_cut_before_its_phy_line_with_another_name_stays_its_own() -> None:
    """Only OpenWrt's own ``wlanN-M`` names place a block without ``PHY name:``: the first
    block cut after its Hardware line, under a name of no such form, is a radio of its own."""
    first = _IWINFO.split("\n\n")[0].splitlines()
    cut = [first[0].replace("wlan0 ", "ath0  ", 1), *first[1:9]]  # a madwifi-era name
    radios = parse_iwinfo("\n".join(cut) + "\n\n" + _IWINFO)[0].networks
    assert sorted(str(r.logical_name) for r in radios) == ["ath0", "wlan0"]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from([*_IWINFO.splitlines(), "", "x  ESSID: y", "Hardware: zz"])))
def test_any_mix_of_iwinfo_lines_is_read_without_a_crash(lines: list[str]) -> None:
    result, warnings = parse_iwinfo("\n".join(lines))
    assert result.networks or warnings or not "".join(lines).strip()


# --- Marvell's out-of-tree GbE driver names its interfaces in its own words ------------------

_DS414 = "ds414_bbqq_575_armada_xp_vendor_giga_ports_phy_chipid_port2_off"


def test_a_vendor_drivers_register_line_lists_its_interfaces() -> None:
    """``o eth0, ifindex = 2, GbE port = 0``: printed by the Marvell LSP's mv_netdev_init()
    right after register_netdev() (resources/kernel_source/old_formats.json, with its source):
    eth0 and eth1 are the SoC's GbE ports, with no driver named and nothing said missing."""
    inv = inspect_bundle(CORPUS / _DS414)
    assert [(n.name, n.bus, n.wireless, n.driver) for n in inv.nics] == [
        ("eth0", "platform", False, None),
        ("eth1", "platform", False, None),
    ]
    assert {f.id for f in inv.findings} & {"no-driver", "link-down"} == set()
    (eth0,) = [n for n in inv.nics if n.name == "eth0"]
    assert any("mv_netdev_init" in line for line in eth0.evidence)


def test_the_register_line_is_read_only_whole() -> None:
    """The same words with no interface, or more after the port, are not that line."""
    line = corpus_line(_DS414, "o eth0, ifindex")
    assert old_format_line(line.split("]", 1)[1].strip()) is not None
    assert old_format_line("o , ifindex = 2, GbE port = 0") is None
    assert old_format_line("o eth0, ifindex = 2, GbE port = 0 of 3") is None
