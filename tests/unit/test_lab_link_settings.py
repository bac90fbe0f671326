"""The lab's ``ethtool IFACE`` and ``ethtool -s`` (issue 21; audit4a row 7, audit4b row 6).

Before: a modelled NIC answered both with "ethtool: command not found" (exit 127) while its
``-i -k -g -c`` answered, and pi1b's captured ``ethtool eth0`` said "Link detected: yes" and
100Mb/s whatever the lab's link did. Now: the capture with the live link, or the driver's
facts (resources/lab/ethtool/link_settings.toml); ``-s`` as the driver's set_link_ksettings.
Error lines and exit codes: Debian's ethtool 6.1 (1:6.1-1), measured on a veth (75 for a
refused ``-s``, 1 for a bad argument; resources/lab/ethtool/SOURCE.md).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sbctune.inventory.parsers.ethtool import parse_ethtool
from sbctune.lab import fake_ethtool
from sbctune.lab.ethtool_state import build_state
from sbctune.lab.profile import load_profile

PI1_CAPTURE = Path(__file__).parents[2] / "resources/lab/profiles/pi1b-smsc95xx/commands"


def _state(tmp_path: Path, profile: str, **live: Any) -> str:
    state = build_state(load_profile(profile))
    for dev in state["interfaces"].values():
        if dev.get("link"):
            dev["link"].update(live)
    path = tmp_path / "state.json"
    path.write_text(json.dumps(state), encoding="utf-8")
    return str(path)


def _show(path: str, ifname: str) -> str:
    result = fake_ethtool.run([ifname], path)
    assert result is not None and result[2] == 0
    return result[0]


def _set(path: str, ifname: str, *args: str) -> tuple[str, list[str], int]:
    result = fake_ethtool.run(["-s", ifname, *args], path)
    assert result is not None
    return result


def _link(path: str, ifname: str) -> dict[str, Any]:
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    link: dict[str, Any] = data["interfaces"][ifname]["link"]
    return link


@pytest.mark.posix_only("the lab's fake ethtool (Linux-only lab) locks its state with fcntl")
def test_a_captured_ethtool_iface_is_served_with_the_labs_live_link(tmp_path: Path) -> None:
    """pi1b-smsc95xx's real capture (seed 001): every line as captured but the live ones."""
    captured = (PI1_CAPTURE / "001-ethtool_eth0.txt").read_text(encoding="utf-8")
    up = _show(_state(tmp_path, "pi1b-smsc95xx", carrier=True, speed="100", duplex="full"), "eth0")
    assert up == captured if captured.endswith("\n") else up == captured + "\n"
    down = _show(_state(tmp_path, "pi1b-smsc95xx", carrier=False), "eth0")
    parsed = parse_ethtool(down)[0]
    assert (parsed.speed_mbps, parsed.duplex, parsed.link_detected) == (None, None, False)
    assert parsed.link_partner_link_modes == []  # no link: the PHY reads no partner
    assert parsed.supported_link_modes == parse_ethtool(captured)[0].supported_link_modes


@pytest.mark.posix_only("the lab's fake ethtool (Linux-only lab) locks its state with fcntl")
@pytest.mark.parametrize(
    ("profile", "ifname", "modes", "port"),
    [
        ("pi4-ax88179", "eth1", 6, "MII"),  # mii_ethtool_get_link_ksettings, supports_gmii
        ("pi4-ax88179", "eth0", 6, "MII"),  # bcmgenet: genphy on Debian's 6.1
        ("pi4-rtl8153", "eth1", 6, "MII"),
        ("pi3bplus-lan78xx", "eth0", 5, "Twisted Pair"),  # no 1000baseT/Half (lan78xx_phy_init)
        ("cm4-rtl8125b-r8169", "eth1", 6, "Twisted Pair"),  # 2500baseT/Full
        ("cm4-i340-igb", "eth1", 5, "Twisted Pair"),  # igb_get_link_ksettings, copper
        ("pi5-macb", "eth0", 6, "Twisted Pair"),  # RP1: no MACB_CAPS_NO_GIGABIT_HALF (audit 7a)
    ],
)
def test_every_modelled_nic_answers_ethtool_iface_from_its_drivers_facts(
    tmp_path: Path, profile: str, ifname: str, modes: int, port: str
) -> None:
    path = _state(tmp_path, profile, carrier=True, speed="1000", duplex="full")
    text = _show(path, ifname)
    parsed, warnings = parse_ethtool(text)
    assert warnings == []
    assert parsed.interface == ifname and parsed.link_detected is True
    assert (parsed.speed_mbps, parsed.duplex, parsed.autoneg) == (1000, "Full", True)
    assert len(parsed.supported_link_modes) == modes and parsed.port == port
    # the board's MDIO address: only the hardware knows it, but r8169's internal PHY is always
    # address 0 (r8169_mdio_register: phy_mask GENMASK(31, 1), mdiobus_get_phy(new_bus, 0)),
    # ax88179's mii phy_id 3 (ax88179_bind), r8152's 32 (R8152_PHY_ID, audit 34a), a LAN7800's 1
    # (audit 9a),
    # a Pi 4's GENET PHY at its device tree's 1 (bcm2711-rpi-4-b.dts ethernet-phy@1, audit 32)
    phyad = [line for line in text.splitlines() if "PHYAD" in line]
    known = {("cm4-rtl8125b-r8169", "eth1"): 0, ("pi4-ax88179", "eth1"): 3,
             ("pi4-rtl8153", "eth1"): 32, ("pi3bplus-lan78xx", "eth0"): 1,
             ("pi4-ax88179", "eth0"): 1}  # fmt: skip
    expected = known.get((profile, ifname))
    assert phyad == ([] if expected is None else [f"\tPHYAD: {expected}"])


@pytest.mark.posix_only("the lab's fake ethtool (Linux-only lab) locks its state with fcntl")
def test_ethtool_s_forces_a_speed_as_phylib_does_and_refuses_what_it_refuses(
    tmp_path: Path,
) -> None:
    path = _state(tmp_path, "pi3bplus-lan78xx", carrier=True, speed="1000", duplex="full")
    # phy_ethtool_ksettings_set: a forced speed must be 10, 100 or 1000
    assert _set(path, "eth0", "speed", "2500", "duplex", "full", "autoneg", "off") == (
        "", ["netlink error: Invalid argument"], 75)  # fmt: skip
    assert _link(path, "eth0")["autoneg"] is True  # nothing kept
    assert _set(path, "eth0", "speed", "100", "duplex", "full", "autoneg", "off") == ("", [], 0)
    link = _link(path, "eth0")
    assert link["forced"] == {"speed": 100, "duplex": "full"} and link["autoneg"] is False
    shown = _show(path, "eth0")
    assert "\tAuto-negotiation: off" in shown and "\tAdvertised auto-negotiation: No" in shown
    # autoneg with an advertisement the PHY cannot make: empty after the AND, EINVAL
    assert _set(path, "eth0", "autoneg", "on", "advertise", "0x10")[1:] == (
        ["netlink error: Invalid argument"],
        75,
    )  # fmt: skip  (0x10: 1000baseT/Half, removed)
    assert _set(path, "eth0", "autoneg", "on", "advertise", "0x20") == ("", [], 0)
    assert _link(path, "eth0")["advertised"] == ["1000baseT/Full"]
    # autoneg off alone keeps the speed the link has (ethnl_set_linkmodes starts from get)
    assert _set(path, "eth0", "autoneg", "off") == ("", [], 0)
    assert _link(path, "eth0")["forced"] == {"speed": 1000, "duplex": "full"}
    assert _set(path, "eth0", "bogus", "1") == ("", ["ethtool (-s): unknown parameter 'bogus'"], 1)
    assert _set(path, "eth0", "speed", "x")[1:] == (
        ["ethtool (-s): invalid value 'x' for parameter 'speed'"], 1)  # fmt: skip


@pytest.mark.posix_only("the lab's fake ethtool (Linux-only lab) locks its state with fcntl")
def test_igb_forces_gigabit_only_by_autonegotiating_it(tmp_path: Path) -> None:
    """igb_set_spd_dplx: 1000 half EINVAL; 1000 full keeps autoneg, advertising 1000 only."""
    path = _state(tmp_path, "cm4-i340-igb", carrier=True, speed="1000", duplex="full")
    assert _set(path, "eth1", "speed", "1000", "duplex", "half", "autoneg", "off")[2] == 75
    assert _set(path, "eth1", "speed", "1000", "duplex", "full", "autoneg", "off")[2] == 0
    link = _link(path, "eth1")
    assert link["autoneg"] is True and link["advertised"] == ["1000baseT/Full"]


@pytest.mark.posix_only("the lab's fake ethtool (Linux-only lab) locks its state with fcntl")
def test_wake_on_lan_is_refused_where_get_wol_supports_nothing(tmp_path: Path) -> None:
    """bcmgenet_get_wol on a Pi 4 (no WoL interrupt): supported 0; wol.c refuses g."""
    path = _state(tmp_path, "pi4-ax88179", carrier=True, speed="1000", duplex="full")
    assert "\tSupports Wake-on: d\n" in _show(path, "eth0")
    assert _set(path, "eth0", "wol", "g") == (
        "", ["netlink error: cannot enable unsupported WoL mode",
             "netlink error: Invalid argument"], 75)  # fmt: skip
    pi1 = _state(tmp_path, "pi1b-smsc95xx", carrier=True, speed="100", duplex="full")
    assert _set(pi1, "eth0", "wol", "g") == ("", [], 0)  # the capture: "Supports Wake-on: pumbag"
    assert "Wake-on: g\n" in _show(pi1, "eth0")


@pytest.mark.posix_only("the lab's fake ethtool (Linux-only lab) locks its state with fcntl")
def test_a_non_root_user_gets_eperm_for_set_and_for_wake_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _state(tmp_path, "pi4-ax88179", carrier=True, speed="1000", duplex="full")
    monkeypatch.setattr("os.geteuid", lambda: 1000)
    assert _set(path, "eth0", "speed", "100", "duplex", "full", "autoneg", "off") == (
        "", ["netlink error: Operation not permitted"], 75)  # fmt: skip
    out, err, code = fake_ethtool.run(["eth0"], path) or ("", [], -1)
    # WOL_GET needs CAP_NET_ADMIN: ethtool 6.1 reports it and prints the rest (a real RTL8126
    # capture run as a user, tests/captures/ethtool/pi5_5gbe_682_rtl8126_ethtool.txt)
    assert code == 0 and err == ["netlink error: Operation not permitted"]
    assert "Wake-on" not in out and "Link detected: yes" in out


@given(st.text(max_size=400))
@settings(max_examples=150, deadline=None)
def test_any_captured_text_gives_link_settings_without_a_crash(text: str) -> None:
    """A profile's bundle is untrusted: whatever its `ethtool IFACE` holds, the lab answers."""
    from sbctune.lab.fake_ethtool_link import show_link
    from sbctune.lab.link_state import link_state

    link = link_state("lan78xx", "", "", "Settings for eth0:\n" + text, 1000.0)
    assert link is not None
    link.update(carrier=True, speed="100", duplex="full")
    assert show_link("eth0", {"link": link}).startswith("Settings for eth0:\n")
