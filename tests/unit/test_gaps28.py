"""KNOWN_GAPS closed by their class (issue 24, session 28).

A kernel newer than the tables: resources/kernel_source/newer_drivers.json
(scripts/regen_newer_drivers.py) holds the USB/PCI IDs Debian's linux-source-7.2 lists and
6.1/6.12 do not, with their drivers. The lines are the corpus bundles' real pastes:
ap51_pi4_usbwifi_464 (morrownr/USB-WiFi#464: a TP-Link Archer T2U PLUS, 2357:0120, rtw88's
rtw8821au.c since 6.14) and usbmg42_un100l_proxmox_r8152linux_47 (an RTL8157, 0bda:8157, on
cdc_ncm; r8152.c's rtl8152_table lists it in 7.2), each bundle's SOURCE.md.
"""

from __future__ import annotations

import json

from sbctune.advice.inspect import inspect_bundle
from sbctune.catalog.kernel_drivers import (
    for_your_kernel,
    in_tree_since,
    load_kernel_drivers,
    with_newer,
)
from sbctune.inventory.parsers.procfs import parse_interrupts
from sbctune.resources import resource_root
from tests.corpus_support import CORPUS, corpus_output, inventory_of

_ARCHER = "ap51_pi4_usbwifi_464_archer_t2u_plus_rtl8821au_lsusb_one_line_iw_dev_wlx"
_RTL8157 = "usbmg42_un100l_proxmox_r8152linux_47_rtl8157_cdc_ncm_10000m"


def test_an_adapter_only_a_newer_kernel_lists_is_a_usb_wifi_nic() -> None:
    """The Archer T2U PLUS of a joined lsusb line is a USB Wi-Fi NIC, tied to iw's only
    interface, and the advice names the kernel that has its driver (the Pi runs 6.6.31)."""
    assert "ID 2357:0120 TP-Link Archer T2U PLUS [RTL8821AU]" in corpus_output(_ARCHER, "001")
    inv = inspect_bundle(CORPUS / _ARCHER)
    (nic,) = inv.nics
    assert (nic.name, nic.bus, nic.ids, nic.wireless) == (
        "wlx242fd0d9e22c",
        "usb",
        "2357:0120",
        True,
    )
    assert nic.chip is not None and "RTL8821AU" in nic.chip
    assert not [f for f in inv.findings if f.id == "no-driver"]
    (advice,) = [r for r in inv.recommendations if "rtw88_8821au" in r.title]
    assert "rtw8821au.c" in advice.detail and "present in 7.2" in advice.detail
    assert "Your kernel is 6.6.31+rpt-rpi-v8: it came after 6.12" in advice.detail


def test_a_chip_on_a_class_driver_whose_own_driver_is_newer_is_told() -> None:
    """The RTL8157 on cdc_ncm: generic-driver, naming r8152 as newer kernels' driver for it,
    with no promise that the running kernel can load it."""
    assert "ID 0bda:8157 Realtek" in corpus_output(_RTL8157, "000")
    inv = inspect_bundle(CORPUS / _RTL8157)
    (finding,) = [f for f in inv.findings if f.id == "generic-driver"]
    assert "runs the generic cdc_ncm driver" in finding.summary
    assert "r8152, lists it (0bda:8157) in newer kernels" in finding.summary
    (advice,) = [
        r for r in inv.recommendations if r.title == "r8152 drives this chip in newer kernels"
    ]
    assert "drivers/net/usb/r8152.c" in advice.detail and "modprobe" not in " ".join(advice.steps)


def test_newer_table_adds_only_what_the_older_tables_lack() -> None:
    """The shipped newer table: 7.2's version recorded; its IDs are in no 6.1/6.12 row; the
    ID a renamed driver lists joins the older name (rtw8822bu.c: rtw_8822bu, not 7.2's
    KBUILD_MODNAME rtw88_8822bu); an older driver keeps its record."""
    folder = resource_root() / "kernel_source"
    newer = json.loads((folder / "newer_drivers.json").read_text(encoding="utf-8"))
    older = json.loads((folder / "drivers.json").read_text(encoding="utf-8"))
    assert newer["packages"]["linux-source-7.2"].startswith("7.2.")
    assert not set(newer["ids"]) & set(older["ids"])
    assert not set(newer["drivers"]) & set(older["drivers"])
    assert "rtw88_8822bu" not in newer["drivers"]
    table = load_kernel_drivers()
    assert [d.name for d in table.for_ids("usb", "2357:0120")] == ["rtw88_8821au"]
    assert table.id_series("usb", "0bda:8157", "r8152") == ("7.2",)
    assert table.id_series("usb", "0bda:8156", "r8152") == ("6.1", "6.12")
    r8152 = table.get("r8152")
    assert r8152 is not None and r8152.series == ("6.1", "6.12")
    merged = with_newer(
        {"drivers": {"a": {"series": ["6.1"]}}, "ids": {"usb:1:1": {"a": ["6.1"]}}},
        {"drivers": {"a": {"series": ["7.2"]}, "b": {}}, "ids": {"usb:1:1": {"b": ["7.2"]}}},
    )
    assert merged["drivers"]["a"] == {"series": ["6.1"]} and merged["ids"]["usb:1:1"] == {
        "a": ["6.1"]
    }


def test_the_newer_series_in_words() -> None:
    assert in_tree_since(("7.2",)) == (
        "added after 6.12 (not in the 6.1 or 6.12 source; present in 7.2)"
    )
    assert "came after 6.12 (7.2 has it)" in for_your_kernel(("7.2",), "6.6.31-v8")
    assert "between 6.13 and 7.2" in for_your_kernel(("7.2",), "6.14.2")
    assert for_your_kernel(("7.2",), "7.2.1") == ""
    assert for_your_kernel(("6.1",), "5.15.0") == ""  # unchanged for the older series


# kaloz/mwlwifi#34 (northbound1, 2015-10-26), the corpus bundle's /proc/interrupts: an
# Armada XP router's kernel prints the hwirq with no trigger (no CONFIG_GENERIC_IRQ_SHOW_LEVEL)
_ARMADA = (
    "           CPU0       CPU1\n"
    " 16:     233437     233490  armada_370_xp_irq   5  armada_370_xp_per_cpu_tick\n"
    " 18:     105542          0  armada_370_xp_irq  31  mv64xxx_i2c\n"
    " 26:        111          0  armada_370_xp_irq   8  mvneta\n"
    " 27:     150549          0  armada_370_xp_irq  10  mvneta\n"
    " 87:          0          0  armada_370_xp_irq  59  mwlwifi\n"
    " 88:    3792826          0  armada_370_xp_irq  60  mwlwifi\n"
)


def test_interrupts_named_by_their_driver_only_all_on_cpu0_are_told() -> None:
    """No NIC is made of two "mvneta" lines, yet the reader's fact is stated: the network
    interrupts all land on CPU0, the lines quoted; the hwirq is not part of the name."""
    inv = inventory_of({"/proc/interrupts": _ARMADA})
    assert inv.nics == []
    (finding,) = [f for f in inv.findings if f.id == "irq-on-cpu0"]
    assert finding.nic is None
    assert finding.summary.startswith("Every network interrupt that fired (2 lines of mvneta)")
    assert "lands on CPU0, the other 1 CPU(s) taking none" in finding.summary
    assert [e.strip() for e in finding.evidence] == [
        "26:        111          0  armada_370_xp_irq   8  mvneta",
        "27:     150549          0  armada_370_xp_irq  10  mvneta",
    ]
    interrupts, _ = parse_interrupts(_ARMADA)
    assert [(i.hwirq, i.names) for i in interrupts.irqs[2:4]] == [
        ("8", ["mvneta"]),
        ("10", ["mvneta"]),
    ]


def test_network_interrupts_served_by_another_cpu_are_no_finding() -> None:
    """One of them on CPU1 (as irqbalance or an affinity mask would put it): nothing to say;
    and a line no network driver names (mv64xxx_i2c on CPU0 only) says nothing either."""
    moved = _ARMADA.replace("150549          0", "150549       9071")
    assert not [
        f for f in inventory_of({"/proc/interrupts": moved}).findings if f.id == "irq-on-cpu0"
    ]
    no_net = "\n".join(line for line in _ARMADA.splitlines() if "mvneta" not in line)
    assert not [
        f for f in inventory_of({"/proc/interrupts": no_net}).findings if f.id == "irq-on-cpu0"
    ]


_SYNOLOGY = "ds218plus_bbqq_461_synology_lsusb_tree_trendnet_tuc_et2g_5000"


def test_an_id_whose_vendor_is_a_shared_headers_macro_is_read() -> None:
    """Synology's lsusb tree of a TRENDnet TUC-ET2G v2 (20f4:e02c, class 00, no interface
    shown): r8152.c lists it in 7.2 as USB_DEVICE(VENDOR_ID_TRENDNET, 0xe02c), the vendor a
    macro of include/linux/usb/r8152.h, so it is a USB NIC at 5000M with r8152 named for it."""
    line = "|__2-1         20f4:e02c:3100 00  3.20 5000MBit/s 256mA 1IF  (TRENDnet TUC-ET2G(v2.0R)"
    assert line in corpus_output(_SYNOLOGY, "001")
    inv = inspect_bundle(CORPUS / _SYNOLOGY)
    (nic,) = inv.nics
    assert (nic.ids, nic.bus, nic.bus_path, nic.usb_speed_mbps) == ("20f4:e02c", "usb", "2-1", 5000)
    (advice,) = [
        r for r in inv.recommendations if r.title == "r8152 drives this adapter in newer kernels"
    ]
    assert "Your kernel is 4.4.180+: it came after 6.12 (7.2 has it)" in advice.detail
