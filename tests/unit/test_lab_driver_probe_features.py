"""The lab's `ethtool -k`, `-l` and queues as each driver's probe leaves them (fifth audit,
resources/tuning/driver_caps_audit5b.md): features a driver sets in `features` but never in
`hw_features` are "on [fixed]" and refuse -K; a device tree's queue count is the lab's."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from sbctune.lab import fake_ethtool, load_profile
from sbctune.lab.ethtool_state import interface_state
from sbctune.lab.ethtool_table import channels_state, driver_queues, driver_queues_allocated
from sbctune.tuning import driver_caps

pytestmark = pytest.mark.posix_only("the lab's fake ethtool locks its state with fcntl")

EMPTY = load_profile("cm4-rtl8125b-r8169").bundle  # the seed captured nothing


def ethtool(
    tmp_path: Path, driver: str, chip: str, *argv: str, kernel: str = "", speed: int = 1000
) -> tuple[str, list[str], int]:
    path = tmp_path / "state.json"
    if not path.exists():
        iface = interface_state(driver, EMPTY, "eth0", chip, kernel, speed_mbps=speed)
        state = {"schema": 1, "interfaces": {"eth0": iface}}
        path.write_text(json.dumps(state), encoding="utf-8")
    result = fake_ethtool.run(list(argv), str(path))
    assert result is not None
    return result


@pytest.mark.parametrize(
    ("driver", "chip", "fixed_on"),
    [
        ("r8169", "RTL8125B", ["highdma"]),  # rtl_init_one: features |= HIGHDMA, not hw_features
        ("igb", "82580", ["highdma", "rx-vlan-filter"]),  # igb_probe: both after the copy
        ("igc", "I225-V", ["highdma"]),  # igc_probe: HIGHDMA after hw_features |= features
    ],
)
def test_features_the_driver_never_lets_change_are_fixed_on(
    tmp_path: Path, driver: str, chip: str, fixed_on: list[str]
) -> None:
    shown = ethtool(tmp_path, driver, chip, "-k", "eth0")[0]
    for name in fixed_on:
        assert f"{name}: on [fixed]\n" in shown, name
    assert set(fixed_on) <= set(driver_caps.caps(driver, None, chip).facts["features_fixed_on"])  # type: ignore[union-attr]
    if os.geteuid() == 0:  # -K needs root, as on a Pi
        ethtool(tmp_path, driver, chip, "-K", "eth0", fixed_on[0], "off")
        assert f"{fixed_on[0]}: on [fixed]\n" in ethtool(tmp_path, driver, chip, "-k", "eth0")[0]


def test_the_vlan_tag_offloads_of_igb_stay_changeable(tmp_path: Path) -> None:
    """igb_probe sets CTAG_RX/TX in the same line as the filter, but they are in hw_features."""
    shown = ethtool(tmp_path, "igb", "82580", "-k", "eth0")[0]
    assert "rx-vlan-offload: on\n" in shown and "tx-vlan-offload: on\n" in shown


@pytest.mark.parametrize(
    ("chip", "kernel", "queues"),
    [("RK3588", "6.12", 2), ("RK3568", "6.12", 1), ("RK3568", "6.1", 1), ("", "", 1)],
)
def test_stmmac_uses_the_queues_its_device_tree_asks_for(
    chip: str, kernel: str, queues: int
) -> None:
    """rk3588-base.dtsi: snps,rx/tx-queues-to-use = <2>; rk3568.dtsi and the driver's default
    (stmmac_mtl_setup, no such node): 1. the lab's queues and `ethtool -l` show them."""
    in_use = driver_queues("stmmac", chip, 8, None)
    assert in_use == (queues, queues)
    channels = channels_state("stmmac", chip, kernel, in_use)
    assert channels is not None
    assert channels["cur"]["rx"] == channels["cur"]["tx"] == queues


@pytest.mark.parametrize(
    ("driver", "chip", "lines"),
    [
        # igb_probe: HW_TC from the I350 on (features), NTUPLE from the I350 on (hw_features)
        ("igb", "I350-T2", ["hw-tc-offload: on\n", "ntuple-filters: off\n"]),
        ("igb", "I210", ["hw-tc-offload: on\n", "ntuple-filters: off\n"]),
        ("igb", "82580", ["hw-tc-offload: off [fixed]\n", "ntuple-filters: off [fixed]\n"]),
        # SCTP CRC and UDP segmentation only from the 82576 on
        ("igb", "82575",
         ["\ttx-checksum-sctp: off [fixed]\n", "tx-udp-segmentation: off [fixed]\n"]),
        ("igb", "82576", ["\ttx-checksum-sctp: on\n", "tx-udp-segmentation: on\n"]),
        # r8169 without csum v2 (RTL8168b/8111b): no IPv6 checksum, no TSO6
        ("r8169", "RTL8168b/8111b",
         ["\ttx-checksum-ipv6: off [fixed]\n", "\ttx-tcp6-segmentation: off [fixed]\n"]),
        ("r8169", "RTL8125B", ["\ttx-checksum-ipv6: on\n", "\ttx-tcp6-segmentation: off\n"]),
    ],
)  # fmt: skip
def test_features_follow_the_chips_mac_type(
    tmp_path: Path, driver: str, chip: str, lines: list[str]
) -> None:
    shown = ethtool(tmp_path, driver, chip, "-k", "eth0")[0]
    for line in lines:
        assert line in shown, line


@pytest.mark.parametrize(
    ("kernel", "speed", "lpi", "modes_2500"),
    [
        ("6.12.25+rpt-rpi-v8", 2500, "Tx LPI: 5 (us)", True),  # (1500 + 46) * 8 / 2500
        ("6.12.25+rpt-rpi-v8", 1000, "Tx LPI: 12 (us)", True),
        ("6.1.0-rpi7", 2500, "Tx LPI: disabled", False),  # phy_ethtool_get_eee: no Tx LPI
        ("", 2500, "Tx LPI: 5 (us)", True),  # unknown: one kernel's answer, not a mix of two
    ],
)
def test_r8169_eee_on_an_rtl8125_is_one_kernels(
    tmp_path: Path, kernel: str, speed: int, lpi: str, modes_2500: bool
) -> None:
    """6.12 rtl_set_eee_txidle_timer: Tx LPI idle time MTU + 46 bytes, read back in us at the
    link's speed; 6.12 phy_support_eee turns Tx LPI on and shows 2500baseT; 6.1 neither."""
    shown = ethtool(tmp_path, "r8169", "RTL8125B", "--show-eee", "eth0", kernel=kernel,
                    speed=speed)[0]  # fmt: skip
    assert f"\t{lpi}\n" in shown
    assert ("2500baseT/Full" in shown) is modes_2500


def test_atlantic_allocates_32_queues_and_uses_one_per_cpu() -> None:
    """aq_ndev_alloc: alloc_etherdev_mq(..., AQ_HW_QUEUES_MAX) = 32 each way (`ip -d link`
    numtxqueues 32); aq_nic_start sets aq_vecs * tcs in use: 4 on a 4-core board."""
    assert driver_queues_allocated("atlantic", "AQC107", 4, None) == (32, 32)
    assert driver_queues("atlantic", "AQC107", 4, None) == (4, 4)


def test_igc_rx_all_is_fixed_so_no_restart_is_claimed_for_it(tmp_path: Path) -> None:
    """igc_probe never puts NETIF_F_RXALL in hw_features (igb_probe does)."""
    assert "rx-all: off [fixed]\n" in ethtool(tmp_path, "igc", "I225-V", "-k", "eth0")[0]
    igc, igb = driver_caps.caps("igc"), driver_caps.caps("igb")
    assert igc is not None and igb is not None
    assert igc.facts["restarts_on_features"] == ["rx-ntuple-filter"]
    assert "rx-all" in igb.facts["restarts_on_features"]
