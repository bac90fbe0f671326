"""Audit 9a's rows L1, L3, L5 and L6 (resources/tuning/driver_caps_audit9a.md). L1: ``ethtool -s
IFACE port / mdix / phyad / xcvr / msglvl`` answered as ethtool 6.1 parses them (its Debian
binary, run against a scratch veth) and as the kernel's linkinfo.c / debug.c and each driver's
set_link_ksettings and set_msglevel take them. L3: ``ethtool -r`` per nway_reset. L5: r8152's
rx-copybreak tunable. L6: a LAN7801's link facts are its external PHY's. Each test failed
before (the lab said "unknown parameter", or that the hardware answers)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sbctune.lab.fake_ethtool_base import Failure
from sbctune.lab.fake_ethtool_link_set import _parse
from tests.fake_ethtool_support import ethtool, lab_state, root

POSIX = pytest.mark.posix_only("the lab's fake ethtool (Linux-only lab) locks its state with fcntl")


def _state(tmp_path: Path, driver: str, chip: str, series: str = "6.12") -> str:
    path = lab_state(tmp_path, driver, chip, series)
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    data["interfaces"]["eth0"]["link"].update({"carrier": True, "speed": "1000", "duplex": "full"})
    Path(path).write_text(json.dumps(data), encoding="utf-8")
    return path


@POSIX
@pytest.mark.parametrize(
    ("args", "err"),
    [  # ethtool 6.1's parser, measured: exit 1, nothing sent, whatever the driver
        (["xcvr", "internal"], "ethtool (-s): deprecated parameter 'xcvr' not supported by kernel"),
        (["port", "xx"], "ethtool (-s): invalid value 'xx' for parameter 'port'"),
        (["phyad", "256"], "ethtool (-s): invalid value '256' for parameter 'phyad'"),
        (["mdix", "bad"], "ethtool (-s): invalid value 'bad' for parameter 'mdix'"),
        (["phyad"], "ethtool (-s): no value for parameter 'phyad'"),
        (
            ["msglvl", "drv"],
            "ethtool (-s): flag 'drv' for parameter 'msglvl' is not followed by 'on' or 'off'",
        ),
    ],
)
def test_the_new_parameters_are_parsed_as_ethtool_does(
    tmp_path: Path, args: list[str], err: str
) -> None:
    path = _state(tmp_path, "ax88179_178a", "AX88179")
    assert ethtool(path, "-s", "eth0", *args) == ("", [err], 1)


@root
@POSIX
@pytest.mark.parametrize("series", ["6.1", "6.12"])
@pytest.mark.parametrize(
    ("driver", "chip", "level"),
    [
        ("ax88179_178a", "AX88179", 7),
        ("cdc_ncm", "", 7),
        ("lan78xx", "LAN7800", 7),
        ("bcmgenet", "", 7),
        ("r8152", "RTL8153", 0x7FFF),
    ],
)
def test_msglvl_is_stored_and_shown(
    tmp_path: Path, driver: str, chip: str, level: int, series: str
) -> None:
    """ethnl_set_debug: the driver's set_msglevel stores it; the next `ethtool IFACE` shows it.
    A value replaces msg_enable (NOMASK), NAME on|off changes one class, value/mask those bits."""
    path = _state(tmp_path, driver, chip, series)
    assert ethtool(path, "-s", "eth0", "msglvl", "0x10") == ("", [], 0)
    assert "        Current message level: 0x00000010 (16)" in ethtool(path, "eth0")[0]
    assert ethtool(path, "-s", "eth0", "msglvl", "drv", "on", "link", "on") == ("", [], 0)
    assert "        Current message level: 0x00000015 (21)" in ethtool(path, "eth0")[0]
    assert ethtool(path, "-s", "eth0", "msglvl", "0/0x10") == ("", [], 0)
    out = ethtool(path, "eth0")[0].splitlines()
    at = out.index("        Current message level: 0x00000005 (5)")
    assert out[at + 1] == " " * 31 + "drv link"
    assert level  # the probe default (audit 9a row 2) was replaced


@root
@POSIX
def test_msglvl_refusals(tmp_path: Path) -> None:
    """bitset.c: a class past the 15 EINVAL, an unknown name EOPNOTSUPP; macb (no
    get/set_msglevel) EOPNOTSUPP."""
    path = _state(tmp_path, "r8152", "RTL8153")
    assert ethtool(path, "-s", "eth0", "msglvl", "0x8000") == (
        "",
        ["netlink error: cannot modify bits past kernel bitset size",
         "netlink error: Invalid argument"],
        75,
    )  # fmt: skip
    out = ethtool(path, "-s", "eth0", "msglvl", "foo", "on")
    assert out == ("", ["netlink error: bit name not found",
                        "netlink error: Operation not supported"], 75)  # fmt: skip
    macb = _state(tmp_path, "macb", "")
    assert ethtool(macb, "-s", "eth0", "msglvl", "7") == (
        "",
        ["netlink error: Operation not supported"],
        75,
    )


@root
@POSIX
@pytest.mark.parametrize(
    ("driver", "chip", "args", "refused"),
    [
        # mii_ethtool_set_link_ksettings: port must be MII, phyad mii->phy_id (3)
        ("ax88179_178a", "AX88179", ["port", "tp"], True),
        ("ax88179_178a", "AX88179", ["phyad", "4"], True),
        ("ax88179_178a", "AX88179", ["phyad", "3"], False),
        ("ax88179_178a", "AX88179", ["port", "mii"], False),
        ("ax88179_178a", "AX88179", ["mdix", "on"], False),
        # phy_ethtool_ksettings_set: phyad must be the PHY's (lan78xx: 1); port is not checked
        ("lan78xx", "LAN7800", ["phyad", "2"], True),
        ("lan78xx", "LAN7800", ["phyad", "1"], False),
        ("lan78xx", "LAN7800", ["port", "mii"], False),
        # rtl8152_set_link_ksettings reads none of them
        ("r8152", "RTL8153", ["phyad", "5"], False),
        ("r8152", "RTL8153", ["port", "fibre"], False),
    ],
)
def test_linkinfo_is_refused_where_the_driver_refuses(
    tmp_path: Path, driver: str, chip: str, args: list[str], refused: bool
) -> None:
    path = _state(tmp_path, driver, chip)
    got = ethtool(path, "-s", "eth0", *args)
    if refused:
        assert got == (
            "",
            ["netlink error: link settings update failed", "netlink error: Invalid argument"],
            75,
        )
    else:
        assert got == ("", [], 0)


@root
@POSIX
def test_linkinfo_needs_set_link_ksettings_but_msglvl_does_not(tmp_path: Path) -> None:
    """cdc_ncm has no set_link_ksettings (LINKINFO_SET EOPNOTSUPP) but usbnet's msglevel ops."""
    path = _state(tmp_path, "cdc_ncm", "")
    assert ethtool(path, "-s", "eth0", "port", "tp")[2] == 75
    assert ethtool(path, "-s", "eth0", "msglvl", "1") == ("", [], 0)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(max_size=12), max_size=8))
def test_the_parser_takes_garbage_without_crashing(args: list[str]) -> None:
    try:
        _parse(args)
    except Failure as failure:
        assert failure.code == 1 and len(failure.lines) == 1


@root
@POSIX
def test_mdix_on_a_phylib_driver_is_stored_and_shown(tmp_path: Path) -> None:
    """lan78xx (phylib): phy_ethtool_ksettings_set stores mdix_ctrl, ethtool 6.1's dump_mdix
    shows it forced or, for auto, the PHY's status (lan78xx_phy_init: ETH_TP_MDI_AUTO, shown
    Unknown) then " (auto)"; the same value again changes nothing (ethnl_update_u8)."""
    path = _state(tmp_path, "lan78xx", "LAN7800")
    assert "\tMDI-X: Unknown" in ethtool(path, "eth0")[0].splitlines()
    assert ethtool(path, "-s", "eth0", "mdix", "on") == ("", [], 0)
    assert "\tMDI-X: on (forced)" in ethtool(path, "eth0")[0].splitlines()
    assert ethtool(path, "-s", "eth0", "mdix", "auto") == ("", [], 0)
    assert "\tMDI-X: Unknown (auto)" in ethtool(path, "eth0")[0].splitlines()


@POSIX
@pytest.mark.parametrize("series", ["6.1", "6.12"])
def test_r8152_rx_copybreak_tunable(tmp_path: Path, series: str) -> None:
    """Audit 9a L5: rtl8152_probe_once sets rx_copybreak to RTL8152_RXFG_HEADSZ (256),
    rtl8152_get_tunable answers it; other tunable ids EOPNOTSUPP ("Cannot get tunable")."""
    path = _state(tmp_path, "r8152", "RTL8153", series)
    assert ethtool(path, "--get-tunable", "eth0", "rx-copybreak") == ("rx-copybreak: 256\n", [], 0)
    assert ethtool(path, "--get-tunable", "eth0", "tx-copybreak") == (
        "",
        ["tx-copybreak: Cannot get tunable"],
        255,
    )
    assert ethtool(path, "--get-tunable", "eth0", "foo")[2] == 1  # do_gtunable: bad argument


@root
@POSIX
def test_r8152_rx_copybreak_set_and_its_lower_bound(tmp_path: Path) -> None:
    """rtl8152_set_tunable: below ETH_ZLEN (60) EINVAL, else kept and read back."""
    path = _state(tmp_path, "r8152", "RTL8153")
    assert ethtool(path, "--set-tunable", "eth0", "rx-copybreak", "59") == (
        "",
        ["rx-copybreak: Invalid argument"],
        255,
    )
    assert ethtool(path, "--set-tunable", "eth0", "rx-copybreak", "60") == ("", [], 0)
    assert ethtool(path, "--get-tunable", "eth0", "rx-copybreak")[0] == "rx-copybreak: 60\n"
    assert ethtool(path, "--set-tunable", "eth0", "tx-copybreak", "100") == (
        "",
        ["tx-copybreak: Operation not supported"],
        255,
    )


@POSIX
def test_a_driver_without_tunable_facts_keeps_the_table_answer(tmp_path: Path) -> None:
    """ax88179 has no get_tunable: ethtool's own refusal, as before."""
    path = _state(tmp_path, "ax88179_178a", "AX88179")
    assert ethtool(path, "--get-tunable", "eth0", "rx-copybreak") == (
        "",
        ["rx-copybreak: Cannot get tunable"],
        255,
    )


def _down(path: str) -> None:
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    data["interfaces"]["eth0"]["up"] = False
    Path(path).write_text(json.dumps(data), encoding="utf-8")


@root
@POSIX
@pytest.mark.parametrize(
    ("driver", "chip", "forced", "err"),
    [
        ("ax88179_178a", "AX88179", False, None),  # usbnet_nway_reset -> mii_nway_restart
        ("ax88179_178a", "AX88179", True, "Invalid argument"),  # BMCR_ANENABLE clear
        ("r8152", "RTL8153", False, None),  # rtl8152_nway_reset -> mii_nway_restart
        ("r8152", "RTL8153", True, "Invalid argument"),
        ("cdc_ncm", "", False, "Operation not supported"),  # no dev->mii.mdio_write
        ("lan78xx", "LAN7800", False, None),  # phy_ethtool_nway_reset
        ("lan78xx", "LAN7800", True, None),  # phy_restart_aneg: no autoneg check
    ],
)
def test_nway_reset_answers_as_the_driver_does(
    tmp_path: Path, driver: str, chip: str, forced: bool, err: str | None
) -> None:
    """Audit 9a L3: `ethtool -r` per driver's nway_reset."""
    path = _state(tmp_path, driver, chip)
    if forced:
        assert (
            ethtool(path, "-s", "eth0", "autoneg", "off", "speed", "100", "duplex", "full")[2] == 0
        )
    got = ethtool(path, "-r", "eth0")
    if err is None:
        assert got == ("", [], 0)
    else:
        assert got == ("", [f"Cannot restart autonegotiation: {err}"], 255)


@root
@POSIX
def test_bcmgenet_nway_reset_needs_its_phy(tmp_path: Path) -> None:
    """bcmgenet_close's phy_disconnect leaves ndev->phydev NULL: phy_ethtool_nway_reset ENODEV
    while down; up, the PHY renegotiates."""
    path = _state(tmp_path, "bcmgenet", "")
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    data["interfaces"]["eth0"]["up"] = True
    Path(path).write_text(json.dumps(data), encoding="utf-8")
    assert ethtool(path, "-r", "eth0") == ("", [], 0)
    _down(path)
    assert ethtool(path, "-r", "eth0") == (
        "",
        ["Cannot restart autonegotiation: No such device"],
        255,
    )


@POSIX
@pytest.mark.parametrize("series", ["6.1", "6.12"])
def test_lan7801_link_facts_are_its_external_phys(tmp_path: Path, series: str) -> None:
    """Audit 9a L6: a LAN7801 has no internal PHY (lan78xx_mdio_init leaves the mask open,
    lan7801_phy_init takes the first external PHY, is_internal = false): no PHYAD, link modes or
    port from the LAN7800's facts; Transceiver external. A LAN7800 keeps them."""
    lines = _show_lines(_state(tmp_path, "lan78xx", "LAN7801", series))
    assert "\tTransceiver: external" in lines
    assert not [
        line for line in lines if line.startswith(("\tPHYAD", "\tPort", "\tSupported link"))
    ]
    lan7800 = _show_lines(_state(tmp_path, "lan78xx", "LAN7800", series))
    assert "\tPHYAD: 1" in lan7800 and "\tTransceiver: internal" in lan7800


def _show_lines(path: str) -> list[str]:
    out, err, code = ethtool(path, "eth0")
    assert (err, code) == ([], 0)
    return out.splitlines()


@root
@POSIX
def test_linkinfo_where_the_board_decides_is_not_guessed(tmp_path: Path) -> None:
    """stmmac: phylink with or without a PHY, the board decides: the lab says it cannot tell
    rather than accept or refuse. bcmgenet's PHY address is the board's device tree's: on a
    board the table names (lab_state's captures are a CM4's: bcm2711-rpi-cm4.dtsi
    ethernet-phy@0, audit 32 row 2) phy_ethtool_ksettings_set refuses another (EINVAL) and
    takes its own; test_lab_audit32 keeps an unnamed board's "cannot tell"."""
    out, err, code = ethtool(_state(tmp_path, "stmmac", ""), "-s", "eth0", "mdix", "on")
    assert (out, code) == ("", 1) and err[0].startswith("sbctune lab: ")
    out, err, code = ethtool(_state(tmp_path, "bcmgenet", ""), "-s", "eth0", "phyad", "1")
    assert (out, code) == ("", 75) and err[-1] == "netlink error: Invalid argument"
    assert ethtool(_state(tmp_path, "bcmgenet", ""), "-s", "eth0", "phyad", "0")[2] == 0
