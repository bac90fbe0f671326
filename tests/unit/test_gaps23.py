"""Issue 24, session 23 (gaps23): KNOWN_GAPS closed by their class.

1. ethtool's "Link detected: no" with no output that shows the interface's flags. ethtool
   prints netif_carrier_ok() (net/ethtool/ioctl.c ethtool_op_get_link()), which is false both
   for a cable that answers nothing and for an interface never brought up; with ip/ifconfig
   flags the inventory tells the two apart (set down; UP with NO-CARRIER), without them it said
   nothing. The link-down finding now says both cases and how to tell them
   (inventory/no_link_unshown.py, advice/logs.py _link_down()). Real pastes: the CM5's ethtool
   (corpus cm5_linux_6953), the Pi 3's (pi3_netbox_3175), the LS441DE's (ls441de_debian_buffalo_8).
Real outputs come from the captures named beside them (each bundle's SOURCE.md).
"""

from __future__ import annotations

import pytest

from tests.corpus_support import CORPUS, corpus_output, findings_of, inventory_of

CAPTURES = CORPUS.parent

# raspberrypi/linux issue 6953: a CM5's eth0, `ethtool eth0` only (its SOURCE.md)
CM5 = "cm5_linux_6953_ethtool_eth0_speed_unknown_netlink_eperm_no_link"
NO_LINK_ETHTOOL = [
    CM5,
    "pi3_netbox_3175_ethtool_tabs_link_no_stray_fence",  # netbox issue 3175
    "ls441de_debian_buffalo_8_mvneta_half",  # a Buffalo LS441DE's mvneta
]
# raspberrypi/linux issue 3939: `ip link set eth0 down` then `ip a` on a Pi 3 B+
SET_DOWN_IP_A = "pi3bplus_linux_3939_ip_a_admin_down_mii_tool_vv_einval"
# a Pi 4 under k3s: eth0 UP with NO-CARRIER in `ip a` (its SOURCE.md)
NO_CARRIER_IP_A = "virt_pi4_k3s_3466_ip_a_eth0_no_carrier_wlan0_v7l"


@pytest.mark.parametrize("bundle", NO_LINK_ETHTOOL)
def test_ethtool_no_link_alone_is_a_link_down_worded_for_both_cases(bundle: str) -> None:
    inv = inventory_of({"ethtool eth0": corpus_output(bundle)})
    (nic,) = inv.nics
    assert nic.name == "eth0" and nic.link_detected is False
    (summary,) = findings_of(inv, "link-down")
    assert "nothing shown says whether eth0 was brought up" in summary
    assert "sudo ip link set eth0 up" in summary and "check the cable" in summary
    (finding,) = [f for f in inv.findings if f.id == "link-down"]
    assert finding.evidence == ["ethtool: Link detected: no"]


def test_flags_that_show_it_set_down_say_so_and_no_cable_finding() -> None:
    """The same ethtool "no" beside ip's flags without UP (a real `ip link set eth0 down`):
    the NIC is set down, and no link-down finding sends the user to the cable."""
    inv = inventory_of(
        {"ethtool eth0": corpus_output(CM5), "ip a": corpus_output(SET_DOWN_IP_A, "000-ip_a")}
    )
    eth0 = next(n for n in inv.nics if n.name == "eth0")
    assert eth0.set_down
    assert findings_of(inv, "link-down") == []


def test_flags_up_without_carrier_keep_the_no_carrier_words() -> None:
    """ip's UP with NO-CARRIER says which case it is: the finding quotes that line alone."""
    inv = inventory_of(
        {"ethtool eth0": corpus_output(CM5), "ip a": corpus_output(NO_CARRIER_IP_A, "000-ip_a")}
    )
    (summary,) = findings_of(inv, "link-down")
    assert "is up but has no carrier" in summary
    assert "nothing shown says whether" not in summary


# 2. A transmit watchdog told only by its call trace (3.x: WARN_ONCE in dev_watchdog()).
# linuxmint/mintdrivers issue 3: an r8169 in `lspci -v`, the trace in syslog (its SOURCE.md)
MINT = "x86_p8h77i_mintdrivers_3_lspci_v_unindented_syslog_dev_watchdog_trace_only"
# the Syba dual RTL8125 card on a Pi 4 (tests/captures/lspci/pi4_syba_46_rtl8125_old_pciids)
TWO_NICS_LSPCI = (CAPTURES / "lspci" / "pi4_syba_46_rtl8125_old_pciids.txt").read_text(
    encoding="utf-8"
)


def _mint() -> dict[str, str]:
    return {
        "lspci -v": corpus_output(MINT, "000-lspci_v"),
        "dmesg": corpus_output(MINT, "001-dmesg"),
    }


def test_a_trace_through_dev_watchdog_is_the_lone_nics_transmit_timeout() -> None:
    inv = inventory_of(_mint())
    (nic,) = inv.nics
    assert (nic.driver, nic.bus_path) == ("r8169", "0000:0a:00.0")
    (summary,) = findings_of(inv, "tx-timeout")
    assert "transmit timed out" in summary
    (finding,) = [f for f in inv.findings if f.id == "tx-timeout"]
    assert finding.evidence == ["[<ffffffff8160e14a>] dev_watchdog+0x26a/0x280"]


def test_the_trace_names_no_device_so_two_nics_get_none() -> None:
    commands = _mint()
    commands["lspci"] = TWO_NICS_LSPCI
    del commands["lspci -v"]
    inv = inventory_of(commands)
    assert len(inv.nics) == 2
    assert findings_of(inv, "tx-timeout") == []


def test_only_the_warn_machinerys_caller_counts() -> None:
    """The same frames without warn_slowpath_fmt before dev_watchdog (a timer's trace of
    another cause, or a stale "? dev_watchdog" address) are no transmit timeout."""
    lines = corpus_output(MINT, "001-dmesg").splitlines()
    without_warn = "\n".join(line for line in lines if "warn_slowpath" not in line) + "\n"
    inv = inventory_of({"lspci -v": corpus_output(MINT, "000-lspci_v"), "dmesg": without_warn})
    assert findings_of(inv, "tx-timeout") == []
    stale = "\n".join(line.replace("] dev_watchdog", "] ? dev_watchdog") for line in lines)
    inv = inventory_of({"lspci -v": corpus_output(MINT, "000-lspci_v"), "dmesg": stale + "\n"})
    assert findings_of(inv, "tx-timeout") == []
