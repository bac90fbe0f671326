"""Audit 10 (resources/tuning/driver_caps_audit10.md): what the ninth read noticed across
drivers and left, settled from the kernel's source (Debian 6.1 / 6.12). Each test failed
before its row was fixed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.fake_ethtool_support import ethtool, lab_state

POSIX = pytest.mark.posix_only("the lab's fake ethtool (Linux-only lab) locks its state with fcntl")
UP = {"carrier": True, "speed": "1000", "duplex": "full"}
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
