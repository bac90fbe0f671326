"""``ethtool IFACE`` for every one of the 13 pasted drivers (issue 21, audit4a row 7's left
part, closed in session 13): igc, cdc_ncm, atlantic, stmmac and asix had no facts in
resources/lab/ethtool/link_settings.toml, so a profile naming them answered ``ethtool eth0``
with "ethtool: command not found". Facts from each driver's get_link_ksettings (igc:
igc_ethtool_get_link_ksettings; cdc_ncm: usbnet_get_link_ksettings_internal; atlantic, stmmac,
asix: the chip or PHY decides the modes, so only what the source decides is shown) and their
set_link_ksettings (igc: "Force mode currently not supported"; atlantic:
aq_nic_set_link_ksettings' -1 for a rate it has no case for).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sbctune.inventory.parsers.ethtool import parse_ethtool
from sbctune.lab.ethtool_state import interface_state
from sbctune.tuning import driver_caps
from tests.fake_ethtool_support import EMPTY, ethtool

# smsc95xx answers from its profile's real capture (pi1b-smsc95xx, seed 001: an older mii-based
# kernel); 6.1's phylib answer for the LAN9512's PHY has no facts here (not read for this)
PASTED = [d for d in driver_caps.table()["pasted"] if d != "smsc95xx"]


def _lab(tmp_path: Path, driver: str) -> str:
    iface = interface_state(driver, EMPTY, "eth0", "", "")
    assert iface["link"] is not None, f"{driver}: no link settings"
    iface["link"].update(carrier=True, speed="1000", duplex="full")
    path = tmp_path / f"{driver}.json"
    path.write_text(json.dumps({"schema": 1, "interfaces": {"eth0": iface}}), encoding="utf-8")
    return str(path)


def _link(path: str) -> dict[str, object]:
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    link: dict[str, object] = data["interfaces"]["eth0"]["link"]
    return link


@pytest.mark.posix_only("the lab's fake ethtool (Linux-only lab) locks its state with fcntl")
@pytest.mark.parametrize("driver", PASTED)
def test_every_pasted_driver_answers_ethtool_iface(tmp_path: Path, driver: str) -> None:
    out, err, code = ethtool(_lab(tmp_path, driver), "eth0")
    assert code == 0 and err == [] and out.startswith("Settings for eth0:\n"), driver
    parsed = parse_ethtool(out)[0]
    assert (parsed.speed_mbps, parsed.link_detected) == (1000, True), driver


@pytest.mark.posix_only("the lab's fake ethtool (Linux-only lab) locks its state with fcntl")
def test_igc_shows_its_six_modes_and_does_not_force_a_speed(tmp_path: Path) -> None:
    path = _lab(tmp_path, "igc")
    parsed = parse_ethtool(ethtool(path, "eth0")[0])[0]
    assert "2500baseT/Full" in parsed.supported_link_modes
    assert "1000baseT/Half" not in parsed.supported_link_modes
    assert parsed.advertised_link_modes == parsed.supported_link_modes  # autoneg_advertised 0xaf
    # "Force mode currently not supported": 0, the link reset, autoneg and its modes kept
    assert ethtool(path, "-s", "eth0", "speed", "100", "duplex", "full", "autoneg", "off") == (
        "", [], 0)  # fmt: skip
    link = _link(path)
    assert link["autoneg"] is True and link["forced"] is None
    assert "2500baseT/Full" in list(link["advertised"])  # type: ignore[call-overload]


@pytest.mark.posix_only("the lab's fake ethtool (Linux-only lab) locks its state with fcntl")
def test_cdc_ncm_shows_only_a_speed_and_refuses_s(tmp_path: Path) -> None:
    path = _lab(tmp_path, "cdc_ncm")
    out = ethtool(path, "eth0")[0]
    assert "\tSupported link modes:   Not reported\n" in out
    assert "\tSupports auto-negotiation: No\n" in out and "\tAuto-negotiation: off\n" in out
    assert "\tPort: Twisted Pair\n" in out and "\tMDI-X: Unknown\n" in out
    refused = ethtool(path, "-s", "eth0", "speed", "100", "duplex", "full", "autoneg", "off")
    assert refused == ("", ["netlink error: Operation not supported"], 75)


@pytest.mark.posix_only("the lab's fake ethtool (Linux-only lab) locks its state with fcntl")
@pytest.mark.parametrize("driver", ["atlantic", "stmmac", "asix"])
def test_a_chip_decided_driver_shows_no_guessed_modes(tmp_path: Path, driver: str) -> None:
    out = ethtool(_lab(tmp_path, driver), "eth0")[0]
    for guessed in ("Supported link modes", "Advertised link modes", "Port:", "Transceiver:"):
        assert guessed not in out, (driver, guessed)
    assert "\tAuto-negotiation: on\n" in out and "\tLink detected: yes\n" in out


@pytest.mark.posix_only("the lab's fake ethtool (Linux-only lab) locks its state with fcntl")
def test_atlantic_refuses_a_rate_it_has_no_case_for_with_eperm(tmp_path: Path) -> None:
    path = _lab(tmp_path, "atlantic")
    odd = ethtool(path, "-s", "eth0", "speed", "40", "duplex", "full", "autoneg", "off")
    assert odd == ("", ["netlink error: Operation not permitted"], 75)
    half = ethtool(path, "-s", "eth0", "speed", "2500", "duplex", "half", "autoneg", "off")
    assert half == ("", ["netlink error: Invalid argument"], 75)
    # an unnamed chip: only what every chip's link_speed_msk has (1000, 100)
    assert ethtool(path, "-s", "eth0", "speed", "1000", "duplex", "full", "autoneg", "off")[2] == 0


@pytest.mark.posix_only("the lab's fake ethtool (Linux-only lab) locks its state with fcntl")
@pytest.mark.parametrize(
    ("kernel", "shown"),
    [("6.1.0-28-arm64", "external"), ("6.12.47+rpt-rpi-2712", "internal"), ("", None)],
)
def test_the_rtl8125b_transceiver_is_the_kernel_series_phy_drivers(
    tmp_path: Path, kernel: str, shown: str | None
) -> None:
    """6.1 binds the RTL8125's PHY (0x001cc840) to "RTL8226B_RTL8221B 2.5Gbps PHY" (no
    PHY_IS_INTERNAL): external; 6.12's rtl8221b_match_phy_device declines a PHY without MMD
    over C22 and "Realtek Internal NBASE-T PHY" (PHY_IS_INTERNAL) takes it: internal. With no
    kernel named the series disagree: the line is left out. Before: external everywhere."""
    iface = interface_state("r8169", EMPTY, "eth0", "RTL8125B", kernel)
    iface["link"].update(carrier=True, speed="1000", duplex="full")
    path = tmp_path / "state.json"
    path.write_text(json.dumps({"schema": 1, "interfaces": {"eth0": iface}}), encoding="utf-8")
    out = ethtool(str(path), "eth0")[0]
    lines = [x.strip() for x in out.splitlines() if x.strip().startswith("Transceiver:")]
    assert lines == ([f"Transceiver: {shown}"] if shown else [])


@pytest.mark.posix_only("the lab's fake ethtool (Linux-only lab) locks its state with fcntl")
@pytest.mark.parametrize(
    ("chip", "speed", "code"),
    [
        ("AQC107", 10000, 0),
        ("AQC111", 10000, 75),
        ("AQC111", 5000, 0),
        ("AQC109", 5000, 75),
        ("AQC113", 10, 0),
        ("AQC107", 10, 75),
        ("AQC116C", 2500, 75),
        ("", 2500, 75),
        ("", 1000, 0),
    ],
)
def test_atlantic_forces_only_the_chips_own_rates(
    tmp_path: Path, chip: str, speed: int, code: int
) -> None:
    """aq_nic_set_link_ksettings: -1 (EPERM) for a rate outside the chip's link_speed_msk
    (hw_atl_b0.c / hw_atl2.c caps); an unnamed chip gets the rates every chip has."""
    iface = interface_state("atlantic", EMPTY, "eth0", chip, "")
    iface["link"].update(carrier=True, speed="1000", duplex="full")
    path = tmp_path / "state.json"
    path.write_text(json.dumps({"schema": 1, "interfaces": {"eth0": iface}}), encoding="utf-8")
    forced = ethtool(
        str(path), "-s", "eth0", "speed", str(speed), "duplex", "full", "autoneg", "off"
    )
    assert forced[2] == code
    if code:
        assert forced[1] == ["netlink error: Operation not permitted"]


@pytest.mark.posix_only("the lab's fake ethtool (Linux-only lab) locks its state with fcntl")
def test_atlantic_forces_no_half_duplex(tmp_path: Path) -> None:
    path = _lab(tmp_path, "atlantic")  # no chip's link_speed_msk has a *_HALF rate
    half = ethtool(path, "-s", "eth0", "speed", "100", "duplex", "half", "autoneg", "off")
    assert half == ("", ["netlink error: Operation not permitted"], 75)


@pytest.mark.posix_only("the lab's fake ethtool (Linux-only lab) locks its state with fcntl")
@pytest.mark.parametrize(("chip", "code"), [("AX88178", 0), ("AX88772B", 0), ("AX88172", 75)])
def test_asix_forces_gigabit_where_the_chips_ops_allow_it(
    tmp_path: Path, chip: str, code: int
) -> None:
    """AX88178: usbnet's mii with supports_gmii (ax88178_bind); AX88772: phylib's
    set_link_ksettings (ax88772_ethtool_ops); AX88172: mii without gmii, 1000 is EINVAL."""
    iface = interface_state("asix", EMPTY, "eth0", chip, "")
    iface["link"].update(carrier=True, speed="100", duplex="full")
    path = tmp_path / "state.json"
    path.write_text(json.dumps({"schema": 1, "interfaces": {"eth0": iface}}), encoding="utf-8")
    assert (
        ethtool(str(path), "-s", "eth0", "speed", "1000", "duplex", "full", "autoneg", "off")[2]
        == code
    )


@pytest.mark.posix_only("the lab's fake ethtool (Linux-only lab) locks its state with fcntl")
def test_cdc_ncm_duplex_is_the_kernels_zeroed_half(tmp_path: Path) -> None:
    """usbnet_get_link_ksettings_internal writes only the speed into the zeroed ksettings:
    DUPLEX_HALF (0), so ethtool shows "Duplex: Half" on a full-duplex link."""
    out = ethtool(_lab(tmp_path, "cdc_ncm"), "eth0")[0]
    assert "\tDuplex: Half\n" in out and "\tSpeed: 1000Mb/s\n" in out


@pytest.mark.posix_only("the lab's fake ethtool (Linux-only lab) locks its state with fcntl")
def test_r8152_forces_gigabit_full_duplex_and_advertises_only_its_modes(tmp_path: Path) -> None:
    """rtl8152_set_speed (audit 6a row 3): a forced 1000 is BMCR_SPEED1000 | BMCR_FULLDPLX
    whatever duplex was asked, so "duplex half" reads back Full (mii_ethtool_get_link_ksettings
    reads BMCR); with autoneg only the RTL_ADVERTISED_* modes count (no 1000baseT/Half), and
    an advertisement with none of them is EINVAL. Before, the lab applied mii's rules: a
    forced 1000 half stayed half and an advertisement of 1000baseT/Half alone was taken."""
    path = _lab(tmp_path, "r8152")
    assert ethtool(path, "-s", "eth0", "speed", "1000", "duplex", "half", "autoneg", "off")[2] == 0
    assert _link(path)["forced"] == {"speed": 1000, "duplex": "full"}
    assert ethtool(path, "-s", "eth0", "autoneg", "on", "advertise", "0x010") == (  # 1000 half
        "",
        ["netlink error: Invalid argument"],
        75,
    )
    assert ethtool(path, "-s", "eth0", "autoneg", "on", "advertise", "0x03f")[2] == 0  # all six
    assert "1000baseT/Half" not in _link(path)["advertised"]  # type: ignore[operator]
