"""gaps31: KNOWN_GAPS closed by their class (tests/captures/corpus/README.md, "gaps31").

pci.ids is trixie's (2025.06.09) instead of bookworm's (2023.04.10), so chips sold since are
named; where the newer database names an ID a driver binds by the product it was sold as, the
kernel's own ID macro says which chip it is (catalog.pci_id_macros). And an MDIO bus name that a
device-tree node gives too ("mdio") names no one driver (scripts/regen_mdio_bus_names.py)."""

from __future__ import annotations

import json
from pathlib import Path

from sbctune.advice.inspect import inspect_bundle
from sbctune.catalog.driver_chips import other_chips
from sbctune.catalog.ids import load_ids
from sbctune.catalog.kernel_drivers import load_kernel_drivers
from sbctune.catalog.mdio_bus_names import mdio_bus_driver
from sbctune.catalog.pci_id_macros import id_macro
from sbctune.resources import resource_root
from tests.corpus_support import inventory_of

CORPUS = Path(__file__).resolve().parents[1] / "captures" / "corpus"
IDS = Path(__file__).resolve().parents[2] / "resources" / "ids"


def test_an_intel_be200_cut_before_its_driver_line_is_named_and_wifi() -> None:
    """Qubes forum #9869's quoted `lspci -vv` block of 8086:272b, cut before "Kernel driver in
    use": bookworm's pci.ids had only "Device 272b", a wired-looking nameless device; trixie's
    names it the Wi-Fi 7 BE20x, so the user sees the chip and that it is a Wi-Fi NIC."""
    inv = inspect_bundle(CORPUS / "new65_x86_qubes9869_be200_device_272b_quoted_lspci_vv_truncated")
    (nic,) = inv.nics
    assert nic.bus_path == "0000:2f:00.0"
    assert nic.chip is not None and "BE20" in nic.chip
    assert nic.wireless is True


def test_the_ids_are_trixies_pci_ids() -> None:
    """The shipped databases say where they came from (VERSION.json and each file's source)."""
    stamp = json.loads((IDS / "VERSION.json").read_text(encoding="utf-8"))
    assert stamp["pci"]["package_version"] == "0.0~2025.06.09-1"
    assert stamp["pci"]["database_version"] == "2025.06.09"
    assert load_ids().pci_devices["8086:272b"].startswith("Wi-Fi 7(802.11be)")


def test_a_killer_rebrand_igc_binds_is_an_i225_by_the_kernels_own_macro() -> None:
    """pci.ids 2025 names 8086:3101 "Killer E3100X 2.5 Gigabit Ethernet Controller": a model
    that is no I225/I226 by its words, which made igc "a driver of two chip families" and left
    every igc NIC unnamed. igc_main.c's igc_pci_tbl[] binds it as IGC_DEV_ID_I225_K2
    (igc_hw.h): the kernel's name is an I225, so igc still names one family."""
    igc = load_kernel_drivers().get("igc")
    assert igc is not None
    assert id_macro(igc.file, "3101") == "IGC_DEV_ID_I225_K2"
    assert "Killer" in load_ids().pci_devices["8086:3101"]
    assert other_chips("igc", "Intel I225/I226 I225-LM I225-V I226-LM") == []


def test_an_igc_nic_keeps_its_i225_name_and_its_link_below_2500_finding() -> None:
    """LEDE forum #12484: eth1 on igc linked at 1000 Mbit/s. The I225/I226 is named from igc
    alone and its 2.5G line rate gives the link-below-capability finding; the regen without the
    kernel's macros lost both (the chip became "a chip of the igc driver's family")."""
    inv = inspect_bundle(CORPUS / "x86_lede_12484_igc_eth0_1000_grep_prompt")
    (nic,) = [n for n in inv.nics if n.driver == "igc"]
    assert nic.chip == "Intel I225/I226"
    assert "link-below-capability" in {f.id for f in inv.findings}


def test_mt7615e_alone_is_its_kconfig_family_since_pci_ids_names_the_mt7663() -> None:
    """mt7615e binds 14c3:7663 too, which pci.ids 2025 names "MT7663 802.11ac PCI Express
    Wireless Network Adapter" (the Kconfig prompt: "MediaTek MT7615E and MT7663E (PCIe)
    support"): a line of mt7615e alone is no longer called an MT7615E, it shows the family."""
    inv = inspect_bundle(CORPUS / "x86_mt76_500_mt7615e_swiotlb_buffer_full")
    (nic,) = [n for n in inv.nics if n.driver == "mt7615e"]
    assert nic.chip is None
    assert nic.chip_family is not None and "MT7663E" in nic.chip_family


# --- a bus name a device-tree node gives too names no one driver -------------------------------

_DMESG = Path(__file__).resolve().parents[1] / "captures" / "dmesg"
_SSD20X_LOG = _DMESG / "gaps31_ssd20x_wirelesstag_12_libphy_mdio_probed_vendor_emac.txt"


def test_a_vendor_emacs_bare_mdio_bus_is_no_mediatek_nic() -> None:
    """openwrt-ssd20x#12: a SigmaStar board's vendor EMAC registers a bus printed "libphy: mdio:
    probed". mtk_eth_soc.c names its bus "mdio", but so does every driver that names its bus
    after the device-tree node it looks up as "mdio" (mv88e6xxx/chip.c: `bus->name =
    np->full_name` on of_get_child_by_name(np, "mdio")): the line names no one driver, and the
    user sees no MediaTek NIC on a board that has none."""
    text = _SSD20X_LOG.read_text(encoding="utf-8")
    assert "libphy: mdio: probed" in text
    inv = inventory_of({"dmesg": text})
    assert [n for n in inv.nics if n.driver == "mtk_soc_eth"] == []


def test_the_bus_names_table_says_why_mdio_names_no_driver() -> None:
    """The generated table keeps the literal's file and lists the node-naming files beside it;
    a name only one driver gives still names it (fec's "fec_enet_mii_bus")."""
    path = resource_root() / "kernel_source" / "mdio_bus_names.json"
    row = json.loads(path.read_text(encoding="utf-8"))["names"]["mdio"]
    assert row["file"] == "drivers/net/ethernet/mediatek/mtk_eth_soc.c"
    assert "drivers/net/dsa/mv88e6xxx/chip.c" in row["node_named_in"]
    assert mdio_bus_driver("mdio") is None
    assert mdio_bus_driver("fec_enet_mii_bus") == "fec"
