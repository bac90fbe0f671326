"""Audit 7a (resources/tuning/driver_caps_audit7a.md): what a user sees in the lab's ``ethtool``
for bcmgenet, macb, lan78xx, smsc95xx, ax88179_178a, r8152 and cdc_ncm, against the kernel's
code path. Each test failed before its row was fixed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sbctune.inventory.parsers.ethtool import parse_ethtool
from sbctune.lab import fake_ethtool
from sbctune.tuning import driver_caps
from tests.fake_ethtool_support import ethtool, lab_state, root

POSIX = pytest.mark.posix_only("the lab's fake ethtool (Linux-only lab) locks its state with fcntl")
RP1 = "Cadence GEM in RP1"


def _shown(tmp_path: Path, driver: str, chip: str = "", kernel: str = "") -> str:
    path = lab_state(tmp_path, driver, chip, kernel)
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    data["interfaces"]["eth0"]["link"].update(carrier=True, speed="1000", duplex="full")
    Path(path).write_text(json.dumps(data), encoding="utf-8")
    out, err, code = ethtool(path, "eth0")
    assert (err, code) == ([], 0)
    return out


@POSIX
@pytest.mark.parametrize("kernel", ["", "6.1.0-rpi7-rpi-2712", "6.12.25+rpt-rpi-2712"])
def test_macb_advertises_the_asymmetric_pause_phylink_leaves(tmp_path: Path, kernel: str) -> None:
    """Row 1: phylink_bringup_phy puts Pause and Asym_Pause in the PHY's advertising
    (phy_support_asym_pause) and phylink_validate masks it with MAC_ASYM_PAUSE: ethtool prints
    "Advertised pause frame use: Transmit-only" (a line it always prints). The lab left it out."""
    out = _shown(tmp_path, "macb", RP1, kernel)
    assert "\tAdvertised pause frame use: Transmit-only\n" in out
    assert "\tSupported pause frame use: Transmit-only\n" in out


@POSIX
def test_macb_on_rp1_supports_and_advertises_gigabit_half_duplex(tmp_path: Path) -> None:
    """Row 2: raspberrypi_rp1_config has no MACB_CAPS_NO_GIGABIT_HALF, so macb_mii_init gives
    the MAC MAC_1000HD and the gigabit PHY's 1000baseT/Half stays (a Pi 5 shows it)."""
    parsed = parse_ethtool(_shown(tmp_path, "macb", RP1))[0]
    assert "1000baseT/Half" in parsed.supported_link_modes
    assert "1000baseT/Half" in parsed.advertised_link_modes


@POSIX
def test_macb_shows_mdix_unknown_as_its_phy_reads_none(tmp_path: Path) -> None:
    """Row 3: phylink_ethtool_ksettings_get takes the PHY's mdix (ETH_TP_MDI_INVALID for the
    Broadcom PHY or genphy): on a twisted-pair port ethtool prints "MDI-X: Unknown"."""
    assert "\tMDI-X: Unknown\n" in _shown(tmp_path, "macb", RP1)


@POSIX
def test_macb_612_wake_on_lan_is_magic_and_arp(tmp_path: Path) -> None:
    """Row 4: 6.12's macb_get_wol adds WAKE_MAGIC | WAKE_ARP to the PHY's (none): "Supports
    Wake-on: ag", "Wake-on: d"; 6.1 answers only with the device tree's magic-packet: left out."""
    out = _shown(tmp_path, "macb", RP1, "6.12.25+rpt-rpi-2712")
    assert "\tSupports Wake-on: ag\n\tWake-on: d\n" in out
    assert "Wake-on" not in _shown(tmp_path, "macb", RP1, "6.1.0-rpi7-rpi-2712")


@POSIX
@root
def test_macb_612_takes_magic_wol_and_refuses_unicast(tmp_path: Path) -> None:
    """Row 4: macb_set_wol stores WAKE_MAGIC/WAKE_ARP; a mode outside supported is EINVAL
    (ethnl_set_wol: "cannot enable unsupported WoL mode")."""
    path = lab_state(tmp_path, "macb", RP1, "6.12.25+rpt-rpi-2712")
    assert ethtool(path, "-s", "eth0", "wol", "g")[2] == 0
    assert "\tWake-on: g\n" in ethtool(path, "eth0")[0]
    refused = ethtool(path, "-s", "eth0", "wol", "u")
    assert refused[2] != 0 and any("unsupported WoL mode" in line for line in refused[1])


@POSIX
@pytest.mark.parametrize(
    "driver", ["bcmgenet", "macb", "lan78xx", "smsc95xx", "ax88179_178a", "r8152", "cdc_ncm"]
)
def test_show_priv_flags_is_not_supported_without_get_priv_flags(
    tmp_path: Path, driver: str
) -> None:
    """Row 5: none of the seven has get_priv_flags, so privflags_prepare_data answers
    EOPNOTSUPP: ethtool 6.1 prints "netlink error: Operation not supported" and exits 1. The
    lab sent the option to the capture script, which said "ethtool: command not found"."""
    path = lab_state(tmp_path, driver)
    assert ethtool(path, "--show-priv-flags", "eth0") == (
        "", ["netlink error: Operation not supported"], 1)  # fmt: skip


@POSIX
@pytest.mark.parametrize("driver", ["igb", "igc", "atlantic"])
def test_show_priv_flags_of_a_driver_with_flags_answers_its_source_table(
    tmp_path: Path, driver: str
) -> None:
    """igb, igc and atlantic have get_priv_flags: audit 7a left their flags to a capture (and
    "no real capture" without one); audit 9b row 3 read their string tables and probe-time
    values in the source (hand fact priv_flags), so the lab prints them, even with a capture
    script beside it (tests/unit/test_lab_audit9b.py checks each line)."""
    caps = driver_caps.caps(driver, None)
    assert caps is not None and caps.has("get_priv_flags") and "priv_flags" in caps.facts
    state = lab_state(tmp_path, driver)
    fallback = tmp_path / "captured"
    fallback.write_text("case x in 'ethtool --show-priv-flags eth0') ;; esac\n", encoding="utf-8")
    for result in (
        fake_ethtool.run(["--show-priv-flags", "eth0"], state, str(fallback)),
        fake_ethtool.run(["--show-priv-flags", "eth0"], state),
    ):
        assert result is not None and result[0].startswith("Private flags for eth0:\n")


def _k(tmp_path: Path, kernel: str) -> str:
    return ethtool(lab_state(tmp_path, "lan78xx", "LAN7515", kernel), "-k", "eth0")[0]


@POSIX
@pytest.mark.parametrize("kernel", ["", "6.12.25+rpt-rpi-v8", "6.1.0-rpi7-rpi-v8"])
def test_lan78xx_tso_is_fixed_off_where_the_raspberry_pi_tree_may_run(
    tmp_path: Path, kernel: str
) -> None:
    """Row 6: the Raspberry Pi tree's lan78xx_bind adds TSO/TSO6 only with enable_tso (off),
    and hw_features = features: "off [fixed]" (mangleid too). Which rpi-6.x branches still carry
    it is unknown, so a Raspberry Pi kernel, or no known kernel, is not shown kinder."""
    out = _k(tmp_path, kernel)
    assert "\ttx-tcp-segmentation: off [fixed]\n" in out
    assert "\ttx-tcp6-segmentation: off [fixed]\n" in out
    assert "tcp-segmentation-offload: off [fixed]\n" in out
    assert "\ttx-tcp-mangleid-segmentation: off [fixed]\n" in out
    assert "\ttx-scatter-gather: on\n" in out  # SG stays: set outside the enable_tso test


@POSIX
def test_lan78xx_tso_is_on_with_debians_kernel(tmp_path: Path) -> None:
    """Debian's (upstream) lan78xx_bind sets TSO | TSO6 | SG (DEFAULT_TSO_CSUM_ENABLE)."""
    out = _k(tmp_path, "6.1.0-13-arm64")
    assert "\ttx-tcp-segmentation: on\n" in out and "\ttx-tcp6-segmentation: on\n" in out
    caps = driver_caps.caps("lan78xx", "6.1.0-13-arm64", "LAN7515")
    assert caps is not None and "features_fixed_off" not in caps.facts
