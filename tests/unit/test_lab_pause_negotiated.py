"""`ethtool -a`'s "RX negotiated" / "TX negotiated" lines (audit 7b row 12), as ethtool 6.1
computes them: netlink/pause.c pause_reply_cb asks LINKMODES_GET only with pause autoneg on,
and pause_autoneg_cb prints the lines only when the reply carries both our advertisement and
the link partner's (net/ethtool/linkmodes.c leaves PEER out when lp_advertising is empty),
resolved from their Pause/Asym_Pause bits (IEEE 802.3 Annex 28B), not from the driver's pause
settings. One mechanism for every driver: fake_ethtool_pause.resolve_pause over
advertised_bits and partner_pause."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

from sbctune.lab.fake_ethtool_pause import resolve_pause
from tests.unit.test_lab_driver_table import ethtool, lab, root
from tests.unit.test_lab_pause_model import set_link

CAPTURES = Path(__file__).resolve().parents[1] / "captures" / "ethtool_a"

# IEEE 802.3 Annex 28B, table 28B-3 (pause resolution), written out row by row with its
# don't-cares ("x"): (local PAUSE, local ASM_DIR, partner PAUSE, partner ASM_DIR) -> the local
# device's (RX, TX) pause. "TX only" = the local side sends pause frames, the partner obeys.
TABLE_28B_3 = [
    ("00xx", (False, False)),
    ("010x", (False, False)),
    ("0110", (False, False)),
    ("0111", (False, True)),  # we only send pause (the partner receives them)
    ("100x", (False, False)),
    ("1x1x", (True, True)),  # symmetric
    ("1100", (False, False)),
    ("1101", (True, False)),  # we only receive pause
]


def _table(bits: str) -> tuple[bool, bool]:
    found = [out for row, out in TABLE_28B_3
             if all(r in ("x", b) for r, b in zip(row, bits, strict=True))]  # fmt: skip
    assert len(set(found)) == 1, (bits, found)  # every combination covered, no row disagrees
    return found[0]


@pytest.mark.parametrize("bits", ["".join(b) for b in itertools.product("01", repeat=4)])
def test_resolution_is_annex_28b_for_all_16_advertisements(bits: str) -> None:
    ours = (bits[0] == "1", bits[1] == "1")
    peer = (bits[2] == "1", bits[3] == "1")
    assert resolve_pause(ours, peer) == _table(bits)


pytestmark_posix = pytest.mark.posix_only("the lab's fake ethtool locks its state with fcntl")

# the negotiated lines ("RX TX", or "" for none) with the carrier up at 1000 Mb/s full duplex
# against the lab's partner (Pause + Asym_Pause): at start, after `-A rx on tx off`, after
# `-A rx off tx on`; then without carrier; then with the carrier back over a forced link.
DRIVERS = {
    # Pause = RX, Asym_Pause = RX or TX (bcmgenet_phy_pause_set)
    ("bcmgenet", ""): ["on on", "on on", "off on", "", ""],
    # phy_support_asym_pause at start (Pause + Asym), then linkmode_set_pause
    ("r8169", "RTL8125B"): ["on on", "on on", "off on", "", ""],
    # mii_advertise_flowctrl: RX only is Pause + Asym_Pause, so both ways against this partner
    ("lan78xx", "LAN7515"): ["on on", "on on", "off on", "", ""],
    ("r8152", "RTL8153"): ["on on", "on on", "off on", "", ""],
    # igb/igc_get_link_ksettings never fill lp_advertising: no PEER, no lines
    ("igb", "82580"): ["", "", "", "", ""],
    ("igc", "I225-V"): ["", "", "", "", ""],
    # pause autoneg always off (aq_ethtool_get_pauseparam): no LINKMODES_GET
    ("atlantic", "AQC107"): ["", "", "", "", ""],
    # phylink: RX off, TX off shown (MLO_PAUSE_AN) while the PHY advertises Pause + Asym
    ("stmmac", "RK3588"): ["on on", "on on", "off on", "", ""],
    ("asix", "AX88772B"): ["on on", "on on", "off on", "", ""],
}


def negotiated(state: str) -> str:
    out, _, code = ethtool(state, "-a", "eth0")
    assert code == 0, out
    found = dict(re.findall(r"^(RX|TX) negotiated:\s+(on|off)$", out, re.M))
    assert len(found) in (0, 2), out
    return f"{found['RX']} {found['TX']}" if found else ""


@root
@pytestmark_posix
@pytest.mark.parametrize(("driver", "chip"), list(DRIVERS))
def test_negotiated_lines_come_from_both_advertisements(
    tmp_path: Path, driver: str, chip: str
) -> None:
    """Before: negotiated = the request (or the resolved RX/TX shown) and a partner, shown
    without carrier and over a forced link too; stmmac/asix "off off" at start; igb/igc lines
    ethtool never prints; "rx on tx off" read "on off" on lan78xx and r8152."""
    state = lab(tmp_path, driver, chip, "6.12")
    set_link(state, carrier=True, speed="1000", duplex="full")
    got = [negotiated(state)]
    for rx, tx in (("on", "off"), ("off", "on")):
        assert ethtool(state, "-A", "eth0", "rx", rx, "tx", tx)[2] == 0
        got.append(negotiated(state))
    set_link(state, carrier=False)
    got.append(negotiated(state))
    set_link(state, carrier=True, autoneg=False)
    got.append(negotiated(state))
    assert got == DRIVERS[(driver, chip)]


@root
@pytestmark_posix
def test_phylink_advertisement_stays_until_a_set_reaches_the_driver(tmp_path: Path) -> None:
    """stmmac: `-A rx off tx off` asks what -a shows already, so ethnl_set_pause does not call
    the driver and phy_support_asym_pause's Pause + Asym_Pause stays: still both negotiated;
    `-A rx on tx on` then advertises Pause alone, `-A rx off tx off` nothing."""
    state = lab(tmp_path, "stmmac", "RK3588", "6.12")
    set_link(state, carrier=True, speed="1000", duplex="full")
    assert ethtool(state, "-A", "eth0", "rx", "off", "tx", "off")[2] == 0
    assert negotiated(state) == "on on"
    assert ethtool(state, "-A", "eth0", "rx", "on", "tx", "on")[2] == 0
    assert negotiated(state) == "on on"
    assert ethtool(state, "-A", "eth0", "rx", "off", "tx", "off")[2] == 0
    assert negotiated(state) == "off off"


@root
@pytestmark_posix
def test_negotiated_lines_are_printed_as_ethtool_netlink_prints_them(tmp_path: Path) -> None:
    """netlink/pause.c: show_bool_val("rx", "RX negotiated: %s\\n") (one space; the ioctl
    path's dump_pause has a tab), as in a real netlink `ethtool -a` (OpenWrt, mtk_eth_soc)."""
    real = (CAPTURES / "mtk_eth_soc_openwrt_14988.txt").read_text(encoding="utf-8")
    real_lines = [line for line in real.splitlines() if "negotiated" in line]
    state = lab(tmp_path, "lan78xx", "LAN7515", "6.12")
    set_link(state, carrier=True, speed="1000", duplex="full")
    assert ethtool(state, "-A", "eth0", "rx", "off", "tx", "off")[2] == 0
    out = ethtool(state, "-a", "eth0")[0]
    assert [line for line in out.splitlines() if "negotiated" in line] == real_lines
