"""Classes that the fifty-second unseen set (slow-network threads with measurements: routers'
/proc/interrupts with every network interrupt on CPU0, an x86 router's PCI-MSI vectors, a
laptop's lshw at 10Mbit/s, a Markdown-mangled `lsusb -t`; tests/captures/corpus/slow52_*)
showed misread. Every output here is one of those bundles' (named beside it, with its
SOURCE.md); the corpus test checks whole bundles."""

from __future__ import annotations

from sbctune.advice.inspect import inspect_bundle, inventory_from_raw
from sbctune.inventory.model import Inventory
from sbctune.inventory.msi_hwirq import msi_pci_address
from sbctune.inventory.parsers.lsusb import parse_lsusb_tree
from sbctune.inventory.raw import RawOutputs
from tests.corpus_support import CORPUS, findings_of

_RINCAT = "slow52_x86_rincat_83_lsusb_t_rtl88x2bu_480m_markdown_pipes"
_LEDE = "slow52_x86_lede_10394_proc_interrupts_four_rtl8111_msi_spread"
_XDR6088 = "slow52_xdr6088_openwrt_14843_proc_interrupts_15100000_ethernet_cpu0"
_MR8300 = "slow52_mr8300_openwrt_16818_proc_interrupts_ipq40xx_edma_txq_cpu0"
_LATITUDE = "slow52_latitude5590_mesh_776_lshw_i219lm_e1000e_10mbit"


def _stored(bundle: str, kind: str = "commands") -> str:
    (path,) = (CORPUS / bundle / kind).glob("*.txt")
    return path.read_text(encoding="utf-8")


def _interrupts(text: str) -> Inventory:
    inv = inventory_from_raw(RawOutputs(files={"/proc/interrupts": text}))
    assert isinstance(inv, Inventory)
    return inv


def _lshw(text: str) -> Inventory:
    inv = inventory_from_raw(RawOutputs(commands={"sudo lshw": text}))
    assert isinstance(inv, Inventory)
    return inv


# --- `lsusb -t` whose "|__" a Markdown page turned into "| " -----------------------------------


def test_lsusb_tree_with_markdown_eaten_underscores_is_still_a_tree() -> None:
    """usbutils prints "|__ Port"; GitHub's Markdown took the "__" pairs as emphasis and the
    issue shows "    | Port 2: Dev 3, ...": the rtl88x2bu adapter is on bus 2, port 2, at 480M."""
    text = _stored(_RINCAT)
    assert "    | Port 2: Dev 3, If 0, Class=Vendor Specific Class, Driver=rtl88x2bu, 480M" in text
    tree, _warnings = parse_lsusb_tree(text)
    node = next(n for n in tree.nodes if n.driver == "rtl88x2bu")
    assert (node.bus, node.port_path, node.speed_mbps) == (2, "2", 480.0)
    hid = next(n for n in tree.nodes if n.driver == "usbhid")
    assert (hid.bus, hid.port_path) == (1, "1.2")  # the indent still nests it below the hub


# --- an out-of-tree driver named for a chip is that chip's (Wi-Fi) NIC ------------------------


def test_out_of_tree_driver_named_for_a_chip_makes_a_wifi_nic() -> None:
    """rtl88x2bu is in neither 6.1 nor 6.12; its name encodes the RTL88x2BU, a family the
    kernel's own Wi-Fi drivers name (rtw88's 8822B: oot_chips, vendor_chips.json). Bound in
    `lsusb -t`, it is the user's Wi-Fi adapter, at 480M."""
    inv = inspect_bundle(CORPUS / _RINCAT)
    (nic,) = inv.nics
    assert (nic.driver, nic.bus, nic.bus_path, nic.usb_speed_mbps) == (
        "rtl88x2bu",
        "usb",
        "2-2",
        480,
    )
    assert nic.chip == "RTL88x2BU"
    assert nic.wireless is True


def test_other_drivers_of_that_tree_make_no_nic() -> None:
    """The same paste's card reader (rtsx_usb: no chip model in its name), the Bluetooth and
    HID interfaces are no NIC."""
    inv = inspect_bundle(CORPUS / _RINCAT)
    assert [n.driver for n in inv.nics] == ["rtl88x2bu"]


# --- a PCI/MSI vector's number names its device ------------------------------------------------


def test_pci_msi_hwirq_spells_the_pci_address() -> None:
    """pci_msi_domain_calc_hwirq() (drivers/pci/msi/irqdomain.c): msi_index | dev id << 11 |
    domain << 27. The lede paste's own ahci line checks it: 311296 is 0000:00:13.0."""
    assert msi_pci_address("PCI-MSI", "311296") == "0000:00:13.0"
    assert msi_pci_address("PCI-MSI", "524288") == "0000:01:00.0"
    assert msi_pci_address("ITS-MSI", "524289") == "0000:01:00.0"  # vector 1 of the same device
    assert msi_pci_address("IR-PCI-MSI", "2097152") == "0000:04:00.0"
    assert msi_pci_address("IO-APIC", "4") is None  # no PCI/MSI domain: no address
    assert msi_pci_address("GICv3", "229") is None
    assert msi_pci_address("PCI-MSI", "9" * 30) is None  # no such number


def test_msi_vectors_place_each_nic_at_its_pci_address() -> None:
    """The four RTL8111s of coolsnowwolf/lede#10394 are known only by their PCI-MSI vectors:
    each now has its PCI address, and their interrupts, on CPU2 and CPU3, give no CPU0 finding."""
    inv = inspect_bundle(CORPUS / _LEDE)
    places = {n.name: n.bus_path for n in inv.nics}
    assert places == {
        "eth0": "0000:01:00.0",
        "eth1": "0000:02:00.0",
        "eth2": "0000:03:00.0",
        "eth3": "0000:04:00.0",
    }
    assert not findings_of(inv, "irq-on-cpu0")


# --- a MAC's interrupt named by its device-tree device ----------------------------------------


def test_interrupt_named_by_an_ethernet_node_is_that_mac() -> None:
    """mtk_eth_soc requests its interrupt with dev_name(): "15100000.ethernet" (the node's unit
    address and its generic name, of_device_make_bus_id()). The TL-XDR6088's frame engine took
    518735265 interrupts, all on CPU0: the user is told."""
    inv = inspect_bundle(CORPUS / _XDR6088)
    (nic,) = inv.nics
    assert (nic.bus, nic.bus_path, nic.irqs) == ("platform", "15100000.ethernet", [130])
    assert findings_of(inv, "irq-on-cpu0")


def test_per_queue_interrupts_of_an_ethernet_node_join_one_mac() -> None:
    """OpenWrt's ipqess names one interrupt per queue, "c080000.ethernet:txq0" ...: one MAC with
    the four shown, every count on CPU0 (the MR8300 under iperf3)."""
    inv = inspect_bundle(CORPUS / _MR8300)
    (nic,) = inv.nics
    assert (nic.bus_path, nic.irqs) == ("c080000.ethernet", [69, 73, 77, 81])
    assert findings_of(inv, "irq-on-cpu0")


def test_other_device_tree_devices_interrupts_make_no_nic() -> None:
    """Only the node name "ethernet" says network: the same paste's SPI, crypto and xHCI
    devices ("1100a000.spi", "10320000.crypto", "xhci-hcd:usb1") and the switch's own mt7530
    line are no NIC."""
    text = _stored(_XDR6088, "files")
    lines = [line for line in text.splitlines() if "15100000.ethernet" not in line]
    assert len(lines) == len(text.splitlines()) - 1
    assert _interrupts("\n".join(lines) + "\n").nics == []


# --- lshw's capacity: the floor of what the NIC can do ----------------------------------------


def test_lshw_link_below_capacity_is_told() -> None:
    """The Latitude 5590's I219-LM: "size: 10Mbit/s", "capacity: 1Gbit/s" (robotology/mesh-
    support#776, measured ~30 Mbit/s). No catalog chip and no ethtool: lshw's capacity is what
    the NIC can do at least, so the user hears the link is far below it."""
    inv = inspect_bundle(CORPUS / _LATITUDE)
    (nic,) = inv.nics
    assert (nic.link_speed_mbps, nic.max_link_speed_mbps) == (10, 1000)
    assert findings_of(inv, "link-below-capability")


def test_lshw_capacity_met_gives_no_finding() -> None:
    """The same node linked at its capacity: nothing to tell."""
    text = _stored(_LATITUDE).replace("size: 10Mbit/s", "size: 1Gbit/s")
    text = text.replace("speed=10Mbit/s", "speed=1Gbit/s")
    inv = _lshw(text)
    (nic,) = inv.nics
    assert nic.link_speed_mbps == 1000
    assert not findings_of(inv, "link-below-capability")
