"""Classes that the forty-first unseen set (desktop-class NICs on small machines: x86 mini PCs
and soft routers on igb/igc/ixgbe/tg3/atlantic, an RTL8126, QNAP QHora-301W boxes on qca-ppe and
nss-dp; tests/captures/corpus/pcnic41_*) showed misread. Every output here is one of those
bundles' (named beside it, with its SOURCE.md), or one changed to show what must NOT be read;
the corpus test checks whole bundles."""

from __future__ import annotations

from tests.corpus_support import corpus_output, dmesg_inventory, inventory_of

# --- a device line that names its interface only inside the message ---

_T550 = "pcnic41_x86_openwrt_dhdaxcw_26_ixgbe_t550_logread_phc_two_functions"
_SOFT_ROUTER = "pcnic41_x86_lede_4791_igb_three_ports_logread_pba_ffffff"


def test_ixgbe_s_phc_lines_tie_each_function_to_its_interface() -> None:
    """ixgbe_ptp.c ixgbe_ptp_create_clock(): e_dev_info("registered PHC device on %s\\n",
    netdev->name) (dev_info of the adapter's PCI device, ixgbe_common.h): each function of the
    two-port card is one NIC with its name, not a nameless device beside a deviceless name."""
    inv = inventory_of({"logread": corpus_output(_T550)})
    got = sorted((n.name, n.bus_path, n.driver, n.bus) for n in inv.nics)
    assert got == [
        ("eth1", "0000:03:00.0", "ixgbe", "pci"),
        ("eth2", "0000:03:00.1", "ixgbe", "pci"),
    ]


def test_igb_s_added_phc_line_names_the_third_port() -> None:
    """igb_ptp.c igb_ptp_init(): dev_info(&adapter->pdev->dev, "added PHC on %s\\n",
    adapter->netdev->name): eth2 at 0000:03:00.0, whose "eth2: (PCIe:..." line was cut."""
    inv = inventory_of({"logread": corpus_output(_SOFT_ROUTER)})
    got = sorted((n.name, n.bus_path, n.driver) for n in inv.nics)
    assert got == [
        ("eth0", "0000:01:00.0", "igb"),
        ("eth1", "0000:02:00.0", "igb"),
        ("eth2", "0000:03:00.0", "igb"),
    ]


def test_a_message_that_is_no_such_format_names_no_interface() -> None:
    """b53_common.c prints "found switch: %s, rev %i" with its own struct's chip name (no
    net_device: the table leaves it out), and a PHC line with words after the name is no
    format of the table: neither makes an interface of its words."""
    inv = dmesg_inventory(
        "[    1.0] b53-srab-switch 18007000.ethernet: found switch: BCM53012, rev 5",
        "[    2.0] igb 0000:03:00.0: added PHC on eth2 and more words",
    )
    assert [n.name for n in inv.nics if n.name] == []
