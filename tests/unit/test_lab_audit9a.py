"""Audit 9a (resources/tuning/driver_caps_audit9a.md): what the lab's ``ethtool IFACE`` prints
for bcmgenet, lan78xx, ax88179_178a, r8152 and cdc_ncm where the kernel's source decides it
(the PHY address, the message level), against the code path. Each test failed before its row
was fixed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.fake_ethtool_support import ethtool, lab_state, root

POSIX = pytest.mark.posix_only("the lab's fake ethtool (Linux-only lab) locks its state with fcntl")


def _show(tmp_path: Path, driver: str, chip: str = "", series: str = "6.12") -> list[str]:
    path = lab_state(tmp_path, driver, chip, series)
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    data["interfaces"]["eth0"]["link"].update({"carrier": True, "speed": "1000", "duplex": "full"})
    Path(path).write_text(json.dumps(data), encoding="utf-8")
    out, err, code = ethtool(path, "eth0")
    assert (err, code) == ([], 0)
    return out.splitlines()


@POSIX
@pytest.mark.parametrize("series", ["6.1", "6.12"])
@pytest.mark.parametrize(
    ("driver", "chip", "phyad"),
    [
        ("ax88179_178a", "AX88179", 3),  # ax88179_bind: dev->mii.phy_id = 0x03
        ("r8152", "RTL8153", 32),  # rtl8152_probe_once: phy_id = R8152_PHY_ID (audit 34a)
        ("lan78xx", "LAN7800", 1),  # lan78xx_mdio_init: phy_mask ~(1 << 1), the internal PHY
        ("cdc_ncm", "", 0),  # usbnet_get_link_ksettings_internal: a zeroed ksettings
    ],
)
def test_phyad_is_the_address_the_driver_gives(
    tmp_path: Path, driver: str, chip: str, phyad: int, series: str
) -> None:
    """Row 1: ethtool 6.1 prints LINKINFO's PHYAD for every driver with get_link_ksettings
    (right after Port). mii_ethtool_get_link_ksettings writes mii->phy_id (ax88179: 3; r8152:
    R8152_PHY_ID, 32: audit 34a row 1), phy_ethtool_ksettings_get the PHY's MDIO address
    (lan78xx: 1, the only address lan78xx_mdio_init lets the bus probe on a LAN7800/7850).
    The lab left it out."""
    lines = _show(tmp_path, driver, chip, series)
    assert f"\tPHYAD: {phyad}" in lines
    port = next(i for i, line in enumerate(lines) if line.startswith("\tPort: "))
    assert lines[port + 1] == f"\tPHYAD: {phyad}"


@POSIX
@pytest.mark.parametrize("series", ["6.1", "6.12"])
@pytest.mark.parametrize(
    ("driver", "chip", "level", "names"),
    [
        ("ax88179_178a", "AX88179", 7, "drv probe link"),  # usbnet_probe: netif_msg_init(-1, ..)
        ("cdc_ncm", "", 7, "drv probe link"),
        ("lan78xx", "LAN7800", 7, "drv probe link"),  # lan78xx_probe
        ("bcmgenet", "", 7, "drv probe link"),  # bcmgenet_probe: GENET_MSG_DEFAULT
        (
            "r8152",
            "RTL8153",
            0x7FFF,  # rtl8152_probe_once: tp->msg_enable = 0x7FFF
            "drv probe link timer ifdown ifup rx_err tx_err tx_queued intr tx_done rx_status "
            "pktdata hw wol",
        ),
    ],
)
def test_the_message_level_is_shown_where_the_driver_has_one(
    tmp_path: Path, driver: str, chip: str, level: int, names: str, series: str
) -> None:
    """Row 2: ethtool 6.1's `ethtool IFACE` asks DEBUG_GET after WOL_GET and before
    LINKSTATE_GET, and prints (debug_reply_cb, with 8 spaces, not a tab) 'Current message
    level: 0x%08x (%u)' and the set classes' names (net/ethtool/common.c
    netif_msg_class_names) for every driver with get_msglevel: as the real smsc95xx capture
    (tests/captures/ethtool/seed001_pi1_smsc95xx.txt) shows. The lab printed none."""
    lines = _show(tmp_path, driver, chip, series)
    at = lines.index(f"        Current message level: 0x{level:08x} ({level})")
    assert lines[at + 1] == " " * 31 + names
    assert lines[at + 2] == "\tLink detected: yes"


@POSIX
def test_no_message_level_without_get_msglevel(tmp_path: Path) -> None:
    """macb's ethtool_ops (both series, gem's too) have no get_msglevel: DEBUG_GET is
    EOPNOTSUPP and ethtool prints no line (the control for row 2)."""
    lines = _show(tmp_path, "macb", "")
    assert not [line for line in lines if "message level" in line]


@POSIX
@root
@pytest.mark.parametrize("series", ["6.1", "6.12"])
@pytest.mark.parametrize(
    ("argv", "lines", "code"),
    [
        (
            ("-s", "eth0", "speed", "100", "duplex", "full", "autoneg", "off"),
            ["netlink error: failed to retrieve link settings", "netlink error: Invalid argument"],
            75,
        ),
        (("--show-eee", "eth0"), ["netlink error: No such device"], 1),
        (("--set-eee", "eth0", "eee", "off"), ["netlink error: No such device"], 76),
        (("-A", "eth0", "rx", "off"), ["netlink error: No such device"], 76),
    ],
)
def test_bcmgenet_refuses_what_needs_its_phy_while_down(
    tmp_path: Path, series: str, argv: tuple[str, ...], lines: list[str], code: int
) -> None:
    """Row 3: bcmgenet_close disconnects the PHY (phy_disconnect: dev->phydev NULL until
    bcmgenet_open), and bcmgenet_get/set_link_ksettings refuse !netif_running with EINVAL:
    while the interface is down, -s (ethnl_set_linkmodes reads the settings first) is
    EINVAL, --show-eee, --set-eee and -A are ENODEV. The lab answered them as if it were up;
    up, it still does (the control)."""
    path = lab_state(tmp_path, "bcmgenet", "", series, up=False)
    assert ethtool(path, *argv)[1:] == (lines, code)
    up = lab_state(tmp_path, "bcmgenet", "", series, up=True)
    assert ethtool(up, *argv)[1:] == ([], 0)


@POSIX
@root
def test_a_wol_set_alone_does_not_meet_the_link_settings_refusal(tmp_path: Path) -> None:
    """`ethtool -s IFACE wol d` is a WOL_SET alone (no LINKMODES_SET): bcmgenet_set_wol does
    not need the PHY, so down it answers as up (here: d is all bcmgenet_get_wol offers)."""
    path = lab_state(tmp_path, "bcmgenet", "", "6.12", up=False)
    assert ethtool(path, "-s", "eth0", "wol", "d")[1:] == ([], 0)
