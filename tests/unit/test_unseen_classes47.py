"""Classes that the forty-seventh unseen set (USB gadget and tethering networking: Pi gadgets
seen from their host, phones tethered to Pis and routers, an iPhone on ipheth, an Xperia's own
rndis0; tests/captures/corpus/gadget47_*) showed misread. Every output here is one of those
bundles' (named beside it, with its SOURCE.md); the corpus test checks whole bundles."""

from __future__ import annotations

from sbctune.advice.inspect import inspect_bundle
from sbctune.inventory.parsers.netif import parse_ifconfig
from tests.corpus_support import CORPUS, inventory_of

# --- net-tools' short interface table (`ifconfig -s`, `netstat -i`) ----------------------------

_PI2_TETHER = "gadget47_pi2_hatena_rndis_host_nexus_one_usb0_ifconfig_s"


def _pi2_ifconfig() -> str:
    return (CORPUS / _PI2_TETHER / "commands" / "001-ifconfig.txt").read_text(encoding="utf-8")


def _short_table() -> str:
    """The paste's `ifconfig -s` alone (prompt, header and three rows)."""
    return "\n".join(_pi2_ifconfig().splitlines()[:5]) + "\n"


def test_ifconfig_s_rows_are_interfaces_with_their_flag_letters() -> None:
    """ife_print_short() (net-tools lib/interface.c) packs the flags into letters: B BROADCAST,
    M MULTICAST, L LOOPBACK, R RUNNING, U UP. The Pi 2's eth0 (`BMU`) is up without carrier;
    the tethered phone's usb0 (`BMRU`) runs. The table was not read at all."""
    table = _short_table()
    assert (
        "eth0       1500 0       493      0      0 0           388      0      0      0 BMU"
        in table
    )
    parsed, _warnings = parse_ifconfig(table)
    by_name = {i.name: i for i in parsed.interfaces}
    assert sorted(by_name) == ["eth0", "lo", "usb0"]
    eth0, usb0, lo = by_name["eth0"], by_name["usb0"], by_name["lo"]
    assert (eth0.mtu, eth0.rx_packets, eth0.tx_packets, eth0.rx_errors) == (1500, 493, 388, 0)
    assert eth0.is_up is True and eth0.has_carrier is False
    assert usb0.has_carrier is True and usb0.rx_packets == 6443
    assert "LOOPBACK" in lo.flags and lo.mtu == 65536


def test_the_pi2_s_eth0_shown_only_by_ifconfig_s_is_a_nic_without_link() -> None:
    """What the user sees: the Pi's own eth0 (no cable) beside the phone's usb0, whose `ifconfig
    usb0` block later in the same file still gives its MAC and address."""
    inv = inspect_bundle(CORPUS / _PI2_TETHER)
    nics = {n.name: n for n in inv.nics}
    assert sorted(nics) == ["eth0", "usb0"], sorted(nics)
    assert nics["eth0"].link_detected is False
    assert nics["usb0"].link_detected is True
    assert nics["usb0"].driver == "rndis_host"
    assert nics["usb0"].mac == "a2:cd:1a:a1:66:8a"


def test_a_row_that_is_not_the_table_s_shape_is_no_interface() -> None:
    """A row cut short (its flag column lost) or a line of prose under the header makes no
    interface: a row is taken only with every column of the header, an integer MTU and
    counters, and flag letters ife_print_short() prints."""
    header = _short_table().splitlines()[1]
    row = _short_table().splitlines()[2]
    cut = row.rsplit(None, 1)[0]
    for text in (
        f"{header}\n{cut}\n",
        f"{header}\nthe usb0 row is missing here\n",
        f"{header}\n{row.replace('BMU', 'B?U')}\n",
        f"{header}\n{row.replace('1500', 'MTU')}\n",
    ):
        parsed, _warnings = parse_ifconfig(text)
        assert parsed.interfaces == [], text


def test_the_table_ends_where_its_rows_end() -> None:
    """After the table, the same file's long `ifconfig usb0` block is read as before: its
    addresses and MAC join the row's usb0 (one interface, not two)."""
    inv = inventory_of({"ifconfig": _pi2_ifconfig()})
    usb0 = [n for n in inv.nics if n.name == "usb0"]
    assert len(usb0) == 1
    assert usb0[0].mac == "a2:cd:1a:a1:66:8a"
