"""Audit 9b (resources/tuning/driver_caps_audit9b.md): the rows fixed in the shared data and the
lab, each checked as the user would see it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fake_ethtool_support import ethtool, lab_state, root

POSIX = pytest.mark.posix_only("the lab's fake ethtool (Linux-only lab) locks its state with fcntl")


def _autoneg(path: str) -> str:
    return ethtool(path, "eth0")[0].split("\tAuto-negotiation: ")[1].split("\n")[0]


@POSIX
@root
@pytest.mark.parametrize(
    ("driver", "chip"),
    [
        ("stmmac", "rockchip,rk3568-gmac"),
        ("stmmac", "allwinner,sun50i-h6-emac"),
        ("stmmac", "amlogic,meson-g12a-dwmac"),
        ("stmmac", "starfive,jh7110-dwmac"),
        ("macb", "RP1"),
    ],
)
@pytest.mark.parametrize("kernel", ["6.1.0-31-arm64", "6.12.25+rpt-rpi-v8"])
def test_phylink_with_a_phy_takes_a_forced_speed_as_phylib(
    tmp_path: Path, driver: str, chip: str, kernel: str
) -> None:
    """Row 1: phylink_ethtool_ksettings_set (6.1 and 6.12) hands the request to
    phy_ethtool_ksettings_set when a PHY is attached (every SBC's stmmac and the Pi 5's macb),
    which takes 10/100/1000 with either duplex whatever the modes list. The lab checked the
    forced mode against its own supported list, empty for stmmac (the board's PHY decides the
    modes): every `ethtool -s IFACE speed 100 duplex full autoneg off` was EINVAL."""
    path = lab_state(tmp_path, driver, chip, kernel)
    assert ethtool(path, "-s", "eth0", "speed", "100", "duplex", "full", "autoneg", "off") == (
        "", [], 0)  # fmt: skip
    assert _autoneg(path) == "off"
    # phylib's own check still refuses a speed it cannot force (EINVAL, ethtool -s exit 75)
    refused = ethtool(path, "-s", "eth0", "speed", "2500", "duplex", "full", "autoneg", "off")
    assert refused == ("", ["netlink error: Invalid argument"], 75)
    assert ethtool(path, "-s", "eth0", "autoneg", "on")[2] == 0
    assert _autoneg(path) == "on"


@POSIX
@root
@pytest.mark.parametrize("chip", ["AX88772B", "AX88772C", "AX88178", "AX88172"])
@pytest.mark.parametrize("kernel", ["6.1.0-31-arm64", "6.12.25+rpt-rpi-v8"])
def test_asix_wake_on_lan_takes_only_phy_and_magic(tmp_path: Path, chip: str, kernel: str) -> None:
    """Row 2: every asix ethtool_ops has asix_get_wol, whose supported modes are WAKE_PHY |
    WAKE_MAGIC: ethnl_set_wol refuses unicast ("cannot enable unsupported WoL mode", EINVAL).
    The lab took any mode. Wake-on itself (the chip's monitor-mode register) stays unshown."""
    path = lab_state(tmp_path, "asix", chip, kernel)
    refused = ethtool(path, "-s", "eth0", "wol", "u")
    assert refused == (
        "", ["netlink error: cannot enable unsupported WoL mode",
             "netlink error: Invalid argument"], 75)  # fmt: skip
    assert ethtool(path, "-s", "eth0", "wol", "pg")[2] == 0
    assert "Wake-on" not in ethtool(path, "eth0")[0]


@POSIX
@pytest.mark.parametrize(
    ("driver", "chip", "shown"),
    [
        ("igb", "82580", "legacy-rx: off\n"),
        ("igb", "I211", "legacy-rx: off\n"),
        ("igc", "I226-V", "legacy-rx: off\n"),
        (
            "atlantic",
            "AQC107",
            "DMASystemLoopback  : off\nPKTSystemLoopback  : off\nDMANetworkLoopback : off\n"
            "PHYInternalLoopback: off\nPHYExternalLoopback: off\n",
        ),
    ],
)
@pytest.mark.parametrize("kernel", ["6.1.0-31-arm64", "6.12.25+rpt-rpi-v8"])
def test_private_flags_are_the_drivers_own_table(
    tmp_path: Path, driver: str, chip: str, shown: str, kernel: str
) -> None:
    """Row 3: igb_priv_flags_strings / igc_priv_flags_strings ("legacy-rx") and atlantic's
    aq_ethtool_priv_flag_names (five loopback modes) are in the source, all off until set.
    ethtool 6.1's privflags_reply_cb pads each name to the longest. The lab said it had no
    capture of them ("answers this from its own hardware")."""
    path = lab_state(tmp_path, driver, chip, kernel)
    assert ethtool(path, "--show-priv-flags", "eth0") == (
        f"Private flags for eth0:\n{shown}", [], 0)  # fmt: skip


@POSIX
@pytest.mark.parametrize(
    ("chip", "name"),
    [
        ("rockchip,rk3568-gmac", "st_gmac"),
        ("rockchip,rk3399-gmac", "st_gmac"),
        ("amlogic,meson-g12a-dwmac", "st_gmac"),
        ("nxp,imx8mp-dwmac-eqos", "st_gmac"),
        ("starfive,jh7110-dwmac", "st_gmac"),
        ("allwinner,sun7i-a20-gmac", "st_gmac"),
        ("allwinner,sun8i-h3-emac", "st_mac100"),
        ("allwinner,sun50i-a64-emac", "st_mac100"),
        ("allwinner,sun50i-h6-emac", "st_mac100"),
    ],
)
@pytest.mark.parametrize("kernel", ["6.1.0-31-arm64", "6.12.25+rpt-rpi-v8"])
def test_stmmac_ethtool_i_names_the_mac_not_the_module(
    tmp_path: Path, chip: str, name: str, kernel: str
) -> None:
    """Row 4: stmmac_ethtool_getdrvinfo writes GMAC_ETHTOOL_NAME "st_gmac" where has_gmac or
    has_gmac4 is set (every glue but dwmac-sun8i) and MAC100_ETHTOOL_NAME "st_mac100" on the
    Allwinner EMACs, which set neither. The lab's `ethtool -i` said "driver: stmmac", a line
    no kernel prints."""
    path = lab_state(tmp_path, "stmmac", chip, kernel)
    assert ethtool(path, "-i", "eth0")[0].startswith(f"driver: {name}\n")


def _feature(path: str, name: str) -> str:
    return ethtool(path, "-k", "eth0")[0].split(f"\n{name}: ")[1].split("\n")[0]


@POSIX
@pytest.mark.parametrize(
    ("chip", "kernel", "vlan", "tc"),
    [
        ("rockchip,rk3568-gmac", "6.12.57-arm64", "on", "off"),
        ("rockchip,rk3588-gmac", "6.12.57-arm64", "on", "off"),
        ("nxp,imx8mp-dwmac-eqos", "6.12.57-arm64", "on", "off"),
        ("nxp,imx8mp-dwmac-eqos", "6.1.0-31-arm64", "on [fixed]", "off"),
        ("starfive,jh7110-dwmac", "6.12.57-riscv64", "on", "off"),
        ("rockchip,rk3568-gmac", "6.1.0-31-arm64", "on [fixed]", "off"),
        ("amlogic,meson-g12a-dwmac", "6.12.57-arm64", "on [fixed]", "off [fixed]"),
    ],
)
def test_stmmac_gmac4_features_changeable_as_probe_makes_them(
    tmp_path: Path, chip: str, kernel: str, vlan: str, tc: str
) -> None:
    """Row 5: every GMAC4 core (snps,dwmac-4.x/5.x: RK356x, RK3588, i.MX8MP, JH7110) has tc ops,
    so stmmac_dvr_probe puts HW_TC in hw_features ("hw-tc-offload: off", changeable): the lab
    had it fixed on the i.MX8MP and JH7110. 6.12 also puts HW_VLAN_CTAG_RX in hw_features where
    has_gmac4 ("rx-vlan-offload: on", changeable); the lab showed it "on [fixed]" everywhere.
    A 3.x core (Amlogic's) keeps both fixed."""
    path = lab_state(tmp_path, "stmmac", chip, kernel)
    assert _feature(path, "rx-vlan-offload") == vlan
    assert _feature(path, "hw-tc-offload") == tc


def _modes(text: str, label: str) -> list[str]:
    """The modes of one link-mode block: its line, then the continuation lines (a tab and
    spaces, as ethtool indents them)."""
    first, *rest = text.split(f"\t{label}:")[1].split("\n")
    modes = first.split()
    for line in rest:
        if not line.startswith("\t "):
            break
        modes += line.split()
    return modes


@POSIX
@root
@pytest.mark.parametrize(
    ("chip", "modes", "port"),
    [
        ("AQC107", ["100", "1000", "10000", "2500", "5000"], "Twisted Pair"),
        ("AQC113", ["10", "100", "1000", "10000", "2500", "5000"], "Twisted Pair"),
        ("AQC109", ["100", "1000", "2500"], "Twisted Pair"),
        ("AQC116", ["10", "100", "1000"], "Twisted Pair"),
        ("AQC100", ["100", "1000", "10000", "2500", "5000"], "FIBRE"),
    ],
)
@pytest.mark.parametrize("kernel", ["6.1.0-31-arm64", "6.12.57-arm64"])
def test_atlantic_link_modes_are_the_chips_caps(
    tmp_path: Path, chip: str, modes: list[str], port: str, kernel: str
) -> None:
    """Row 6: aq_nic_get_link_ksettings lists the chip's link_speed_msk as full-duplex modes
    (in bit order, as ethtool prints them), Pause and Asym_Pause, Autoneg and TP (FIBRE on the
    AQC100), and advertises aq_nic_cfg.link_speed_msk: every rate, or only the forced one after
    `-s ... autoneg off` (aq_nic_set_link_ksettings). The lab showed no mode, port or pause
    line for any chip."""
    path = lab_state(tmp_path, "atlantic", chip, kernel)
    text = ethtool(path, "eth0")[0]
    full = [f"{m}baseT/Full" for m in modes]
    assert _modes(text, "Supported link modes") == full
    assert _modes(text, "Advertised link modes") == full
    assert "\tSupported pause frame use: Symmetric Receive-only\n" in text
    assert f"\tPort: {port}\n" in text
    assert ("\tMDI-X: Unknown\n" in text) == (port == "Twisted Pair")
    assert ethtool(path, "-s", "eth0", "speed", "1000", "duplex", "full", "autoneg", "off")[2] == 0
    assert _modes(ethtool(path, "eth0")[0], "Advertised link modes") == ["1000baseT/Full"]


@POSIX
@pytest.mark.parametrize(
    ("driver", "chip", "level", "names"),
    [
        ("igb", "82580", 7, "drv probe link"),
        ("igc", "I225-V", 7, "drv probe link"),
        ("atlantic", "AQC107", 5, "drv link"),
        ("stmmac", "rockchip,rk3568-gmac", 63, "drv probe link timer ifdown ifup"),
        ("asix", "AX88772B", 7, "drv probe link"),
    ],
)
@pytest.mark.parametrize("kernel", ["6.1.0-31-arm64", "6.12.57-arm64"])
def test_ethtool_shows_the_message_level_probe_sets(
    tmp_path: Path, driver: str, chip: str, level: int, names: str, kernel: str
) -> None:
    """Row 7: ethtool 6.1's `ethtool IFACE` asks DEBUG_GET after WoL; every driver here with
    get_msglevel answers the msg_enable its probe set (igb/igc DEFAULT_MSG_ENABLE, atlantic
    drv|link, stmmac default_msg_level, usbnet_probe's drv|probe|link), printed by
    debug_reply_cb with eight spaces and the class names. The lab printed no such line."""
    text = ethtool(lab_state(tmp_path, driver, chip, kernel), "eth0")[0]
    expected = (
        f"        Current message level: 0x{level:08x} ({level})\n"
        f"                               {names}\n\tLink detected: no\n"
    )
    assert text.endswith(expected)


@POSIX
def test_r8169_has_no_message_level(tmp_path: Path) -> None:
    """Row 7: r8169_main.c has no get_msglevel (both series): no line."""
    assert "message level" not in ethtool(lab_state(tmp_path, "r8169", "RTL8125B"), "eth0")[0]


@POSIX
def test_message_level_comes_after_the_wake_on_refusal_for_a_user(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Row 7: as a user, WOL_GET fails first (CAP_NET_ADMIN), then DEBUG_GET answers (no
    privilege needed): the refusal comes before the message level, once."""
    from sbctune.lab import fake_ethtool_link

    path = lab_state(tmp_path, "igb", "82580", "6.12.57-arm64")
    monkeypatch.setattr(fake_ethtool_link.os, "geteuid", lambda: 1000)
    text = fake_ethtool_link.show_link("eth0", _state(path))
    assert text.endswith(
        "netlink error: Operation not permitted\n"
        "        Current message level: 0x00000007 (7)\n"
        "                               drv probe link\n\tLink detected: no\n"
    )
    assert text.count("netlink error") == 1


def _state(path: str) -> dict[str, object]:
    import json

    return json.loads(Path(path).read_text(encoding="utf-8"))["interfaces"]["eth0"]  # type: ignore[no-any-return]


@POSIX
@pytest.mark.parametrize("kernel", ["6.1.0-31-arm64", "6.12.57-arm64"])
def test_atlantic_a0_silicon_has_only_its_caps_features(tmp_path: Path, kernel: str) -> None:
    """Row 8: DEFAULT_A0_BOARD_BASIC_CAPABILITIES (hw_atl_a0.c) has no TSO6, LRO, VLAN tag
    offloads, UDP segmentation, GSO partial or HW_TC: on the A0 silicon they are "off [fixed]"
    (aq_nic_ndev_init copies the caps' list into hw_features and features). The lab gave every
    chip the B0 list. A B0 chip keeps them on."""
    a0 = lab_state(tmp_path, "atlantic", "AQC107 (A0)", kernel)
    for name in ("large-receive-offload", "rx-vlan-offload", "hw-tc-offload", "tx-gso-partial"):
        assert _feature(a0, name) == "off [fixed]", name
    assert _feature(a0, "\ttx-tcp-segmentation") == "on"  # TSO (v4) is in the A0 caps
    b0 = lab_state(tmp_path, "atlantic", "AQC107", kernel)
    assert _feature(b0, "large-receive-offload") == "on"


_FE = ["10baseT/Half", "10baseT/Full", "100baseT/Half", "100baseT/Full"]


@POSIX
@pytest.mark.parametrize(
    ("chip", "modes", "transceiver"),
    [
        ("RTL8168h/8111h", [*_FE, "1000baseT/Full"], "external"),
        ("RTL8168fp/RTL8117", [*_FE, "1000baseT/Full"], "external"),
        ("RTL8169sb/8110sb", [*_FE, "1000baseT/Full"], "external"),
        ("RTL8411b", [*_FE, "1000baseT/Full"], "external"),
        ("RTL8101e/RTL8100e", _FE, "external"),
        ("RTL8106eus", _FE, "external"),
        ("RTL8402", _FE, "external"),
        ("RTL8125B", [*_FE, "1000baseT/Full", "2500baseT/Full"], "internal"),
    ],
)
def test_r8169_link_modes_are_the_chip_familys(
    tmp_path: Path, chip: str, modes: list[str], transceiver: str
) -> None:
    """Row 9: only the RTL8125/8126's NBASE-T PHY adds 2500baseT/Full (rtl822x_get_features) and
    is PHY_IS_INTERNAL (6.12); the gigabit RTL8168/8111/8169/8411 PHYs have neither, and the Fast
    Ethernet family (PCI 0x8136, supports_gmii 0) is capped at 100 by r8169_phy_connect's
    phy_set_max_speed. The lab gave every chip the RTL8125's lines."""
    text = ethtool(lab_state(tmp_path, "r8169", chip, "6.12.57-arm64"), "eth0")[0]
    assert _modes(text, "Supported link modes") == modes
    assert _modes(text, "Advertised link modes") == modes
    assert f"\tTransceiver: {transceiver}\n" in text
