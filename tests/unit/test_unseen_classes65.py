"""Classes that the sixty-fifth unseen set (the newest kernels and chips: 6.13-7.x, Wi-Fi 7,
RTL8127, Airoha AN7581; tests/captures/corpus/new65_*) showed misread. Every output here is one
of the corpus' bundles (named beside it, with its SOURCE.md); the corpus test checks whole
bundles."""

from __future__ import annotations

import json

import pytest

from sbctune.advice.inspect import inspect_bundle
from sbctune.catalog.companion_drivers import card_driver
from sbctune.catalog.wiphy_chips import revision_chip
from sbctune.inventory.parsers.ip_brief import brief_row
from sbctune.inventory.parsers.netif import parse_ip_text
from sbctune.resources import resource_root
from tests.corpus_support import CORPUS, corpus_line
from tests.kernel_trees import kernel_trees

# --- iproute2's brief table (`ip -br link`) --------------------------------------------------

_RTL8127 = "new65_x86_r8125dkms89_rtl8127_two_ports_lspci_nn_grep_ip_br_link"


def test_ip_brief_link_rows_name_and_link_each_pci_port() -> None:
    """`ip -br link` (ip/ipaddress.c print_linkinfo()'s brief branch) prints one row per
    interface: name, operational state, MAC, flags. Its enp193s0 (DOWN, NO-CARRIER) and enp194s0
    (UP, LOWER_UP) are the two RTL8127 ports lspci lists at c1:00.0 and c2:00.0 (systemd's
    names_pci(): bus 193 = 0xc1), with their link."""
    line = corpus_line(_RTL8127, "enp193s0", "002-ip_br_link.txt")
    assert line.startswith("enp193s0         DOWN")
    inv = inspect_bundle(CORPUS / _RTL8127)
    by_name = {n.name: n for n in inv.nics}
    assert by_name["enp193s0"].bus_path == "0000:c1:00.0"
    assert by_name["enp194s0"].bus_path == "0000:c2:00.0"
    assert by_name["enp193s0"].ids == by_name["enp194s0"].ids == "10ec:8127"
    assert by_name["enp193s0"].link_detected is False
    assert by_name["enp194s0"].link_detected is True
    assert len(inv.nics) == 2
    assert not [w for w in inv.warnings if "ip -br link" in str(w)]


def test_ip_brief_addr_rows_and_what_is_no_row() -> None:
    """`ip -br addr` rows carry addresses instead of the MAC; a stacked name keeps its link.
    Prose, a state word that is no IF_OPER name, or a field of another shape is no row."""
    row = brief_row("eth0@if7         UP             192.168.1.5/24 fe80::1/64 ")
    assert row is not None and row.name == "eth0" and row.parent == "if7"
    assert row.ipv4 == ["192.168.1.5"] and row.is_up is True
    assert brief_row("lo               UNKNOWN        00:00:00:00:00:00 <LOOPBACK,UP,LOWER_UP>")
    assert brief_row("eth0 is UP and running") is None
    assert brief_row("eth0 up 00:11:22:33:44:55") is None
    assert brief_row("eth0 UP 00:11:22:33:44:55 <UP> (the uplink)") is None
    assert brief_row("   eth0 UP 00:11:22:33:44:55") is None
    parsed, _warnings = parse_ip_text("2: eth0: <BROADCAST,UP,LOWER_UP> mtu 1500 state UP\n")
    assert [i.name for i in parsed.interfaces] == ["eth0"]


# --- mt76's ASIC revision, read from a newer kernel's tests of it ---------------------------

_MT7902 = "new65_vivobook_mt7902tmp29_mt7921e_asic_79020000_message_timeout_loop"


def test_asic_revision_names_a_chip_only_a_newer_mt76_tests() -> None:
    """mt7921e's "ASIC revision: 79020000" (mt76.h mt76_chip(): the top 16 bits) is 0x7902,
    which no 6.1/6.12 is_mtNNNN() test lists; 7.2's mt76_connac.h is_mt7902() does: an MT7902,
    the evidence saying which source names it."""
    line = corpus_line(_MT7902, "ASIC revision")
    assert line.endswith("mt7921e 0000:07:00.0: ASIC revision: 79020000")
    (nic,) = inspect_bundle(CORPUS / _MT7902).nics
    assert (nic.chip, nic.driver, nic.wireless) == ("MT7902", "mt7921e", True)
    assert any("linux-source-7.2" in e and "mt76_chip()" in e for e in nic.evidence)


@pytest.mark.posix_only("obtains Debian's kernel source with apt-get and dpkg")
def test_the_newer_revisions_are_what_the_newer_source_says() -> None:
    """wiphy_chips.json's mt76_revisions_newer is regen_wiphy_chips.newer_revisions() of the
    7.2 tree at newer_drivers.json's version: only numbers the older rows do not list."""
    from regen_wiphy_chips import newer_revisions

    table = json.loads(
        (resource_root() / "kernel_source" / "wiphy_chips.json").read_text(encoding="utf-8")
    )
    assert newer_revisions(table["mt76_revisions"]) == table["mt76_revisions_newer"]
    assert table["mt76_revisions_newer"]["7.2"]["chips"]["7902"] == "MT7902"
    older = {v for row in table["mt76_revisions"].values() for v in row["chips"]}
    assert not older & set(table["mt76_revisions_newer"]["7.2"]["chips"])


# --- a card's second PCIe link, bound to its module's companion driver ------------------------

_BT8 = "new65_bt8_owrt24215_mt7996e_hif_second_pcie_link_uname_6_18_38"


def test_a_companion_drivers_device_is_the_cards_second_link_not_a_nic() -> None:
    """mt7996/pci.c registers mt7996_hif_driver as KBUILD_MODNAME "_hif" beside the card's
    mt7996_pci_driver: "mt7996e_hif 0002:01:00.0: enabling bus mastering" is the MT7996's
    second PCIe link, which the card's own probe takes (mt7996_pci_add_hif2()). One Wi-Fi NIC,
    at 0000:01:00.0."""
    assert corpus_line(_BT8, "0002:01:00.0").endswith(
        "mt7996e_hif 0002:01:00.0: assign IRQ: got 111"
    )
    inv = inspect_bundle(CORPUS / _BT8)
    assert [(n.bus_path, n.driver, n.wireless) for n in inv.nics] == [
        ("0000:01:00.0", "mt7996e", True)
    ]
    assert card_driver("mt7996e_hif") == "mt7996e" and card_driver("mt7915e_hif") == "mt7915e"
    assert card_driver("mt7996e") is None and card_driver(None) is None


@pytest.mark.posix_only("obtains Debian's kernel source with apt-get and dpkg")
def test_the_companion_table_is_what_the_source_says() -> None:
    from regen_companion_drivers import GLOBS, build

    table = json.loads(
        (resource_root() / "kernel_source" / "companion_drivers.json").read_text(encoding="utf-8")
    )
    drivers = json.loads(
        (resource_root() / "kernel_source" / "drivers.json").read_text(encoding="utf-8")
    )["drivers"]
    assert build(kernel_trees(GLOBS, table["linux-source"]), drivers) == table["drivers"]


# --- an out-of-tree mt76 fork: its chip and its kind -----------------------------------------

_MT7902E = "new65_asus_mendocino_mt76_1118_mt7902e_oot_patch_semaphore_no_ts"


def test_an_out_of_tree_mt76_fork_is_the_wifi_chip_it_is_named_for() -> None:
    """hmtheboy154's mt7902e is in no kernel table. Its "Failed to get patch semaphore" is mt76's
    alone (mt76_connac_mcu.c), its "Message ... (seq N) timeout" also the MediaTek WED's
    (drivers/net/ethernet/mediatek/mtk_wed_mcu.c, the Wi-Fi offload): that shared one no longer
    makes it a wired NIC. Its "ASIC revision: 79020000" is 0x7902, the number it is named for,
    which 7.2's is_mt7902() names: an MT7902."""
    assert corpus_line(_MT7902E, "ASIC") == "mt7902e 0000:02:00.0: ASIC revision: 79020000"
    (nic,) = inspect_bundle(CORPUS / _MT7902E).nics
    assert (nic.bus_path, nic.driver, nic.chip, nic.wireless) == (
        "0000:02:00.0",
        "mt7902e",
        "MT7902",
        True,
    )
    assert any("named for that chip" in e for e in nic.evidence)


def test_a_revision_names_no_chip_for_a_driver_named_otherwise() -> None:
    line = "mt7902e 0000:02:00.0: ASIC revision: 79020000"
    assert revision_chip(line, "mt7902e") is not None
    assert revision_chip(line.replace("mt7902e", "foo_wifi"), "foo_wifi") is None
    assert revision_chip(line.replace("mt7902e", "mt7961e"), "mt7961e") is None  # 0x7902 != 7961
    assert (
        revision_chip(line.replace("79020000", "12340000"), "mt1234e") is None
    )  # no test lists it
