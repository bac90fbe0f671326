"""Audit 34a (resources/tuning/driver_caps_audit34a.md): the bar's check of bcmgenet, macb,
lan78xx, smsc95xx, ax88179_178a, r8152 and cdc_ncm in Debian's 6.1, 6.12 and 7.2 source.

Row 1: rtl8152_probe_once (drivers/net/usb/r8152.c, 6.1, 6.12 and 7.2) sets
`tp->mii.phy_id = R8152_PHY_ID` (32), which mii_ethtool_get_link_ksettings writes as the
link's phy_address: `ethtool IFACE` prints "PHYAD: 32", as a real gigabit r8152 adapter does
(tests/captures/ethtool/r8152_gigabit_netdev_2024_ethtool_phyad_32.txt). Before, the lab
printed "PHYAD: 0" (audit 9a row 1 read "never phy_id").
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fake_ethtool_support import LINK_UP, ethtool, lab_state, with_link

pytestmark = pytest.mark.posix_only("the lab's fake ethtool locks its state with fcntl")
CAPTURES = Path(__file__).resolve().parents[1] / "captures" / "ethtool"
SERIES = ["6.1.0-27-arm64", "6.12.57+deb13-arm64", "7.2.12+deb14-arm64"]


def _linkinfo(text: str) -> list[str]:
    """The lines ethtool's linkinfo_reply_cb prints (Port, PHYAD, Transceiver), unindented."""
    keys = ("Port:", "PHYAD:", "Transceiver:")
    return [line.strip() for line in text.splitlines() if line.strip().startswith(keys)]


@pytest.mark.parametrize("kernel", SERIES)
def test_an_r8152_shows_phy_address_32_as_a_real_adapter_does(tmp_path: Path, kernel: str) -> None:
    real = (CAPTURES / "r8152_gigabit_netdev_2024_ethtool_phyad_32.txt").read_text("utf-8")
    assert _linkinfo(real) == ["Port: MII", "PHYAD: 32", "Transceiver: internal"]
    state = with_link(lab_state(tmp_path, "r8152", "RTL8153", kernel), **LINK_UP)
    out, err, code = ethtool(state, "eth0")
    assert (err, code) == ([], 0)
    assert _linkinfo(out) == _linkinfo(real)
    # the capture's other mii lines, which the lab already showed
    for label in ("Supported pause frame use", "Advertised pause frame use"):
        shown = next(line.strip() for line in out.splitlines() if label in line)
        assert shown in real


@pytest.mark.parametrize("kernel", SERIES[:2])
def test_setting_the_r8152s_own_phy_address_calls_no_driver(tmp_path: Path, kernel: str) -> None:
    """ethnl_set_linkinfo (ethnl_update_u8): `-s phyad 32` changes nothing, so
    rtl8152_set_link_ksettings (which would restart autonegotiation) is not called; the lab's
    state keeps its autonegotiation and its advertisement."""
    state = with_link(lab_state(tmp_path, "r8152", "RTL8153", kernel), **LINK_UP)
    before = ethtool(state, "eth0")[0]
    assert ethtool(state, "-s", "eth0", "phyad", "32") == ("", [], 0)
    assert ethtool(state, "eth0")[0] == before
