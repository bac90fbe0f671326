"""ip (JSON and text) and ifconfig on real captures."""

from __future__ import annotations

from sbctune.inventory.parsers import parse_ifconfig, parse_ip_json, parse_ip_text


def test_seed004_ip_link_show(capture):
    res, warnings = parse_ip_text(capture("ip_link/seed004_cm4_ip_link_show.txt"))
    assert warnings == []
    assert res.names == ["lo", "eth0", "eth1", "eth2", "eth3", "eth4", "wlan0"]
    eth0, eth1 = res.get("eth0"), res.get("eth1")
    assert eth0.mac == "b8:27:eb:5c:89:43" and eth0.operstate == "UP" and eth0.has_carrier
    assert eth1.mac == "90:e2:ba:33:72:64" and eth1.has_carrier is False and eth1.is_up is False
    assert res.get("wlan0").operstate == "DOWN" and eth0.qdisc == "mq" and eth0.mtu == 1500


def test_ip_a_pi3bplus_no_carrier(capture):
    res, warnings = parse_ip_text(capture("ip_addr/rpi3bplus_3939_excerpt.txt"))
    assert warnings == []
    assert res.get("lo").ipv4 == ["127.0.0.1"]
    assert res.get("eth0").has_carrier is False


def test_ip_s_link_counters(capture):
    res, warnings = parse_ip_text(capture("dev_vm/ip_s_link.txt"))
    assert warnings == []
    eth0 = res.get("eth0")
    assert (eth0.rx_bytes, eth0.rx_packets, eth0.tx_bytes, eth0.tx_packets) == (
        154008876,
        3726,
        189796,
        1873,
    )
    veth = res.get("sbctexph")
    assert veth.parent == "if6" and veth.index == 7
    assert res.get("sbctexpi").rx_dropped == 2


def test_ip_addr_text(capture):
    res, warnings = parse_ip_text(capture("dev_vm/ip_addr.txt"))
    assert warnings == []
    eth0 = res.get("eth0")
    assert next((a.family, a.address, a.prefixlen) for a in eth0.addresses) == (
        "inet",
        "192.0.2.2",
        24,
    )
    assert eth0.addresses[0].broadcast == "192.0.2.255" and eth0.addresses[0].scope == "global"


def test_ip_json_addr_and_link(capture):
    res, warnings = parse_ip_json(capture("dev_vm/ip_j_addr.txt"))
    assert warnings == []
    assert res.names == ["lo", "ifb0", "ifb1", "eth0", "sbctexph", "sbctexpi"]
    eth0 = res.get("eth0")
    assert eth0.mtu == 1400 and eth0.operstate == "UP" and eth0.mac == "02:fc:00:00:00:01"
    assert eth0.ipv4 == ["192.0.2.2"]
    res, warnings = parse_ip_json(capture("dev_vm/ip_j_link.txt"))
    assert warnings == [] and len(res.interfaces) == 6


def test_ip_json_truncated_keeps_complete_entries(capture):
    text = capture("dev_vm/ip_j_addr.txt")
    cut = text[: text.index('"ifname":"eth0"') + 5]
    res, warnings = parse_ip_json(cut)
    assert res.names == ["lo", "ifb0", "ifb1"]
    assert "not complete JSON" in warnings[0].message


def test_ifconfig_old_format_seed001(capture):
    res, warnings = parse_ifconfig(capture("ifconfig/seed001_pi1_old_format.txt"))
    assert warnings == []
    eth0 = res.get("eth0")
    assert eth0.rx_packets == 291554 and eth0.tx_packets == 68565
    assert (eth0.rx_bytes, eth0.tx_bytes) == (434634216, 5646424)
    assert eth0.addresses[0].address == "*.*.*.*"  # censored by the author, kept


def test_ifconfig_old_format_rx_drops(capture):
    res, warnings = parse_ifconfig(capture("ifconfig/rpi3_dropped_1954_old.txt"))
    assert warnings == []
    eth0 = res.get("eth0")
    assert eth0.rx_dropped == 15336 and eth0.mtu == 1500 and "RUNNING" in eth0.flags
    assert eth0.addresses[0].netmask == "255.255.255.0"


def test_ifconfig_old_format_three_interfaces(capture):
    res, warnings = parse_ifconfig(capture("ifconfig/rpi_sjoner_6_multi.txt"))
    assert warnings == []
    assert res.names == ["eth0", "lo", "wlan0"]
    assert "RUNNING" not in res.get("eth0").flags
    assert res.get("wlan0").ipv4 == ["192.168.2.106"]


def test_ifconfig_new_format(capture):
    res, warnings = parse_ifconfig(capture("ifconfig/pihole_utils_rpi_new_format.txt"))
    assert warnings == []
    eth0 = res.get("eth0")
    assert eth0.mac == "b8:27:eb:36:ff:c7" and eth0.mtu == 1500
    assert eth0.ipv4 == ["192.168.178.6"] and eth0.rx_dropped == 47 and eth0.tx_bytes == 37269794
    res, warnings = parse_ifconfig(capture("dev_vm/ifconfig.txt"))
    assert warnings == [] and res.names == ["eth0", "lo", "sbctexph", "sbctexpi"]
