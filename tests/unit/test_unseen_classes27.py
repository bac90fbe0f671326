"""Classes that the twenty-seventh unseen set (boards that are not Raspberry Pis, in no earlier
set; tests/captures/corpus) showed misread. Every log here is one of those bundles' (named beside
it, with its SOURCE.md), or a line of one changed to show what must NOT be read; the corpus test
checks whole bundles."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from sbctune.advice.inspect import inspect_bundle
from sbctune.catalog.kernel_drivers import driver_for_files
from sbctune.catalog.kernel_messages import load_messages
from tests.corpus_support import CORPUS, corpus_line, dmesg_events, dmesg_inventory

_XAVIER = (
    "xavier_nx_nvidia_forum_196776_eqos_ether_mac_dt_failed_99_tegra_i2c_timeouts_i2cdump_glued"
)
_PLUG2L = "plug2l_plugcomputer_1769_kirkwood_mv643xx_eth_mac_all_zero_uboot_serial_no_timestamps"
_CUDY = "cudy_m3000_openwrt_21051_mtk_soc_eth_2500base_x_link_up_unknown_speed_grep_label"
_IPQ60XX = "ipq60xx_lede_pr10696_nss_dp_phy_link_is_down_nss_crypto_soc_kmodloader"
_CUBIETRUCK = "cubietruck_berryboot_100_sunxi_emac_tx_time_out_resetting_single_line_no_timestamp"


# --- netdev_printk()'s "(unnamed net_device)": the device is a network device, whatever driver ---


def test_a_line_of_an_unregistered_net_device_makes_its_device_a_nic() -> None:
    """L4T's eqos (not in the 6.1/6.12 tables) on a Xavier NX: "eqos 2490000.ether_qos (unnamed
    net_device) (uninitialized): ether-mac read from DT failed -99" (__netdev_printk() of a
    netdev not yet registered: include/linux/netdevice.h netdev_name(), netdev_reg_state())."""
    inv = inspect_bundle(CORPUS / _XAVIER)
    assert [(n.bus_path, n.driver, n.bus) for n in inv.nics] == [
        ("2490000.ether_qos", "eqos", "platform")
    ]
    assert "driver-complaint" in {f.id for f in inv.findings}


def test_the_same_line_without_the_net_device_words_is_no_nic() -> None:
    line = corpus_line(_XAVIER, "ether_qos").replace(" (unnamed net_device) (uninitialized)", "")
    assert dmesg_inventory(line).nics == []


# --- "net eth0: ..." is the netdev's own class device: the interface, its driver by its words ---


def test_a_net_class_line_names_the_interface_and_its_driver_by_the_format() -> None:
    """A Plug2L on 2.6.32: "net eth0: port 0 with MAC address 00:00:00:00:00:00" (dev_printk on
    the net_device's own struct device, class "net"): mv643xx_eth.c's notice format."""
    inv = inspect_bundle(CORPUS / _PLUG2L)
    assert [(n.name, n.driver, n.bus) for n in inv.nics] == [
        ("eth0", "mv643xx_eth", "platform"),
        ("eth1", "mv643xx_eth", "platform"),
    ]


def test_a_net_class_line_in_no_drivers_words_names_no_driver() -> None:
    inv = dmesg_inventory("net eth0: something else entirely happened here")
    assert [(n.name, n.driver) for n in inv.nics] == [("eth0", None)]


def test_a_word_that_is_no_interface_after_net_is_no_nic() -> None:
    assert dmesg_inventory("net 12: port 0 with MAC address 00:00:00:00:00:00").nics == []


# --- phylink's "Link is Up - Unknown/Full": the duplex is said, the speed is not ---


def test_an_unknown_speed_still_gives_the_duplex_and_no_speed() -> None:
    """A Cudy M3000: "Link is Up - Unknown/Full - flow control off" (phylink_link_up() with
    phy_speed_to_str(SPEED_UNKNOWN), drivers/net/phy/phy-core.c)."""
    inv = inspect_bundle(CORPUS / _CUDY)
    assert [(n.name, n.link_detected, n.link_speed_mbps, n.duplex) for n in inv.nics] == [
        ("eth0", True, None, "full")
    ]


@given(st.sampled_from(["Full", "Half", "full"]), st.sampled_from(["Unknown", "Unknown!", "?"]))
def test_only_the_unknown_word_reads_a_duplex(duplex: str, speed: str) -> None:
    line = f"mtk_soc_eth 15100000.ethernet eth0: Link is Up - {speed}/{duplex} - flow control off"
    (nic,) = dmesg_inventory(line).nics
    want = duplex.lower() if speed == "Unknown" and duplex != "full" else None
    assert (nic.link_speed_mbps, nic.duplex) == (None, want)


# --- qca-nss-dp's own words: "PHY Link up speed: 1000" and "PHY Link is down" ---


def test_nss_dps_own_link_down_words_are_a_link_down_not_another_drivers_complaint() -> None:
    """An IPQ60xx router: "nss-dp 3a001000.dp eth0: PHY Link is down" is the NSS data plane's
    link line (qca-nss-dp nss_dp_main.c), not niu.c's "Link is down" warning."""
    inv = inspect_bundle(CORPUS / _IPQ60XX)
    # eth1-eth3 are named only by the bridge's port lines (corpus30): there, no link either way
    assert [(n.name, n.link_detected) for n in inv.nics] == [
        ("eth0", False),
        ("eth1", None),
        ("eth2", None),
        ("eth3", None),
    ]
    ids = {f.id for f in inv.findings}
    assert "link-down" in ids and "driver-complaint" not in ids


# --- a driver's own transmit-timeout words on its device, no interface named ---


def test_a_drivers_tx_time_out_on_its_device_is_a_transmit_timeout() -> None:
    """A Cubietruck on linux-sunxi 3.4: "sunxi_emac sunxi_emac.0: tx time out, resetting emac."
    (mainline sun4i-emac.c emac_timeout() prints the same on its device: "tx time out.")."""
    inv = inspect_bundle(CORPUS / _CUBIETRUCK)
    assert [(n.bus_path, n.driver) for n in inv.nics] == [("sunxi_emac.0", "sunxi_emac")]
    assert "tx-timeout" in {f.id for f in inv.findings}


def test_time_out_words_that_are_not_the_message_start_are_no_transmit_timeout() -> None:
    line = corpus_line(_CUBIETRUCK, "tx time out").replace("tx time out", "after a tx: time out")
    assert not [k for k, _ in dmesg_events(line) if k == "tx_timeout"]


def test_a_format_from_one_drivers_own_file_names_it_and_a_shared_file_names_none() -> None:
    """drivers/net/ethernet/marvell/ holds mv643xx_eth.c, mvneta.c, skge.c, sky2.c ...: the
    directory names no one driver, the file does; net/core/dev.c is no driver's."""
    assert [
        getattr(driver_for_files(files), "name", None)
        for files in (
            ("drivers/net/ethernet/marvell/mv643xx_eth.c",),
            ("net/core/dev.c",),
            ("drivers/net/ethernet/marvell/skge.c", "drivers/net/ethernet/marvell/sky2.c"),
        )
    ] == ["mv643xx_eth", None, None]


# --- a format of one word of its own is no line's source ("%s failed") ---

_NSLU2 = "nslu2_yahoo_22231_ixp4xx_mii_read_failed_npe_firmware_request_indented_mail"


def test_a_one_word_format_is_no_source_of_a_line_that_ends_in_that_word() -> None:
    """An NSLU2's 2.6.26 ixp4xx "eth0: MII read failed" was cited as sparx5_netdev.c's "%s
    failed" (and the finding said its driver's file was sparx5's); two words of a format's own,
    or an errno pointer, still name a source."""
    table = load_messages()
    assert table.match(corpus_line(_NSLU2, "MII read failed").strip()) is None
    found = table.match("stmmaceth 10020000.gmac: Failed to reset the dma")
    assert found is not None and found.format == "Failed to reset the dma"
    sparx5 = [f for f in inspect_bundle(CORPUS / _NSLU2).findings if "sparx5" in f.summary]
    assert sparx5 == []


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=120))
def test_garbage_after_net_never_breaks_the_parser(tail: str) -> None:
    for kind, fields in dmesg_events("[    1.000000] net " + tail):
        if kind == "device" and "iface" in fields and not fields.get("driver"):
            assert tail.startswith(fields["iface"] + ": ")


# --- getty's "HOST login: " glued before a kernel line; the log's lone PHY and lone interface ---

_HI3518E = "hi3518e_hi35xx_buildroot_4_himii_phy_link_up_100_glued_login_prompt_vendor_insmod"


def test_a_kernel_line_glued_to_gettys_login_prompt_is_read() -> None:
    line = corpus_line(_HI3518E, "login: PHY")
    assert [f.get("phy_id") for k, f in dmesg_events(line) if k == "old_format"] == ["himii:01"]
    assert dmesg_events(line.replace("hi3518e login", "hi 3518e login")) == []


def test_the_logs_only_phy_and_only_interface_are_one_nic() -> None:
    """A Hi3518E on 3.0.8: "PHY: himii:01 - Link is Up - 100/Full" (phy_print_status() names
    the PHY by its MDIO bus id) and eth0 of ADDRCONF's lines: one MAC, one PHY."""
    inv = inspect_bundle(CORPUS / _HI3518E)
    assert [(n.name, n.link_speed_mbps, n.duplex) for n in inv.nics] == [("eth0", 100, "full")]


def test_a_second_interface_ties_the_phy_to_none() -> None:
    inv = dmesg_inventory(
        "PHY: himii:01 - Link is Up - 100/Full",
        "ADDRCONF(NETDEV_CHANGE): eth0: link becomes ready",
        "ADDRCONF(NETDEV_UP): eth1: link is not ready",
    )
    assert [(n.name, n.link_speed_mbps) for n in inv.nics] == [("eth0", None), ("eth1", None)]
