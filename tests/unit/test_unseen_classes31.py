"""Classes that the thirty-first unseen set (SoC families' own Ethernet MACs on machines in no
earlier set; tests/captures/corpus) showed misread. Every output here is one of those bundles'
(named beside it, with its SOURCE.md), or a line of one changed to show what must NOT be read;
the corpus test checks whole bundles."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from sbctune.advice.inspect import inspect_bundle
from sbctune.catalog.old_formats import old_format_line
from tests.corpus_support import CORPUS, corpus_output, dmesg_inventory, findings_of

_WAX220 = "wax220_openwrt_14504_mtk_soc_eth_rtl8221b_1gbps_unknown_duplex_prompt"
_SQUEEZE = "squeezeradio_squeezeos_22_old_fec_status_link_up_remote_fault_syslog_flapping"
_LIBRESDR = "libresdr_tezuka_239_macb_rtl8211e_100m_flapping_quote_marks"
_LIBRESDR_1G = "libresdr_tezuka_47_macb_console_glued_login_prompt_1g_up_down_up"


# --- phylink's "Link is Up - <speed>/<duplex>": the duplex may be "Unknown" ---


def test_a_link_whose_duplex_is_unknown_still_has_its_speed() -> None:
    """phy_duplex_to_str() (drivers/net/phy/phy-core.c) prints "Unknown" for DUPLEX_UNKNOWN:
    the WAX220's RTL8221B at "1Gbps/Unknown" linked at 1000 Mbit/s, duplex not known (not
    half)."""
    inv = inspect_bundle(CORPUS / _WAX220)
    (eth0,) = inv.nics
    assert (eth0.link_detected, eth0.link_speed_mbps, eth0.duplex) == (True, 1000, None)
    assert not findings_of(inv, "half-duplex")


def test_the_downshifted_form_of_phy_print_status_is_read() -> None:
    """phy_print_status() (drivers/net/phy/phy.c) adds "(downshifted) " before the flow
    control: the speed and duplex are still read."""
    line = (
        "[   12.000000] mtk_soc_eth 15100000.ethernet eth0: Link is Up - 100Mbps/Full "
        "(downshifted) - flow control off"
    )
    (eth0,) = dmesg_inventory(line).nics
    assert (eth0.link_speed_mbps, eth0.duplex) == (100, "full")


# --- the 2.6-era fec's own link words, and an interface's line that is no driver's ---


def test_the_old_fec_status_lines_are_eth0s_link() -> None:
    """A Squeezebox Radio's syslog: torvalds/linux@009fda83 drivers/net/fec.c
    mii_display_status() prints "eth0: status: link up, 100MBit Full Duplex, ..." and
    "eth0: status: link down.". eth0 flaps and is down last; "status" is no interface."""
    inv = inspect_bundle(CORPUS / _SQUEEZE)
    assert [n.name for n in inv.nics] == ["eth0"]
    (eth0,) = inv.nics
    assert eth0.link_detected is False and eth0.link_speed_mbps is None
    assert eth0.link_downs == 3
    assert findings_of(inv, "link-flapping") and findings_of(inv, "link-down")


def test_the_old_fec_link_up_line_gives_its_speed_and_duplex() -> None:
    for tail in (".", ", auto-negotiation complete.", ", auto-negotiation complete, remote fault."):
        (eth0,) = dmesg_inventory(f"eth0: status: link up, 10MBit Half Duplex{tail}").nics
        assert (eth0.name, eth0.link_speed_mbps, eth0.duplex) == ("eth0", 10, "half")
    down = old_format_line("eth0: status: link down, remote fault.")
    assert down is not None and down[1]["iface"] == "eth0"


def test_a_vendor_drivers_link_line_is_still_its_own() -> None:
    """Realtek's out-of-tree r8125 prints "r8125: eth0: link up": the driver first, then the
    interface; only an interface-shaped head ("eth0: status: ...") is the interface itself."""
    (nic,) = dmesg_inventory("[ 1484.991950] r8125: eth0: link up").nics
    assert (nic.name, nic.driver, nic.link_detected) == ("eth0", "r8125", True)


@given(st.sampled_from(["eth0", "eth1", "lan2", "wan", "enp1s0", "wlan0"]), st.text(max_size=40))
def test_old_fec_lines_never_raise(iface: str, tail: str) -> None:
    old_format_line(f"{iface}: status: link up, 100MBit Full Duplex{tail}")
    old_format_line(f"{iface}: status: {tail}")


# --- a gigabit PHY that only ever linked at 100 Mbit/s, down now ---


def test_a_gigabit_phy_that_linked_at_100_then_dropped_is_below_its_phy() -> None:
    """The LibreSDR's RTL8211E comes up at 100Mbps/Full four times and drops each time: its
    link is down now, yet every time it linked it did so below what its PHY can do."""
    inv = inspect_bundle(CORPUS / _LIBRESDR)
    (eth0,) = inv.nics
    assert eth0.link_detected is False and eth0.link_speed_mbps is None
    assert eth0.linked_at_mbps == 100
    (summary,) = findings_of(inv, "link-below-phy")
    assert "100 Mbit/s" in summary and "RTL8211E" in summary


def test_a_gigabit_link_that_dropped_once_is_not_below_its_phy() -> None:
    inv = inspect_bundle(CORPUS / _LIBRESDR_1G)
    assert not findings_of(inv, "link-below-phy")
    text = corpus_output(_LIBRESDR).replace("100Mbps", "1Gbps")
    assert not findings_of(dmesg_inventory(text), "link-below-phy")
