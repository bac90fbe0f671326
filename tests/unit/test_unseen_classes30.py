"""Classes that the thirtieth unseen set (machines with several network devices, old kernels;
tests/captures/corpus) showed misread. Every output here is one of those bundles' (named beside
it, with its SOURCE.md), or a line of one changed to show what must NOT be read; the corpus test
checks whole bundles."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from sbctune.advice.inspect import inspect_bundle
from sbctune.inventory.ifnames import wireless_from_name
from sbctune.inventory.parsers.paste_split import split_known
from sbctune.inventory.parsers.proc_net_dev import parse_proc_net_dev
from tests.corpus_support import CORPUS, corpus_output, dmesg_inventory, inventory_of

_XIAOMI = "xiaomi_openwrtinvasion_116_proc_net_dev_wl_radios_ifb_gre_tunnels"
_MVEBU = "mvebu_openwrt_pr2935_mv88e6085_dsa_lan_ports_configuring_wlan0_bridge"


# --- /proc/net/dev: every interface the kernel has, with its counters ---


def test_proc_net_dev_lists_the_real_interfaces_with_their_counters() -> None:
    """A Xiaomi router's table (net/core/net-procfs.c dev_seq_printf_stats()): eth1 and three
    radios named wl0-wl2; lo, ifb0, gre0, tunl0 (ipip's fallback device) and gretap0 are not
    NICs; wl1's 300 receive errors are read."""
    inv = inspect_bundle(CORPUS / _XIAOMI)
    assert [(n.name, n.wireless) for n in inv.nics] == [
        ("eth1", False),
        ("wl0", True),
        ("wl1", True),
        ("wl2", True),
    ]
    parsed, _ = parse_proc_net_dev(corpus_output(_XIAOMI))
    wl1 = parsed.get("wl1")
    assert wl1 is not None
    assert (wl1.rx_packets, wl1.rx_errors, wl1.tx_packets) == (105902, 300, 69840)
    eth1 = parsed.get("eth1")
    assert eth1 is not None and (eth1.rx_dropped, eth1.tx_bytes) == (10, 17084883)


def test_a_pasted_proc_net_dev_table_is_recognised_in_a_mixed_paste() -> None:
    table = corpus_output(_XIAOMI).split("\n", 1)[1]  # without the script's own banner
    pieces = split_known(
        "Linux XiaoQiang 3.10.14 #1 MIPS GNU/Linux\n\n----------\n" + table, "uname -a"
    )
    assert [cmd for cmd, _ in pieces] == ["uname -a", "cat /proc/net/dev"]


def test_a_row_cut_short_or_a_banner_is_no_interface() -> None:
    """The excerpt's cut eth0 row ("eth0: 211651962  244501    0    0    0     0") has six
    numbers, not sixteen: no interface, and one unreadable line."""
    parsed, warnings = parse_proc_net_dev(
        "Inter-|   Receive |  Transmit\n  eth0: 211651962  244501    0    0    0     0\n"
    )
    assert parsed.interfaces == []
    assert warnings


@given(st.text(max_size=400))
def test_garbage_never_breaks_the_proc_net_dev_parser(text: str) -> None:
    parsed, _ = parse_proc_net_dev(text)
    assert all(0 < len(i.name) <= 15 for i in parsed.interfaces)


def test_radios_named_wl_and_a_digit_are_wireless_and_wired_names_are_not() -> None:
    assert wireless_from_name("wl0") and wireless_from_name("wl12")
    assert not any(wireless_from_name(n) for n in ("eth1", "lan0", "w0", "owl0"))


# --- a bridge's port and a device set promiscuous exist, though no other line names them ---


def test_bridge_port_and_promiscuous_lines_name_the_dsa_conduit_and_the_radio() -> None:
    """An Armada 38x router (OpenWrt PR 2935): eth0 is named only by "device eth0 entered
    promiscuous mode" (the DSA conduit of lan2-lan4 and wan), wlan0 only by "br-lan: port
    5(wlan0) entered blocking state" (net/bridge/br_stp.c br_log_state())."""
    inv = inspect_bundle(CORPUS / _MVEBU)
    assert sorted((n.name or "", n.driver or "", n.wireless) for n in inv.nics) == [
        ("eth0", "", False),
        ("lan2", "mv88e6085", False),
        ("lan3", "mv88e6085", False),
        ("lan4", "mv88e6085", False),
        ("wan", "mv88e6085", False),
        ("wlan0", "", True),
    ]


def test_a_virtual_bridge_port_is_no_nic() -> None:
    inv = dmesg_inventory(
        "[   21.589479] device veth1a2b3c entered promiscuous mode",
        "[   22.670412] docker0: port 1(veth1a2b3c) entered blocking state",
        "[   22.681178] br-lan: port 2(eth0.1) entered forwarding state",
    )
    assert inv.nics == []


def test_words_that_only_look_like_a_bridge_line_name_nothing() -> None:
    inv = inventory_of({"dmesg": "[    1.0] the device eth9 entered promiscuous mode today\n"})
    assert inv.nics == []
