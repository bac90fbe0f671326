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


def test_a_format_led_by_the_name_reads_no_first_word_as_one() -> None:
    """atlx.c's "%s link is down" would take any first word for a name: an EdgeSwitch's
    "ar724x-pci 180c0000.pcie-controller: PCIe link is down" (corpus/edgeswitch_8xp_*) names
    no interface "PCIe"."""
    from sbctune.catalog.netdev_named_formats import iface_named

    assert iface_named("PCIe link is down") is None
    inv = dmesg_inventory("[    1.702062] ar724x-pci 180c0000.pcie-controller: PCIe link is down")
    assert "PCIe" not in [n.name for n in inv.nics]


# --- an interface name that starts with a digit ---

_NSS_DP = "pcnic41_qhora301w_omr_3426_nss_dp_10g_ports_phy_link_up_speed"


def test_nss_dp_s_ports_named_10g_are_interfaces() -> None:
    """A QNAP QHora-301W on Qualcomm's out-of-tree nss-dp: "nss-dp 3a001800.dp5 10g-1: PHY Link
    up speed: 10000". net/core/dev.c dev_valid_name() (6.1, 6.12) sets no rule on a name's
    first character, so 10g-1 and 10g-2 are NICs as lan4 on the next line is."""
    inv = inventory_of({"dmesg": corpus_output(_NSS_DP)})
    got = sorted((n.name, n.bus_path, n.link_speed_mbps) for n in inv.nics)
    assert got == [
        ("10g-1", "3a001800.dp5", 10000),
        ("10g-2", "3a007000.dp6-syn", 10000),
        ("lan4", "3a001000.dp1", 100),
    ]


def test_a_number_or_a_port_path_is_no_interface_name() -> None:
    """Digits, dots and dashes alone ("12", a USB port path "2-1.4") name no interface."""
    from sbctune.inventory.sightings import iface_key

    assert iface_key("10g-1") == ("if", "10g-1")
    assert iface_key("12") is None
    assert iface_key("2-1.4") is None


# --- link lines in other drivers' words ---

_OMR_BOX = "pcnic41_x86_omr_2978_igb_ixgbe_sfp_tg3_logread_then_dmesg"


def test_ixgbe_s_and_tg3_s_link_lines_give_the_speed() -> None:
    """ixgbe_main.c ixgbe_watchdog_link_is_up(): "NIC Link is Up %s, Flow Control: %s" with
    speed_str "1 Gbps" (no duplex); tg3.c tg3_link_report(): "Link is up at %d Mbps, %s
    duplex" (6.1 and 6.12 alike)."""
    inv = inventory_of({"dmesg": corpus_output(_OMR_BOX)})
    by_name = {n.name: n for n in inv.nics}
    assert (by_name["eth9"].link_speed_mbps, by_name["eth9"].driver) == (1000, "ixgbe")
    assert (by_name["eth0"].link_speed_mbps, by_name["eth0"].duplex) == (1000, "full")
    assert by_name["eth0"].driver == "tg3"


def test_ixgbe_s_fractional_speed_is_read_whole() -> None:
    """speed_str "2.5 Gbps" is 2500 Mbit/s."""
    inv = dmesg_inventory(
        "[   15.651689] ixgbe 0000:01:00.0 eth9: NIC Link is Up 2.5 Gbps, Flow Control: None"
    )
    assert [(n.name, n.link_speed_mbps) for n in inv.nics] == [("eth9", 2500)]


# --- the IDs of a plain lspci line that names the device only by its number ---

_N5105 = "pcnic41_n5105_lede_12436_lspci_i226_device_125c_four_ports"


def test_an_old_pci_ids_device_number_gives_the_ids() -> None:
    """An N5105 mini PC's plain `lspci`: "Intel Corporation Device 125c" (pciutils' names.c
    prints "<vendor> Device %04x" for a device its pci.ids does not list): 8086:125c, the
    I226-V, on each of the four ports."""
    inv = inventory_of({"lspci": corpus_output(_N5105)})
    assert sorted((n.bus_path, n.ids) for n in inv.nics) == [
        (f"0000:0{n}:00.0", "8086:125c") for n in (2, 3, 4, 5)
    ]
    assert all("I226" in (n.chip or "") for n in inv.nics)


def test_a_vendor_no_database_names_gives_no_ids() -> None:
    """A vendor name pci.ids does not hold, or a description that is no "Device %04x", is no
    vendor id."""
    from sbctune.catalog.ids import load_ids

    db = load_ids()
    assert db.ids_by_name("pci", "Intel Corporation Device 125c") == "8086:125c"
    assert db.ids_by_name("pci", "No Such Vendor Inc. Device 125c") is None
    assert db.ids_by_name("pci", "Intel Corporation Ethernet Controller I226-V") is None


# --- netifd's link state ---

_DDNS = "pcnic41_x86_ddnsgo_173_igb_eth3_link_up_netifd_ports_logread"


def test_netifd_s_network_device_line_gives_the_link() -> None:
    """OpenWrt's netifd, device.c device_set_link(): "%s '%s' link is %s" with the device
    type's name ("Network device" for a plain netdev): eth0 and eth2 are up, with no kernel
    link line of their own; br-lan (a "bridge" line) stays no NIC."""
    inv = inventory_of({"logread": corpus_output(_DDNS)})
    by_name = {n.name: n for n in inv.nics}
    assert sorted(by_name) == ["eth0", "eth2", "eth3"]
    assert by_name["eth0"].link_detected is True and by_name["eth2"].link_detected is True
    assert by_name["eth3"].link_speed_mbps == 1000


def test_netifd_s_line_beside_the_kernel_s_is_one_drop_and_the_last_state_wins() -> None:
    """A drop that the kernel and netifd both report is one drop (no link-flapping), and the
    last of netifd's lines says the link: up, down, up again is up."""
    one_drop = dmesg_inventory(
        "Fri Dec 31 12:41:02 2021 daemon.notice netifd: Network device 'eth1' link is down",
        "Fri Dec 31 12:41:02 2021 kern.info kernel: [58437.485179] igc 0000:13:00.0 eth1: NIC "
        "Link is Down",
        "Fri Dec 31 12:41:04 2021 daemon.notice netifd: Network device 'eth1' link is up",
        "Fri Dec 31 12:41:05 2021 kern.info kernel: [58440.469028] igc 0000:13:00.0 eth1: NIC "
        "Link is Up 2500 Mbps Full Duplex, Flow Control: RX/TX",
        command="logread",
    )
    assert "link-flapping" not in {f.id for f in one_drop.findings}
    back_up = dmesg_inventory(
        "Thu Jan  6 10:58:30 2022 daemon.notice netifd: Network device 'eth2' link is up",
        "Thu Jan  6 10:59:30 2022 daemon.notice netifd: Network device 'eth2' link is down",
        "Thu Jan  6 11:00:30 2022 daemon.notice netifd: Network device 'eth2' link is up",
        command="logread",
    )
    assert [(n.name, n.link_detected) for n in back_up.nics] == [("eth2", True)]
