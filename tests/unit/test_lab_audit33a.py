"""Audit 33a (resources/tuning/driver_caps_audit33a.md): a fresh whole read of bcmgenet, macb,
lan78xx, smsc95xx, ax88179_178a, r8152 and cdc_ncm in Debian's 6.1 and 6.12 source.

Row 1: lan78xx_set_pause (drivers/net/usb/lan78xx.c, 6.1 and 6.12) rewrites the PHY's pause
advertisement only `if (ecmd.base.autoneg)`: over a forced link the request is stored and the
advertisement stays, so `ethtool eth0` keeps showing the old "Advertised pause frame use" (fact
pause_advertisement_needs_link_autoneg). bcmgenet_phy_pause_set and rtl8152_set_pauseparam
rewrite it whatever the link. Before, the lab showed every accepted request as advertised.
Row 2: smsc95xx is phylib on 6.1 and 6.12 (phy_ethtool_get_link_ksettings; the chip's internal
PHY at MDIO address 1, a 10/100 PHY (its BMSR); phy_probe advertises before it adds the pause bits
to `supported`, and smsc95xx never asks for pause), which a real Pi 3 B prints line for line
(tests/captures/ethtool/pi3b_smsc95xx_unknown_netbox_3175.txt). Before, the lab refused
`ethtool eth0` for an smsc95xx without a capture ("answers this from its own hardware").
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fake_ethtool_support import LINK_UP, ethtool, lab_state, root, with_link

pytestmark = pytest.mark.posix_only("the lab's fake ethtool locks its state with fcntl")
CAPTURE = (
    Path(__file__).resolve().parents[1] / "captures" / "ethtool"
    / "pi3b_smsc95xx_unknown_netbox_3175.txt"
)  # fmt: skip
SERIES = ["6.1.0-27-arm64", "6.12.57+deb13-arm64"]


def _line(text: str, label: str) -> str:
    """The value `ethtool eth0` prints after "LABEL: "."""
    return text.split(f"{label}: ")[1].split("\n")[0].strip()


def _advertised_pause(state: str) -> str:
    out, err, code = ethtool(state, "eth0")
    assert code == 0, err
    return _line(out, "Advertised pause frame use")


@root
@pytest.mark.parametrize("kernel", SERIES)
def test_lan78xx_keeps_its_pause_advertisement_over_a_forced_link(
    tmp_path: Path, kernel: str
) -> None:
    state = with_link(lab_state(tmp_path, "lan78xx", "LAN7800", kernel), **LINK_UP)
    assert _advertised_pause(state) == "Symmetric"  # lan78xx_phy_init: RX and TX asked
    assert ethtool(state, "-s", "eth0", "speed", "100", "duplex", "full", "autoneg", "off")[2] == 0
    assert ethtool(state, "-A", "eth0", "autoneg", "off", "rx", "off", "tx", "off")[2] == 0
    assert "Autonegotiate:\toff\nRX:\t\toff\nTX:\t\toff\n" in ethtool(state, "-a", "eth0")[0]
    assert _advertised_pause(state) == "Symmetric"  # the request is stored, not advertised
    # the link autonegotiates again with what the PHY still advertises
    assert ethtool(state, "-s", "eth0", "autoneg", "on")[2] == 0
    assert _advertised_pause(state) == "Symmetric"
    # over an autonegotiating link the next request is advertised
    assert ethtool(state, "-A", "eth0", "autoneg", "on", "rx", "on", "tx", "off")[2] == 0
    assert _advertised_pause(state) == "Symmetric Receive-only"


@root
@pytest.mark.parametrize(("driver", "chip"), [("lan78xx", "LAN7800"), ("bcmgenet", "")])
def test_a_pause_request_over_an_autonegotiating_link_is_advertised(
    tmp_path: Path, driver: str, chip: str
) -> None:
    """The control: with link autonegotiation lan78xx advertises the request; bcmgenet does
    whatever the link (bcmgenet_phy_pause_set), so its forced link advertises it too."""
    state = with_link(lab_state(tmp_path, driver, chip, SERIES[0]), **LINK_UP)
    assert ethtool(state, "-A", "eth0", "autoneg", "off", "rx", "off", "tx", "off")[2] == 0
    assert _advertised_pause(state) == "No"
    if driver == "bcmgenet":
        forced = ("speed", "100", "duplex", "full", "autoneg", "off")
        assert ethtool(state, "-s", "eth0", *forced)[2] == 0
        assert ethtool(state, "-A", "eth0", "rx", "on", "tx", "on")[2] == 0
        assert _advertised_pause(state) == "Symmetric Receive-only"


@pytest.mark.parametrize("kernel", SERIES)
def test_an_smsc95xx_shows_its_phylib_link_settings_as_a_real_pi_3_b(
    tmp_path: Path, kernel: str
) -> None:
    out, err, code = ethtool(lab_state(tmp_path, "smsc95xx", kernel=kernel), "eth0")
    assert code == 0, err
    real = CAPTURE.read_text(encoding="utf-8")
    for label in (
        "Supported pause frame use",
        "Supports auto-negotiation",
        "Advertised pause frame use",
        "Advertised auto-negotiation",
        "Port",
        "PHYAD",
        "Transceiver",
        "Supports Wake-on",
        "Wake-on",
    ):
        assert _line(out, label) == _line(real, label), label
    assert "10baseT/Half 10baseT/Full" in out and "100baseT/Half 100baseT/Full" in out
    assert "1000baseT" not in out  # a 10/100 PHY: genphy_read_abilities reads its BMSR
    assert "Supported ports: [ TP MII ]" in out
    assert "MDI-X" not in out  # 6.12.117's smsc.c sets mdix_ctrl by the PHY's ID: left out


@root
def test_an_smsc95xx_takes_a_forced_speed_as_phylib_does(tmp_path: Path) -> None:
    state = lab_state(tmp_path, "smsc95xx", kernel=SERIES[1])
    assert ethtool(state, "-s", "eth0", "speed", "10", "duplex", "half", "autoneg", "off")[2] == 0
    out = ethtool(state, "eth0")[0]
    assert _line(out, "Auto-negotiation") == "off"
    # phy_ethtool_ksettings_set checks a forced speed against 10/100/1000 only, not against
    # the PHY's modes: a 10/100 PHY takes 1000 (genphy_setup_forced writes the BMCR bit)
    assert ethtool(state, "-s", "eth0", "speed", "1000", "duplex", "full", "autoneg", "off")[2] == 0
    assert ethtool(state, "-s", "eth0", "speed", "2500", "duplex", "full", "autoneg", "off")[2] != 0


LINK_LINES = ("Supported link modes", "Advertised link modes", "Speed:", "Duplex:", "Port:",
              "PHYAD:", "Transceiver:", "Auto-negotiation:")  # fmt: skip


@root
@pytest.mark.parametrize("kernel", [*SERIES, ""])
def test_a_down_genet_prints_no_link_settings_and_their_errors(tmp_path: Path, kernel: str) -> None:
    """Row 3 (audit 9a L2): bcmgenet_get_link_ksettings is EINVAL while the interface is down,
    so LINKMODES_GET and LINKINFO_GET fail ("failed to retrieve link settings",
    net/ethtool/linkmodes.c and linkinfo.c) and ethtool's nl_gset, which silences only
    EOPNOTSUPP, prints both errors and the lines of WOL_GET, DEBUG_GET and LINKSTATE_GET.
    Before, the lab printed every link line of a down GENET."""
    out, err, code = ethtool(lab_state(tmp_path, "bcmgenet", kernel=kernel, up=False), "eth0")
    assert code == 0
    assert err == ["netlink error: failed to retrieve link settings",
                   "netlink error: Invalid argument"] * 2  # fmt: skip
    assert out.startswith("Settings for eth0:\n")
    assert not [line for line in LINK_LINES if line in out]
    assert _line(out, "Supports Wake-on") == "d" and _line(out, "Wake-on") == "d"
    assert "Current message level: 0x00000007 (7)" in out
    assert out.rstrip().endswith("Link detected: no")
    # the control: up, every line is there and nothing is refused
    up_out, up_err, _ = ethtool(lab_state(tmp_path, "bcmgenet", kernel=kernel, up=True), "eth0")
    assert not up_err and all(line in up_out for line in LINK_LINES)


@pytest.mark.parametrize(("driver", "chip"), [("lan78xx", "LAN7800"), ("r8152", "RTL8153")])
def test_a_usb_nic_set_down_keeps_its_link_settings(tmp_path: Path, driver: str, chip: str) -> None:
    """lan78xx (phy_stop keeps the PHY) and r8152 (mii) answer get_link_ksettings while down."""
    out, err, code = ethtool(lab_state(tmp_path, driver, chip, SERIES[0], up=False), "eth0")
    assert code == 0 and not err and "Supported link modes" in out
