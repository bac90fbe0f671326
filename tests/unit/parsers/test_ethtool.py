"""ethtool and its -i/-k/-g/-l/-c variants on real captures."""

from __future__ import annotations

from sbctune.inventory.parsers import (
    parse_ethtool,
    parse_ethtool_channels,
    parse_ethtool_coalesce,
    parse_ethtool_driver,
    parse_ethtool_features,
    parse_ethtool_rings,
)


def test_seed001_100_full(capture):
    s, warnings = parse_ethtool(capture("ethtool/seed001_pi1_smsc95xx.txt"))
    assert warnings == []
    assert s.interface == "eth0"
    assert (s.speed_mbps, s.duplex, s.autoneg, s.port, s.link_detected) == (
        100,
        "Full",
        True,
        "MII",
        True,
    )
    assert s.supported_ports == ["TP", "MII"]
    assert s.supported_link_modes == [
        "10baseT/Half",
        "10baseT/Full",
        "100baseT/Half",
        "100baseT/Full",
    ]
    assert s.link_partner_link_modes[-1] == "100baseT/Full"
    assert s.max_supported_mbps == 100
    assert s.extra["Current message level"] == "0x00000007 (7) drv probe link"


def test_unknown_speed_and_duplex_no_link(capture):
    s, warnings = parse_ethtool(capture("ethtool/pi3b_smsc95xx_unknown_netbox_3175.txt"))
    assert warnings == []
    assert s.speed_mbps is None and s.duplex is None and s.link_detected is False
    assert s.port == "Twisted Pair"
    assert s.extra["Supported FEC modes"] == "Not reported"


def test_lan78xx_truncated_gives_modes_only(capture):
    s, warnings = parse_ethtool(capture("ethtool/pi3bplus_lan78xx_2642_excerpt.txt"))
    assert warnings == []
    assert s.max_supported_mbps == 1000 and "1000baseT/Full" in s.advertised_link_modes
    assert s.speed_mbps is None and s.link_detected is None  # cut off: unknown, not a crash


def test_lan7800_tabs(capture):
    s, _ = parse_ethtool(capture("ethtool/openwrt_lan7800_seeed_42_excerpt.txt"))
    assert s.supported_link_modes[-1] == "1000baseT/Full" and s.supported_ports == ["TP", "MII"]


def test_25g_nic_linked_at_100(capture):
    s, warnings = parse_ethtool(capture("ethtool/eno1_rtl_25g_bazzite_5094_excerpt.txt"))
    assert warnings == []
    assert s.interface == "eno1" and s.speed_mbps == 100 and s.max_supported_mbps == 2500
    assert s.extra["master-slave cfg"] == "preferred slave"


def test_ethtool_i(capture):
    info, warnings = parse_ethtool_driver(capture("ethtool_i/bnx2_ethq_14.txt"))
    assert warnings == []
    assert (info.driver, info.version, info.bus_info) == ("bnx2", "2.2.6", "0000:03:00.0")
    assert info.firmware_version == "bc 5.2.3 NCSI 2.0.12"
    assert info.bus_type == "pci"
    assert info.extra["expansion-rom-version"] == ""


def test_ethtool_i_bus_types():
    assert (
        parse_ethtool_driver("driver: r8152\nbus-info: usb-0000:01:00.0-2\n")[0].bus_type == "usb"
    )
    assert parse_ethtool_driver("bus-info: fd580000.ethernet\n")[0].bus_type == "platform"


def test_ethtool_k_fixed(capture):
    f, warnings = parse_ethtool_features(capture("ethtool_k/rpi2_dietpi_4563_excerpt.txt"))
    assert warnings == []
    assert f.is_on("rx-checksumming") is True
    assert f.features["tx-checksum-ipv6"].fixed and not f.features["tx-checksum-ipv6"].enabled
    f, warnings = parse_ethtool_features(capture("ethtool_k/firewalla_purple_eth1.txt"))
    assert warnings == [] and f.interface == "eth1"
    assert f.is_on("generic-receive-offload") is True and f.is_on("rx-all") is False


def test_ethtool_g(capture):
    r, warnings = parse_ethtool_rings(capture("ethtool_g/ifupdown2_255_max.txt"))
    assert warnings == []
    assert (r.rx_max, r.rx, r.tx_max, r.tx) == (4096, 4096, 4096, 4096)
    assert r.maximums["RX Mini"] is None
    r, warnings = parse_ethtool_rings(capture("ethtool_g/r8169_torvalds_1132.txt"))
    assert warnings == [] and r.interface == "enp1s0"
    assert r.rx_max == 255 and r.rx is None  # the current part was not pasted


def test_ethtool_l(capture):
    c, warnings = parse_ethtool_channels(capture("ethtool_l/firedancer_1427.txt"))
    assert warnings == []
    assert (c.maximums["RX"], c.rx, c.tx, c.combined) == (4, 4, 1, None)
    c, _ = parse_ethtool_channels(capture("ethtool_l/ena_amzn_123.txt"))
    assert (c.combined_max, c.combined) == (2, 2)


def test_ethtool_c(capture):
    c, warnings = parse_ethtool_coalesce(capture("ethtool_c/tuned_726_enp1s0.txt"))
    assert warnings == []
    assert c.interface == "enp1s0"
    assert c.adaptive_rx is None and c.adaptive_tx is None  # n/a
    assert (c.rx_usecs, c.tx_usecs, c.rx_frames) == (3, 3, None)


def test_ethtool_error_lines_become_warnings():
    s, warnings = parse_ethtool(
        "Settings for eth1:\n"
        "Cannot get wake-on-lan settings: Operation not permitted\n"
        "\tLink detected: yes\n"
    )
    assert s.link_detected is True
    assert any("ethtool reported an error" in w.message for w in warnings)


def test_wrong_command_output(capture):
    s, warnings = parse_ethtool(capture("lspci/seed004_cm4_i340.txt"))
    assert s.speed_mbps is None
    assert warnings and warnings[0].source == "ethtool"
