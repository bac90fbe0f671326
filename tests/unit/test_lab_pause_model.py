"""One pause model for every driver (fake_ethtool_pause.shown_pause, driver_caps facts
`pause_resolved`, `pause_shown_resolved`, `pause_advertisement`): what `ethtool -a` shows and
what a pause set bounces, for each of the 13 drivers, with the carrier up at 1000 Mb/s full
duplex against the lab's partner (Pause + Asym_Pause), then with no carrier."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.unit.test_lab_driver_table import ethtool, lab, root

pytestmark = pytest.mark.posix_only("the lab's fake ethtool locks its state with fcntl")

NONE = "no pause"  # get_pauseparam absent: EOPNOTSUPP
DRIVERS = [
    ("bcmgenet", ""), ("r8169", "RTL8125B"), ("lan78xx", "LAN7515"), ("r8152", "RTL8153"),
    ("igb", "82580"), ("igc", "I225-V"), ("atlantic", "AQC107"), ("macb", ""),
    ("stmmac", "RK3588"), ("smsc95xx", ""), ("ax88179_178a", ""), ("cdc_ncm", ""),
    ("asix", "AX88772B"),
]  # fmt: skip

# (autoneg, rx, tx) shown at start, after `-A rx off tx off`, after `-A rx on tx on`, and
# after `-A rx off tx on`; then the bounces counted; then what -a shows without carrier.
EXPECTED: dict[str, Any] = {
    # bcmgenet_get_pauseparam: the MAC's resolution while the carrier is up; the request without
    "bcmgenet": ("on on on", "on off off", "on on on", "on off on", 3, "on off on"),
    # rtl8169_get_pauseparam: phy_get_pause; phy_support_asym_pause's Pause+Asym at start
    "r8169": ("on on on", "on off off", "on on on", "on off on", 3, "on off off"),
    "lan78xx": ("on on on", "on off off", "on on on", "on off on", 3, "on off on"),
    # rtl8152_get_pauseparam: mii_resolve_flowctrl_fdx of MII_ADVERTISE against MII_LPA (no
    # partner without a link), r8152b_enable_fc's Pause+Asym at start (audit 8a row 1)
    "r8152": ("on on on", "on off off", "on on on", "on off on", 0, "on off off"),
    # igb/igc_set_pauseparam with autoneg: fc_default, the RX/TX asked are ignored
    # (a set asking what -a shows already does not reach the driver: ethnl_set_pause)
    "igb": ("on on on", "on on on", "on on on", "on on on", 2, "on on on"),
    "igc": ("on on on", "on on on", "on on on", "on on on", 2, "on on on"),
    "atlantic": ("off on on", "off off off", "off on on", "off off on", 0, "off off on"),
    "macb": NONE,
    "stmmac": ("on off off", "on off off", "on on on", "on off on", 2, "on off on"),
    "smsc95xx": NONE,
    "ax88179_178a": NONE,
    "cdc_ncm": NONE,
    "asix": ("on off off", "on off off", "on on on", "on off on", 2, "on off on"),
}


def shown(state: str) -> str:
    out, _, code = ethtool(state, "-a", "eth0")
    assert code == 0, out
    rows = [line.split(":", 1)[1].strip() for line in out.splitlines()[1:4]]
    return " ".join(rows)


def set_link(state: str, **link: Any) -> None:
    data = json.loads(Path(state).read_text(encoding="utf-8"))
    data["interfaces"]["eth0"].setdefault("link", {}).update(link)
    Path(state).write_text(json.dumps(data), encoding="utf-8")


def bounces(state: str) -> int:
    data = json.loads(Path(state).read_text(encoding="utf-8"))
    return int((data["interfaces"]["eth0"].get("pause") or {}).get("bounces", 0))


@root
@pytest.mark.parametrize(("driver", "chip"), DRIVERS)
def test_every_drivers_pause_answers(tmp_path: Path, driver: str, chip: str) -> None:
    """Unchanged for every driver but r8169, whose -a now starts from phy_support_asym_pause's
    advertisement and shows nothing without a link (phy_get_pause), as bcmgenet's model does
    for its MAC (audit 6b row 3's 'left'). Before: r8169's answers came from a second model."""
    state = lab(tmp_path, driver, chip, "6.12")
    expected = EXPECTED[driver]
    if expected == NONE:
        assert ethtool(state, "-a", "eth0")[2] != 0
        return
    set_link(state, carrier=True, speed="1000", duplex="full")
    got = [shown(state)]
    for rx, tx in (("off", "off"), ("on", "on"), ("off", "on")):
        assert ethtool(state, "-A", "eth0", "rx", rx, "tx", tx)[2] == 0
        got.append(shown(state))
    got.append(bounces(state))
    set_link(state, carrier=False)
    got.append(shown(state))
    assert tuple(got) == expected


@root
def test_r8169_keeps_the_link_when_the_advertisement_stays(tmp_path: Path) -> None:
    """phy_set_asym_pause renegotiates only when linkmode_set_pause changes the advertisement
    and the PHY autonegotiates: from Pause+Asym (shown on/on) `tx off` asks for the same
    bits; over a forced link nothing renegotiates and -a shows all off."""
    state = lab(tmp_path, "r8169", "RTL8125B", "6.12")
    set_link(state, carrier=True, speed="1000", duplex="full")
    assert ethtool(state, "-A", "eth0", "tx", "off")[2] == 0
    assert (shown(state), bounces(state)) == ("on on on", 0)
    assert ethtool(state, "-A", "eth0", "rx", "off", "tx", "on")[2] == 0
    assert (shown(state), bounces(state)) == ("on off on", 1)  # Asym only: we send
    set_link(state, autoneg=False)
    assert ethtool(state, "-A", "eth0", "rx", "on", "tx", "on")[2] == 0
    assert (shown(state), bounces(state)) == ("off off off", 1)
