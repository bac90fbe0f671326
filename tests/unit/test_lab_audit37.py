"""Audit 37 (resources/tuning/driver_caps_audit37.md): kernels between the series the table is
read from (Raspberry Pi OS bookworm's 6.6, Ubuntu 24.04's 6.8) and after them (Raspberry Pi OS's
6.18), for facts that differ between 6.1 and 6.12.

Rows 1-3, r8169's EEE: 6.1 shows Tx LPI "disabled" and only 100/1000baseT (phy_ethtool_get_eee
reads MDIO_PCS_EEE_ABLE alone); 6.12 shows the driver's Tx LPI timer and, on an RTL8125,
2500baseT/Full. The three changes all came in 6.9's merge ("[GIT PULL] Networking for v6.9"):
031a239c2209 "r8169: switch to new function phy_support_eee", 9c5013972726 "r8169: add support
for returning tx_lpi_timer in ethtool get_eee", b63584c86edb "net: phy: c45: add and use
genphy_c45_read_eee_cap2". The lab gave a 6.6 or 6.8 kernel 6.12's answers; now each fact is
dated and those kernels show 6.1's, 6.18 shows 6.12's.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sbctune.lab import irq_refusal
from tests.fake_ethtool_support import ethtool, lab_state, root

pytestmark = pytest.mark.posix_only("the lab's fake ethtool locks its state with fcntl")

BETWEEN = ("6.6.51+rpt-rpi-2712", "6.8.0-1013-raspi")  # Raspberry Pi OS bookworm, Ubuntu 24.04
AFTER = "6.18.3+rpt-rpi-v8"  # Raspberry Pi OS today


def _eee(tmp_path: Path, chip: str, kernel: str) -> str:
    state = lab_state(tmp_path, "r8169", chip, kernel, speed=1000)
    return ethtool(state, "--show-eee", "eth0")[0]


def _line(text: str, key: str) -> str:
    return next(line.strip() for line in text.splitlines() if line.strip().startswith(key))


def _supported(text: str) -> list[str]:
    """The modes under 'Supported EEE link modes:', one a line."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if "Supported EEE link modes:" in line)
    modes = [lines[start].split(":", 1)[1].strip()]
    for line in lines[start + 1 :]:
        if ":" in line:
            break
        modes.append(line.strip())
    return [m for m in modes if m]


@pytest.mark.parametrize("kernel", BETWEEN)
@pytest.mark.parametrize("chip", ["RTL8125B", "RTL8168h"])
def test_row1_2_tx_lpi_is_disabled_before_6_9(tmp_path: Path, chip: str, kernel: str) -> None:
    # before 031a239c2209 / 9c5013972726 (6.9) nothing sets tx_lpi_enabled or tx_lpi_timer
    assert _line(_eee(tmp_path, chip, kernel), "Tx LPI:") == "Tx LPI: disabled"


def test_row1_2_tx_lpi_timer_from_6_9_on(tmp_path: Path) -> None:
    # 6.18: phy_support_eee's Tx LPI and the driver's MTU + 46 bytes at 1 Gbit/s: 12 us
    assert _line(_eee(tmp_path, "RTL8125B", AFTER), "Tx LPI:") == "Tx LPI: 12 (us)"


@pytest.mark.parametrize("kernel", BETWEEN)
def test_row3_rtl8125_shows_no_2500_eee_mode_before_6_9(tmp_path: Path, kernel: str) -> None:
    # genphy_c45_read_eee_cap2 (b63584c86edb, 6.9) first reads MDIO_PCS_EEE_ABLE2
    assert _supported(_eee(tmp_path, "RTL8125B", kernel)) == ["100baseT/Full", "1000baseT/Full"]


def test_row3_rtl8125_shows_2500_from_6_9_on(tmp_path: Path) -> None:
    assert "2500baseT/Full" in _supported(_eee(tmp_path, "RTL8125B", AFTER))


PI3_INTERRUPTS = (
    Path(__file__).resolve().parents[1] / "captures" / "proc_interrupts"
) / "pi3bplus_netdev_lan78xx_2019.txt"


@pytest.mark.parametrize(
    ("kernel", "shown"),
    [
        ("6.6.51+rpt-rpi-v7", "EIO"),  # Raspberry Pi OS bookworm on a Pi 3 B+
        ("6.8.0-1013-raspi", "EIO"),  # Ubuntu 24.04
        ("6.18.3+rpt-rpi-v7", "EPERM"),  # Raspberry Pi OS today
    ],
)
def test_row7_a_pi3_irq_write_fails_with_the_kernels_errno(kernel: str, shown: str) -> None:
    # kernel/irq/proc.c write_irq_affinity: -EIO until eb29369fa543 (6.12), -EPERM since, for
    # armctrl_chip (no irq_set_affinity, every series). Before: EINVAL, which no kernel gives
    text = PI3_INTERRUPTS.read_text(encoding="utf-8")
    assert irq_refusal.refusals(text, [41], kernel) == {"41": shown}


@root
@pytest.mark.parametrize(
    ("kernel", "uso"),
    [
        ("6.6.51+rpt-rpi-2712", "tx-udp-segmentation: on"),  # before 2b2bc3bab158 (6.11)
        (AFTER, "tx-udp-segmentation: off [requested on]"),  # netdev_fix_features drops it
    ],
)
def test_row4_igb_uso_follows_the_tx_checksum_from_6_11(
    tmp_path: Path, kernel: str, uso: str
) -> None:
    # net/core/dev.c netdev_fix_features: USO needs a generic TX checksum or both the IPv4 and
    # IPv6 ones from 2b2bc3bab158 "net: Make USO depend on CSUM offload" (6.11) on; 6.18 took
    # 6.1's rules before (driver_caps.kernel_fact returned the first series' fact)
    state = lab_state(tmp_path, "igb", "I350", kernel)
    assert ethtool(state, "-K", "eth0", "tx-checksum-ip-generic", "off")[2] == 0
    assert uso in ethtool(state, "-k", "eth0")[0].splitlines()


@root
@pytest.mark.parametrize("kernel", [*BETWEEN, AFTER])
def test_row8_phylib_refuses_an_eee_mode_outside_the_phys_from_6_3(
    tmp_path: Path, kernel: str
) -> None:
    # drivers/net/phy/phy-c45.c genphy_c45_ethtool_set_eee: EINVAL for an advertisement beyond
    # the PHY's EEE modes from 186b1da76b72 (6.3) on; rtl8169_set_eee hands it to phylib. The
    # lab took it (exit 0) on 6.6/6.8/6.18: the series disagreed and no rule was claimed
    state = lab_state(tmp_path, "r8169", "RTL8168h", kernel, speed=1000)
    _out, err, code = ethtool(state, "--set-eee", "eth0", "advertise", "0x1000")  # 10000baseT
    assert code != 0 and any("Invalid argument" in line for line in err), err
