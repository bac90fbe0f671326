"""Audit 48 (resources/tuning/driver_caps_audit48.md): issue 21's bar read again for r8169, igb,
igc, atlantic, stmmac and asix on Debian's 6.1, 6.12 and 7.2 source.

Row 1: from 7.1 the i.MX8M Plus's EQOS sets STMMAC_FLAG_EEE_DISABLE (dwmac-imx.c
imx8mp_dwmac_data, 394863097e36), so stmmac_phylink_setup gives phylink no LPI capabilities and
phylink_ethtool_get_eee / _set_eee answer EOPNOTSUPP. The table applied 6.12's rule (EEE wherever
dma_cap.eee): on a 7.2 kernel the lab showed "EEE status: enabled" and took `--set-eee eee off`,
and the planner's source rule let eee-off through.

Row 2: from 7.0 asix binds usbnet_get_drvinfo (44ecaff55282 removed asix_get_drvinfo and
DRIVER_VERSION), so `ethtool -i` shows the kernel's release as version, no longer "22-Dec-2011".

Row 3: 7.2's rtl_set_eee_txidle_timer covers RTL_GIGA_MAC_VER_61 to RTL_GIGA_MAC_VER_LAST, so the
RTL8127A and RTL9151A report the Tx LPI timer (MTU + 46 bytes at the link's speed) as the
RTL8125/8126 do; the lab showed "Tx LPI: 0 (us)" for them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sbctune.inventory.model import Board, Inventory, Nic
from sbctune.tuning import source_rule
from tests.fake_ethtool_support import LINK_UP, ethtool, lab_state, with_link

POSIX = pytest.mark.posix_only("the lab's fake ethtool (Linux-only lab) locks its state with fcntl")
IMX8MP = "nxp,imx8mp-dwmac-eqos"


def _eee_off_refusal(chip: str, kernel: str) -> str | None:
    nic = Nic(name="eth0", driver="stmmac", bus="platform", chip=chip, link_speed_mbps=1000)
    inventory = Inventory(board=Board(kernel=kernel, cpu_cores=4), nics=[nic])
    return source_rule.out_of_reach("eee-off", inventory, nic)


# --- row 1: the i.MX8MP's EQOS has no EEE from 7.1 ------------------------------------------------


@POSIX
@pytest.mark.parametrize("kernel", ["7.1.3-arm64", "7.2.12+bpo-arm64"])
def test_the_imx8mp_eqos_refuses_eee_from_71(tmp_path: Path, kernel: str) -> None:
    """What the user sees on an i.MX8MP board on 7.1 or later: `ethtool --show-eee` and
    `--set-eee` fail as phylink_ethtool_get_eee/_set_eee make them (mac_supports_eee_ops and
    not mac_supports_eee), and eee-off is not possible, citing the glue that disables it."""
    path = lab_state(tmp_path, "stmmac", IMX8MP, kernel)
    out, err, code = ethtool(path, "--show-eee", "eth0")
    assert (out, code) == ("", 1), (out, err, code)
    assert err == ["netlink error: Operation not supported"], err
    out, err, code = ethtool(path, "--set-eee", "eth0", "eee", "off")
    assert code != 0 and err == ["netlink error: Operation not supported"], (out, err, code)
    why = _eee_off_refusal(IMX8MP, kernel)
    assert why is not None and "imx8mp" in why and "EOPNOTSUPP" in why, why
    assert "drivers/net/ethernet/stmicro/stmmac/dwmac-imx.c: imx8mp_dwmac_data" in why, why


@POSIX
@pytest.mark.parametrize(
    ("chip", "kernel"),
    [
        (IMX8MP, "7.0.9-arm64"),  # before 394863097e36: dma_cap.eee decides, the EQOS has it
        (IMX8MP, "6.12.57-arm64"),
        ("rockchip,rk3568-gmac", "7.2.12+bpo-arm64"),  # no other glue sets the flag
        ("nxp,imx93-dwmac-eqos", "7.2.12+bpo-arm64"),
    ],
)
def test_eee_stays_where_the_flag_is_not_set(tmp_path: Path, chip: str, kernel: str) -> None:
    path = lab_state(tmp_path, "stmmac", chip, kernel)
    out, err, code = ethtool(path, "--show-eee", "eth0")
    assert code == 0 and out.startswith("EEE settings for eth0:\n"), (out, err, code)
    assert _eee_off_refusal(chip, kernel) is None


# --- row 2: asix's ethtool -i version from 7.0 -------------------------------------------------


def _drvinfo_version(tmp_path: Path, kernel: str) -> str:
    out, err, code = ethtool(lab_state(tmp_path, "asix", "AX88772", kernel), "-i", "eth0")
    assert code == 0, (out, err)
    line = next(x for x in out.splitlines() if x.startswith("version:"))
    return line.removeprefix("version:").strip()


@POSIX
@pytest.mark.parametrize("kernel", ["7.0.1-arm64", "7.2.12+bpo-arm64"])
def test_asix_shows_the_kernels_release_from_70(tmp_path: Path, kernel: str) -> None:
    """usbnet_get_drvinfo writes no version: ethtool_get_drvinfo's release stays."""
    assert _drvinfo_version(tmp_path, kernel) == kernel


@POSIX
@pytest.mark.parametrize("kernel", ["6.1.0-28-arm64", "6.12.57+deb13-arm64", "6.19.2-arm64"])
def test_asix_shows_its_driver_version_before_70(tmp_path: Path, kernel: str) -> None:
    assert _drvinfo_version(tmp_path, kernel) == "22-Dec-2011"


# --- row 3: the RTL8127A's and RTL9151A's Tx LPI timer on 7.2 ---------------------------------


def _tx_lpi(tmp_path: Path, chip: str, kernel: str) -> str:
    path = lab_state(tmp_path, "r8169", chip, kernel, speed=1000.0)
    out, err, code = ethtool(with_link(path, **LINK_UP), "--show-eee", "eth0")
    assert code == 0, (out, err)
    return next(x for x in out.splitlines() if "Tx LPI:" in x).split("Tx LPI:")[1].strip()


@POSIX
@pytest.mark.parametrize("chip", ["RTL8127A", "RTL9151A"])
def test_the_newest_realtek_chips_show_their_tx_lpi_timer_on_72(tmp_path: Path, chip: str) -> None:
    """DIV_ROUND_CLOSEST((1500 + 46) * 8, 1000) = 12 us, as r8169_get_tx_lpi_timer_us."""
    assert _tx_lpi(tmp_path, chip, "7.2.12+bpo-arm64") == "12 (us)"


@POSIX
@pytest.mark.parametrize(
    ("chip", "kernel"),
    [
        ("RTL8125B", "6.12.57-arm64"),
        ("RTL8126A", "7.2.12+bpo-arm64"),
        ("RTL8125B", "7.2.12+bpo-arm64"),
    ],
)
def test_the_rtl8125_and_8126_keep_theirs(tmp_path: Path, chip: str, kernel: str) -> None:
    assert _tx_lpi(tmp_path, chip, kernel) == "12 (us)"
