"""Audit 33b (resources/tuning/driver_caps_audit33b.md): the bar's own read of r8169, igb, igc,
atlantic, stmmac and asix, sources first; what the lab answered differently from the kernel.

Row 1: on 6.12 phylib's EEE modes are the PHY's EEE register ANDed with its link modes
(phy-c45.c genphy_c45_read_eee_cap1), so a gigabit RTL8168 never shows 2500baseT/Full; the lab
showed the RTL8125B model's three modes on every r8169 chip. Row 2: stmmac stores the RX half
of a `-C` (RIWT, rx-frames) before its TX checks refuse (__stmmac_set_coalesce); the lab
stored nothing. Row 3: aq_set_ringparam closes and reopens on every call, also when the
aligned size is the one it has; the lab bounced only on a change. Row 4: atlantic's EEE reads
enabled only with a mode advertised (aq_ethtool_get_eee). Row 5: igb_set_eee refuses an EEE
advertisement beyond 100baseT/Full and 1000baseT/Full while EEE is on, and keeps the one it
takes. Each test failed before its change.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.fake_ethtool_support import ethtool, in_lab, lab_state, record_bounces, root

POSIX = pytest.mark.posix_only("the lab's fake ethtool (Linux-only lab) locks its state with fcntl")

RTL8168H = "RTL8111/8168/8411 PCI Express Gigabit Ethernet Controller (RTL8168h/8111h)"
RTL8125B = "RTL8125 2.5GbE Controller (RTL8125B)"
I350 = "I350 Gigabit Network Connection"


def _eee_lines(state: str) -> dict[str, str]:
    """--show-eee's labels and their text, a wrapped mode list joined by spaces."""
    out: dict[str, str] = {}
    label = ""
    for line in ethtool(state, "--show-eee", "eth0")[0].splitlines()[1:]:
        if ":" in line:
            label, _, rest = line.partition(":")
            label = label.strip()
            out[label] = rest.strip()
        elif label:
            out[label] = f"{out[label]} {line.strip()}".strip()
    return out


def _shown(state: str, option: str, key: str) -> str:
    text = ethtool(state, option, "eth0")[0]
    return text.split(f"{key}:")[1].split("\n")[0].strip()


# --- row 1: r8169's EEE modes are its PHY's link modes' (6.12) -----------------------------------


@POSIX
@pytest.mark.parametrize("kernel", ["6.12.0-1-arm64", ""])
def test_a_gigabit_rtl8168_shows_no_25g_eee_mode(tmp_path: Path, kernel: str) -> None:
    state = lab_state(tmp_path, "r8169", RTL8168H, kernel)
    assert "2500baseT/Full" not in ethtool(state, "eth0")[0]  # its PHY's link modes
    eee = _eee_lines(state)
    assert eee["Supported EEE link modes"].split() == ["100baseT/Full", "1000baseT/Full"]
    assert "2500baseT/Full" not in eee["Advertised EEE link modes"]


@POSIX
def test_the_rtl8125_keeps_its_25g_eee_mode_on_612(tmp_path: Path) -> None:
    state = lab_state(tmp_path, "r8169", RTL8125B, "6.12.0-1-arm64")
    assert "2500baseT/Full" in _eee_lines(state)["Supported EEE link modes"]


@POSIX
def test_61_shows_the_eee_register_alone_for_every_r8169_chip(tmp_path: Path) -> None:
    state = lab_state(tmp_path, "r8169", RTL8125B, "6.1.0-27-arm64")
    assert _eee_lines(state)["Supported EEE link modes"].split() == [
        "100baseT/Full",
        "1000baseT/Full",
    ]


# --- row 2: stmmac stores RX before refusing TX --------------------------------------------------


@POSIX
@root
@pytest.mark.parametrize("kernel", ["6.1.0-27-arm64", "6.12.0-1-arm64"])
def test_stmmac_keeps_the_rx_coalescing_it_stored_before_refusing_tx(
    tmp_path: Path, kernel: str
) -> None:
    state = lab_state(tmp_path, "stmmac", "RK3588", kernel)
    assert _shown(state, "-c", "rx-usecs") == "327"  # DEF_DMA_RIWT 160 at 125 MHz
    _out, err, code = ethtool(
        state, "-C", "eth0", "rx-usecs", "100", "rx-frames", "32", "tx-usecs", "0", "tx-frames", "0"
    )
    assert code != 0 and any("Invalid argument" in line for line in err), err
    # RIWT 100 * 125 / 256 = 48, read back 48 * 256 / 125 = 98; rx-frames kept as given
    assert _shown(state, "-c", "rx-usecs") == "98"
    assert _shown(state, "-c", "rx-frames") == "32"
    assert _shown(state, "-c", "tx-usecs") == ("5000" if kernel.startswith("6.12") else "1000")


@POSIX
@root
def test_stmmac_stores_nothing_when_the_riwt_itself_is_refused(tmp_path: Path) -> None:
    state = lab_state(tmp_path, "stmmac", "RK3588", "6.12.0-1-arm64")
    code = ethtool(state, "-C", "eth0", "rx-usecs", "5000", "rx-frames", "32", "tx-usecs", "0",
                   "tx-frames", "0")[2]  # fmt: skip
    assert code != 0
    assert _shown(state, "-c", "rx-usecs") == "327"
    assert _shown(state, "-c", "rx-frames") == "0"


@POSIX
@root
def test_stmmac_on_61_skips_the_rx_block_for_rx_usecs_0(tmp_path: Path) -> None:
    """6.1's __stmmac_set_coalesce: `if (priv->use_riwt && (ec->rx_coalesce_usecs > 0))`, so
    rx-frames goes with a non-zero rx-usecs only (audit 33b row 7)."""
    state = lab_state(tmp_path, "stmmac", "RK3588", "6.1.0-27-arm64")
    assert ethtool(state, "-C", "eth0", "rx-usecs", "0", "rx-frames", "64")[2] == 0
    assert (_shown(state, "-c", "rx-usecs"), _shown(state, "-c", "rx-frames")) == ("327", "0")
    code = ethtool(state, "-C", "eth0", "rx-usecs", "0", "rx-frames", "64", "tx-usecs", "0",
                   "tx-frames", "0")[2]  # fmt: skip
    assert code != 0
    assert _shown(state, "-c", "rx-frames") == "0"
    assert ethtool(state, "-C", "eth0", "rx-usecs", "100", "rx-frames", "64")[2] == 0
    assert (_shown(state, "-c", "rx-usecs"), _shown(state, "-c", "rx-frames")) == ("98", "64")


# --- row 3: atlantic reopens on any ring set the driver gets -------------------------------------


def _current_rx(state: str) -> str:
    """`ethtool -g`'s current RX size (the lines after "Current hardware settings")."""
    text = ethtool(state, "-g", "eth0")[0].split("Current hardware settings:")[1]
    return text.split("RX:")[1].split("\n")[0].strip()


@pytest.fixture
def bounces(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    return record_bounces(monkeypatch)


@POSIX
@root
def test_atlantic_reopens_for_a_ring_size_it_already_has(
    tmp_path: Path, bounces: list[str]
) -> None:
    state = in_lab(lab_state(tmp_path, "atlantic", "AQC107", "6.12.0-1-arm64", up=True))
    assert _current_rx(state) == "2048"
    assert ethtool(state, "-G", "eth0", "rx", "2047")[2] == 0  # ALIGN(2047, 8) = 2048
    assert _current_rx(state) == "2048"
    assert bounces == ["eth0"]  # aq_ndev_close + aq_ndev_open all the same


@POSIX
@root
@pytest.mark.parametrize(("driver", "chip"), [("igb", I350), ("igc", "I225-V")])
def test_igb_and_igc_do_nothing_for_a_size_they_already_have(
    tmp_path: Path, bounces: list[str], driver: str, chip: str
) -> None:
    state = in_lab(lab_state(tmp_path, driver, chip, "6.12.0-1-arm64", up=True))
    assert ethtool(state, "-G", "eth0", "rx", "250")[2] == 0  # ALIGN(250, 8) = 256, as now
    assert bounces == []  # "nothing to do"


@POSIX
@root
def test_an_unchanged_ring_request_never_reaches_atlantic(
    tmp_path: Path, bounces: list[str]
) -> None:
    state = in_lab(lab_state(tmp_path, "atlantic", "AQC107", "6.12.0-1-arm64", up=True))
    assert ethtool(state, "-G", "eth0", "rx", "2048")[2] == 0  # ethnl_set_rings: !mod
    assert bounces == []


# --- row 4: atlantic's EEE is on only with a mode advertised -------------------------------------


@POSIX
@root
def test_atlantic_eee_on_with_no_mode_it_knows_stays_disabled(tmp_path: Path) -> None:
    state = lab_state(tmp_path, "atlantic", "AQC107", "6.12.0-1-arm64")
    assert _eee_lines(state)["EEE status"] == "disabled"
    assert ethtool(state, "--set-eee", "eth0", "eee", "on")[2] == 0
    assert _eee_lines(state)["EEE status"] == "disabled"


# --- row 5: igb's own EEE advertisement rule -----------------------------------------------------


@POSIX
@root
def test_igb_refuses_an_eee_advertisement_beyond_100_and_1000(tmp_path: Path) -> None:
    state = lab_state(tmp_path, "igb", I350, "6.12.0-1-arm64")
    _out, err, code = ethtool(state, "--set-eee", "eth0", "advertise", "0x1000")  # 10000baseT
    assert code != 0 and any("Invalid argument" in line for line in err), err


@POSIX
@root
def test_igb_keeps_the_eee_advertisement_it_takes(tmp_path: Path, bounces: list[str]) -> None:
    state = in_lab(lab_state(tmp_path, "igb", I350, "6.12.0-1-arm64", up=True))
    assert ethtool(state, "--set-eee", "eth0", "advertise", "0x20")[2] == 0  # 1000baseT/Full
    assert bounces == []  # igb_set_eee restarts only for EEE on/off, not for its advertisement
    eee: dict[str, Any] = _eee_lines(state)
    assert eee["Advertised EEE link modes"].split() == ["1000baseT/Full"]
    assert eee["Supported EEE link modes"].split() == ["100baseT/Full", "1000baseT/Full"]
