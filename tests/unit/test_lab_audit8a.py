"""Audit 8a (resources/tuning/driver_caps_audit8a.md): the pause a user reads in the lab's
``ethtool -a`` and ``ethtool IFACE`` for r8152, lan78xx and bcmgenet, against the kernel's code
path. Each test failed before its row was fixed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.fake_ethtool_support import LINK_UP, ethtool, lab_state, root, with_link

POSIX = pytest.mark.posix_only("the lab's fake ethtool (Linux-only lab) locks its state with fcntl")


def _up(tmp_path: Path, driver: str, chip: str = "", **link: Any) -> str:
    return with_link(lab_state(tmp_path, driver, chip, "6.12"), **{**LINK_UP, **link})


def _pause(state: str) -> str:
    out, err, code = ethtool(state, "-a", "eth0")
    assert (err, code) == ([], 0)
    return " ".join(line.split(":", 1)[1].strip() for line in out.splitlines()[1:4])


def _advertised_pause(state: str) -> str:
    out, err, code = ethtool(state, "eth0")
    assert (err, code) == ([], 0)
    lines = [ln for ln in out.splitlines() if "Advertised pause frame use:" in ln]
    assert len(lines) == 1, out
    return lines[0].split(":", 1)[1].strip()


@POSIX
@root
@pytest.mark.parametrize(
    ("asked", "shown"),
    [
        (("rx", "on", "tx", "off"), "on on on"),  # Pause|Asym against Pause|Asym: symmetric
        (("tx", "off"), "on on on"),  # from -a's on/on: the same Pause|Asym
        (("rx", "off", "tx", "on"), "on off on"),  # Asym only, the partner's Pause: we send
        (("rx", "off", "tx", "off"), "on off off"),
    ],
)
def test_r8152_pause_shows_the_resolution_not_the_request(
    tmp_path: Path, asked: tuple[str, ...], shown: str
) -> None:
    """Row 1: rtl8152_get_pauseparam shows mii_resolve_flowctrl_fdx(MII_ADVERTISE, MII_LPA),
    and rtl8152_set_pauseparam writes mii_advertise_flowctrl(rx, tx): 'rx on tx off' is
    Pause|Asym, which against the lab's partner (Pause|Asym) resolves to RX and TX on. The
    lab showed the request (RX on, TX off)."""
    state = _up(tmp_path, "r8152", "RTL8153")
    assert _pause(state) == "on on on"  # r8152b_enable_fc: Pause|Asym at PHY set-up
    assert ethtool(state, "-A", "eth0", *asked)[2] == 0
    assert _pause(state) == shown


@POSIX
@root
def test_r8152_pause_resolution_ignores_the_duplex(tmp_path: Path) -> None:
    """Row 1: mii_resolve_flowctrl_fdx is applied whatever the duplex (rtl8152_get_pauseparam
    reads no duplex), unlike phylib's phy_get_pause (r8169), which reports none at half."""
    state = _up(tmp_path, "r8152", "RTL8153", speed="100", duplex="half")
    assert _pause(state) == "on on on"


@POSIX
@root
@pytest.mark.parametrize(
    ("driver", "chip", "start", "asked", "after"),
    [
        # r8152b_enable_fc (every chip's hw_phy_cfg): ADVERTISE_PAUSE_CAP | ADVERTISE_PAUSE_ASYM
        ("r8152", "RTL8153", "Symmetric Receive-only", ("rx", "off", "tx", "off"), "No"),
        # -a already shows RX and TX on (resolved): nothing modified, the driver is not called
        # and the advertisement stays (ethnl_set_pause's `if (!mod)`, audit 14)
        (
            "r8152",
            "RTL8153",
            "Symmetric Receive-only",
            ("rx", "on", "tx", "on"),
            "Symmetric Receive-only",
        ),
        # lan78xx_set_pause: mii_advertise_flowctrl(RX) = Pause | Asym
        ("lan78xx", "LAN7515", "Symmetric", ("rx", "on", "tx", "off"), "Symmetric Receive-only"),
        ("lan78xx", "LAN7515", "Symmetric", ("rx", "off", "tx", "on"), "Transmit-only"),
        # bcmgenet_phy_pause_set: Pause = RX, Asym_Pause = RX | TX
        ("bcmgenet", "", "Symmetric Receive-only", ("rx", "off", "tx", "on"), "Transmit-only"),
        ("bcmgenet", "", "Symmetric Receive-only", ("rx", "off", "tx", "off"), "No"),
    ],
)
def test_advertised_pause_line_follows_the_pause_set(
    tmp_path: Path, driver: str, chip: str, start: str, asked: tuple[str, ...], after: str
) -> None:
    """Row 2: 'Advertised pause frame use' is the PHY's advertisement (phy_ethtool_ksettings_get;
    r8152: mii_ethtool_get_link_ksettings reads MII_ADVERTISE), which each driver's
    set_pauseparam rewrites. The lab printed a fixed line (r8152: none at all)."""
    state = _up(tmp_path, driver, chip)
    assert _advertised_pause(state) == start
    assert ethtool(state, "-A", "eth0", *asked)[2] == 0
    assert _advertised_pause(state) == after


@POSIX
@root
@pytest.mark.parametrize("asked", [("eee", "on"), ("eee", "on", "tx-lpi", "on")])
def test_ax88179_cannot_turn_eee_on(tmp_path: Path, asked: tuple[str, ...]) -> None:
    """Row 3: ax88179_reset (at bind, resume and the open's ax88179_net_reset) writes a zero
    EEE advertisement, and ax88179_set_eee asks ax88179_chk_eee, which needs the current
    advertisement to share a mode with the partner's, before it writes the new one: 'eee on'
    is EOPNOTSUPP whatever is asked, and EEE stays off. The lab turned it on."""
    state = _up(tmp_path, "ax88179_178a")
    out, err, code = ethtool(state, "--set-eee", "eth0", *asked)
    assert (out, err, code) == ("", ["netlink error: Operation not supported"], 76)
    assert "\tEEE status: disabled\n" in ethtool(state, "--show-eee", "eth0")[0]
