"""Audit 10 (resources/tuning/driver_caps_audit10.md): what the ninth read noticed across
drivers and left, settled from the kernel's source (Debian 6.1 / 6.12). Each test failed
before its row was fixed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sbctune.lab.fake_ethtool_base import Failure
from sbctune.lab.fake_ethtool_link_set import _parse
from tests.fake_ethtool_support import LINK_UP, ethtool, lab_state, root, with_link

POSIX = pytest.mark.posix_only("the lab's fake ethtool (Linux-only lab) locks its state with fcntl")
UP = LINK_UP
DOWN = {"carrier": False, "speed": "-1", "duplex": "unknown"}


def _eee_status(tmp_path: Path, driver: str, chip: str, series: str, link: dict[str, object]
                ) -> str:  # fmt: skip
    """`EEE status` of `ethtool --show-eee eth0` with EEE on and the partner's EEE modes in
    register 7.61 (as after a link that negotiated it), under `link`."""
    path = lab_state(tmp_path, driver, chip, series, probe=str(sorted(link.items())))
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    dev = data["interfaces"]["eth0"]
    dev["link"].update(link)
    # the PHY's own EEE abilities where the table leaves them to the board (lan78xx, stmmac)
    modes = list(dev["eee"]["supported"]) or ["100baseT/Full", "1000baseT/Full"]
    dev["eee"].update(enabled=True, supported=modes, link_partner=modes, active=True)
    Path(path).write_text(json.dumps(data), encoding="utf-8")
    out, err, code = ethtool(path, "--show-eee", "eth0")
    assert (err, code) == ([], 0)
    return out.split("EEE status: ")[1].split("\n")[0]


PHYLIB_EEE = [("bcmgenet", ""), ("r8169", "RTL8125B"), ("lan78xx", "LAN7800"), ("stmmac", "RK3568")]


@POSIX
@pytest.mark.parametrize(("driver", "chip"), PHYLIB_EEE)
def test_eee_is_inactive_without_a_carrier_on_6_12_phylib(
    tmp_path: Path, driver: str, chip: str
) -> None:
    """Row 1: 6.12's genphy_c45_eee_is_active (phy_ethtool_get_eee -> genphy_c45_ethtool_get_eee)
    calls EEE active only when phy_check_valid finds the negotiated speed and duplex among the
    common modes; with no link genphy_read_status has left SPEED_UNKNOWN, so every driver whose
    get_eee is phylib's says 'enabled - inactive'. The lab said 'enabled - active' with no
    carrier. With a carrier the registers' answer stands."""
    assert _eee_status(tmp_path, driver, chip, "6.12", UP) == "enabled - active"
    assert _eee_status(tmp_path, driver, chip, "6.12", DOWN) == "enabled - inactive"


@POSIX
@pytest.mark.parametrize(("driver", "chip"), PHYLIB_EEE)
@pytest.mark.parametrize("series", ["6.1", ""])
def test_eee_without_a_carrier_is_the_registers_on_6_1(
    tmp_path: Path, driver: str, chip: str, series: str
) -> None:
    """Row 1, the other series: 6.1's phy_ethtool_get_eee sets eee_active = advertised & the
    partner's register 7.61, read now, with no look at the link (what 7.61 holds without a link
    is the PHY's): the lab keeps the registers' answer, and with an unknown kernel (either
    series) claims neither."""
    assert _eee_status(tmp_path, driver, chip, series, DOWN) == "enabled - active"


def _up(tmp_path: Path, driver: str, chip: str, series: str = "6.12", tag: str = "") -> str:
    return with_link(lab_state(tmp_path, driver, chip, series, probe=tag), **UP)


def _nl(extack: str | None, errno: str) -> list[str]:
    return ([f"netlink error: {extack}"] if extack else []) + [f"netlink error: {errno}"]


EINVAL, EOPNOTSUPP = "Invalid argument", "Operation not supported"
_SOPASS = "ethtool (-s): invalid value '{}' of parameter 'sopass'"
# the 13 drivers met in real pastes (issue 21), one chip each where the chip decides
THIRTEEN = [("bcmgenet", ""), ("macb", "RP1"), ("lan78xx", "LAN7800"),
            ("ax88179_178a", "AX88179"), ("r8152", "RTL8153"), ("r8169", "RTL8125B"),
            ("igb", "I350"), ("igc", "I225-V"), ("atlantic", "AQC107"), ("stmmac", "RK3568"),
            ("asix", "AX88772B")]  # fmt: skip


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["lanes", "x"], "ethtool (-s): invalid value 'x' for parameter 'lanes'"),
        (["lanes", "-1"], "ethtool (-s): invalid value '-1' for parameter 'lanes'"),
        (["lanes", "4294967296"], "ethtool (-s): invalid value '4294967296' for parameter 'lanes'"),
        (["lanes"], "ethtool (-s): no value for parameter 'lanes'"),
        (["master-slave", "foo"], "ethtool (-s): invalid value 'foo' for parameter 'master-slave'"),
        (["sopass", "1"], "ethtool (-s): invalid value '1' of parameter 'sopass'"),
        (["sopass", "01:02:03:04:05"], _SOPASS.format("01:02:03:04:05")),
        (["sopass", "zz:02:03:04:05:06"], _SOPASS.format("zz:02:03:04:05:06")),
        (["lanes", "1", "lanes", "2"], "ethtool (-s): duplicate parameter 'lanes'"),
    ],
)  # fmt: skip
def test_lanes_master_slave_and_sopass_are_parsed_as_ethtool_6_1_does(
    args: list[str], line: str
) -> None:
    """Row 2: ethtool 6.1 knows the three (netlink/settings.c sset_params); the lab said
    "unknown parameter". Words measured on Debian's 1:6.1-1 binary (`unshare -n ethtool -s lo`)."""
    with pytest.raises(Failure) as refused:
        _parse(args)
    assert (refused.value.lines, refused.value.code) == ([line], 1)


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(["lanes", "master-slave", "sopass"]), st.lists(st.text(max_size=20), max_size=3)
)
def test_the_new_parameters_take_garbage_without_crashing(name: str, rest: list[str]) -> None:
    try:
        _parse([name, *rest])
    except Failure as failure:
        assert failure.code == 1 and len(failure.lines) == 1


@POSIX
@root
@pytest.mark.parametrize(("driver", "chip"), THIRTEEN)
def test_lanes_is_checked_before_the_driver_and_refused_when_forced(
    tmp_path: Path, driver: str, chip: str
) -> None:
    """Row 2: net/ethtool/linkmodes.c (6.1, 6.12): the policy's range 1..8 ("integer out of
    range", ERANGE), then a power of two ("lanes value is invalid", EINVAL), whatever the
    driver; with autonegotiation off, "lanes configuration not supported by device"
    (EOPNOTSUPP) where the driver lacks cap_link_lanes_supported (none of the 13). Offsets:
    the attribute's place in the message, as measured (36 for `eth0` first, 8 per u32 before)."""
    path = _up(tmp_path, driver, chip)
    assert ethtool(path, "-s", "eth0", "lanes", "3")[1:] == (
        _nl("lanes value is invalid (offset 36)", EINVAL),
        75,
    )
    assert ethtool(path, "-s", "eth0", "speed", "100", "lanes", "9")[1:] == (
        _nl("integer out of range (offset 44)", "Numerical result out of range"),
        75,
    )
    forced = ethtool(path, "-s", "eth0", "autoneg", "off", "speed", "100", "lanes", "1")
    assert forced[1:] == (_nl("lanes configuration not supported by device (offset 52)",
                              EOPNOTSUPP), 75)  # fmt: skip


@POSIX
@root
@pytest.mark.parametrize(("driver", "chip"), [("bcmgenet", ""), ("lan78xx", "LAN7800"),
                                              ("r8169", "RTL8125B"), ("macb", "RP1"),
                                              ("ax88179_178a", "AX88179")])  # fmt: skip
def test_lanes_1_readvertises_every_supported_mode_and_2_leaves_none(
    tmp_path: Path, driver: str, chip: str
) -> None:
    """Row 2: with autonegotiation on and no `advertise`, ethnl_auto_linkmodes advertises every
    supported mode of the asked lanes: every BASE-T mode has one lane (common.c
    __LINK_MODE_LANES_T), so `lanes 1` gives back all of them, `lanes 2` none, which
    phy_ethtool_ksettings_set / mii_ethtool_set_link_ksettings refuse (EINVAL)."""
    path = _up(tmp_path, driver, chip)
    assert ethtool(path, "-s", "eth0", "advertise", "0x8") == ("", [], 0)  # 100baseT/Full
    assert ethtool(path, "-s", "eth0", "lanes", "1") == ("", [], 0)
    state = json.loads(Path(path).read_text(encoding="utf-8"))["interfaces"]["eth0"]["link"]
    assert sorted(state["advertised"]) == sorted(state["supported"])
    assert ethtool(path, "-s", "eth0", "lanes", "2")[1:] == (_nl(None, EINVAL), 75)


MS_TAKEN = [("bcmgenet", ""), ("lan78xx", "LAN7800"), ("r8169", "RTL8125B"), ("macb", "RP1")]
MS_REFUSED = [("ax88179_178a", "AX88179"), ("r8152", "RTL8153"), ("igb", "I350"),
              ("igc", "I225-V"), ("atlantic", "AQC107"), ("r8169", "RTL8101e"),
              ("asix", "AX88178")]  # fmt: skip


@POSIX
@root
@pytest.mark.parametrize(("driver", "chip"), MS_TAKEN + MS_REFUSED + [("stmmac", "RK3568")])
def test_master_slave_is_answered_as_the_drivers_ksettings_report_it(
    tmp_path: Path, driver: str, chip: str
) -> None:
    """Row 2: ethnl_update_linkmodes refuses master-slave where get_link_ksettings reports
    MASTER_SLAVE_CFG_UNSUPPORTED: only phy_ethtool_ksettings_get fills it (phylib, phylink with
    a PHY), and genphy_read_status leaves it unsupported on a PHY that is not gigabit-capable
    (RTL8101e's 10/100); mii, r8152, igb, igc, atlantic never set it. A gigabit PHY takes it
    (phy_ethtool_ksettings_set: master_slave_set, autonegotiation again). stmmac: the board's
    PHY decides whether it is gigabit: the lab refuses to guess."""
    path = _up(tmp_path, driver, chip)
    answer = ethtool(path, "-s", "eth0", "master-slave", "forced-master")
    if (driver, chip) in MS_TAKEN:
        assert answer == ("", [], 0)
    elif driver == "stmmac":
        assert answer[2] == 1 and answer[1][0].startswith("sbctune lab: ")
    else:
        assert answer[1:] == (_nl("master/slave configuration not supported by device "
                                  "(offset 36)", EOPNOTSUPP), 75)  # fmt: skip


@POSIX
@root
@pytest.mark.parametrize(("driver", "chip"), [("bcmgenet", ""), ("macb", "RP1"),
                                              ("r8169", "RTL8125B"), ("igb", "I350"),
                                              ("igc", "I225-V"), ("atlantic", "AQC107"),
                                              ("asix", "AX88772B")])  # fmt: skip
def test_sopass_is_refused_without_magicsecure(tmp_path: Path, driver: str, chip: str) -> None:
    """Row 2: ethnl_set_wol (6.1, 6.12) refuses a SecureOn password unless get_wol supports
    WAKE_MAGICSECURE ("magicsecure not supported, cannot set password", EINVAL); none of
    these drivers' get_wol can (igb_get_wol's widest set is WAKE_UCAST|MCAST|BCAST|MAGIC|PHY,
    whatever its NVM says). The lab said "unknown parameter"."""
    path = _up(tmp_path, driver, chip)
    assert ethtool(path, "-s", "eth0", "sopass", "01:02:03:04:05:06")[1:] == (
        _nl("magicsecure not supported, cannot set password", EINVAL),
        75,
    )


@POSIX
@root
def test_igb_wake_on_lan_answers_only_what_its_source_settles(tmp_path: Path) -> None:
    """Row 3: igb_get_wol reports supported modes only with IGB_FLAG_WOL_SUPPORTED (the NVM's
    APME word read at probe, igb_probe / igb_wol_exclusion): the lab cannot know it, so `wol g`
    is refused with the lab's word, never taken; a mode past igb_get_wol's widest set (a: ARP)
    is EINVAL either way, and `wol d` is taken (igb_set_wol returns 0 for no mode without the
    flag). Before, the lab took every mode."""
    path = _up(tmp_path, "igb", "I350")
    g = ethtool(path, "-s", "eth0", "wol", "g")
    assert g[2] == 1 and g[1][0].startswith("sbctune lab: ")
    assert ethtool(path, "-s", "eth0", "wol", "a")[1:] == (
        _nl("cannot enable unsupported WoL mode", EINVAL),
        75,
    )
    assert ethtool(path, "-s", "eth0", "wol", "d") == ("", [], 0)


@POSIX
@root
@pytest.mark.parametrize("mode", ["g", "u", "d"])
def test_stmmac_wake_on_lan_is_the_boards(tmp_path: Path, mode: str) -> None:
    """Row 3: stmmac_get_wol answers WAKE_MAGIC|WAKE_UCAST only with plat->pmt and
    device_can_wakeup, else the PHY's (phylink_ethtool_get_wol), and stmmac_set_wol refuses
    even `d` where the device cannot wake (EOPNOTSUPP): every answer is the board's, so the lab
    refuses to guess. Before, it took any mode."""
    path = _up(tmp_path, "stmmac", "RK3568", tag=mode)
    refused = ethtool(path, "-s", "eth0", "wol", mode)
    assert refused[2] == 1 and refused[1][0].startswith("sbctune lab: ")
