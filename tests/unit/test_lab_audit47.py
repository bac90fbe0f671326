"""Audit 47 (resources/tuning/driver_caps_audit47.md): the bar's check again for bcmgenet, macb,
lan78xx, smsc95xx, ax88179_178a, r8152 and cdc_ncm on 6.1, 6.12 and 7.2.

Row 1: mainline macb's EEE (7.1, 61332b78761c) is in gem_ethtool_ops for every GEM, but only a
MAC with MACB_CAPS_EEE (raspberrypi_rp1_config, eyeq5_config) gets phylink's LPI capabilities
(macb_mii_probe); every other GEM (Zynq, SAMA5, PolarFire, SiFive's FU540/FU740 ...) answers
EOPNOTSUPP in phylink_ethtool_get_eee / phylink_ethtool_set_eee (mac_supports_eee_ops without
mac_supports_eee). The lab showed such a MAC (or one it could not name) on 7.2 "EEE status:
disabled", exit 0, so eee-off was planned as "EEE is off already"; the Pi's real answer was
explained as "the driver does not offer this setting".
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from sbctune.inventory.model import Board, Inventory, Nic
from sbctune.lab import ip_front, ip_model, load_profile
from sbctune.remote import batch
from sbctune.remote.batch import StepResult
from sbctune.tuning import catalog, source_rule
from sbctune.tuning.kinds import PLANNERS, Context
from sbctune.tuning.model import PlannedTweak
from sbctune.tuning.probe import Facts
from tests.fake_ethtool_support import LINK_UP, ethtool, lab_state, with_link

pytestmark = pytest.mark.posix_only("the lab's fake ethtool locks its state with fcntl")

MAINLINE = ("7.2.12+bpo-arm64", "7.1.3-riscv64")  # Debian's backport; a 7.1 build
RP1 = "Cadence GEM in RP1"  # the pi5-macb profile's chip
EOPNOTSUPP = "netlink error: Operation not supported"
MACB = "drivers/net/ethernet/cadence/macb_main.c: macb_mii_probe"


@pytest.mark.parametrize("kernel", MAINLINE)
@pytest.mark.parametrize("chip", ["Cadence GEM (PolarFire SoC)", ""])
def test_row1_a_gem_without_eee_refuses_show_and_set_eee(
    tmp_path: Path, kernel: str, chip: str
) -> None:
    # phylink_ethtool_get_eee/_set_eee: EOPNOTSUPP; before, "EEE status: disabled", exit 0
    state = with_link(lab_state(tmp_path, "macb", chip, kernel), **LINK_UP)
    out, err, code = ethtool(state, "--show-eee", "eth0")
    assert (out, err) == ("", [EOPNOTSUPP]) and code != 0
    out, err, code = ethtool(state, "--set-eee", "eth0", "eee", "off")
    assert (out, err) == ("", [EOPNOTSUPP]) and code != 0


@pytest.mark.parametrize("kernel", MAINLINE)
def test_row1_the_pi5s_gem_keeps_its_eee(tmp_path: Path, kernel: str) -> None:
    # raspberrypi_rp1_config has MACB_CAPS_EEE: on at start, 250000 us (audit 34a row 4)
    state = with_link(lab_state(tmp_path, "macb", RP1, kernel), **LINK_UP)
    out, err, code = ethtool(state, "--show-eee", "eth0")
    assert (err, code) == ([], 0) and "\tEEE status: enabled - " in out


def _step(key: str, stdout: str, code: int = 0, stderr: str = "") -> StepResult:
    return StepResult(batch.Step(("true",), key), code, stdout.encode(), stderr.encode())


def _eee_off(state: str | None, kernel: str, chip: str | None) -> PlannedTweak:
    """eee-off for a macb eth0 from `state`'s --show-eee (the lab's), else from a Pi that
    answered "Operation not supported"; the SSH session over wlan0."""
    found = Facts("eth0")
    if state is None:
        found.steps["ethtool --show-eee"] = _step("ethtool --show-eee", "", 1, EOPNOTSUPP)
    else:
        out, err, code = ethtool(state, "--show-eee", "eth0")
        found.steps["ethtool --show-eee"] = _step("ethtool --show-eee", out, code, "\n".join(err))
    link = [{"ifname": "eth0", "flags": ["UP", "LOWER_UP"], "mtu": 1500}]
    found.steps["ip-link"] = _step("ip-link", json.dumps(link))
    found.steps["ssh-route"] = _step("ssh-route", json.dumps([{"dev": "wlan0"}]))
    tweak = catalog.tweak("eee-off")
    nic = Nic("eth0", driver="macb", chip=chip)
    inventory = Inventory(board=Board(kernel=kernel), nics=[nic])
    return PLANNERS[tweak.kind](Context(tweak, found, inventory, nic, {}, {}, ("eee-off",)))


@pytest.mark.parametrize("kernel", MAINLINE)
def test_row1_eee_off_on_a_gem_the_lab_cannot_name_is_not_off_already(
    tmp_path: Path, kernel: str
) -> None:
    # before: the lab's "disabled" planned it as "EEE is off already"
    item = _eee_off(lab_state(tmp_path, "macb", "", kernel), kernel, None)
    assert not item.applicable and item.changes == [], item.reason
    assert "off already" not in item.reason
    assert (
        f'only on the RP1 and EyeQ5 and answers "not supported" on every other chip ({MACB})'
        in (item.reason)
    )


@pytest.mark.parametrize("kernel", MAINLINE)
def test_row1_the_kernels_refusal_is_explained_by_the_chip_not_the_driver(kernel: str) -> None:
    # before: "the driver does not offer this setting (netlink error: ...)"; macb does, 7.1+
    item = _eee_off(None, kernel, None)
    assert not item.applicable
    assert "does not offer" not in item.reason and f"({MACB}), as it did here" in item.reason


@pytest.mark.parametrize("kernel", MAINLINE)
def test_row1_a_named_gem_without_eee_is_not_possible_from_the_source(kernel: str) -> None:
    nic = Nic("eth0", driver="macb", chip="Cadence GEM (PolarFire SoC)")
    inventory = Inventory(board=Board(kernel=kernel), nics=[nic])
    why = source_rule.out_of_reach("eee-off", inventory, nic)
    assert why == (
        "macb has Energy-Efficient Ethernet only on the RP1 and EyeQ5, not on the Cadence GEM "
        f"(PolarFire SoC) (EOPNOTSUPP; {MACB})"
    )
    rp1 = Nic("eth0", driver="macb", chip=RP1)
    assert (
        source_rule.out_of_reach("eee-off", Inventory(board=Board(kernel=kernel), nics=[rp1]), rp1)
        is None
    )


# ------------------------------------------------ row 2: ax88179's max_mtu on 7.x

PI4_AX88179_VETH = (
    "5: eth1@if6: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc pfifo_fast state UP\n"
    "    link/ether 02:00:00:00:00:01 brd ff:ff:ff:ff:ff:ff link-netnsid 0 promiscuity 0"
    "  allmulti 0 minmtu 68 maxmtu 65535 \n"
)  # a veth as `ip -d link` prints it (test_driver_audit5a's line), before the lab's limits


def _limits(kernel: str) -> dict[str, Any]:
    """The lab's `ip` limits of pi4-ax88179 (eth1) on another kernel than its own 5.15.4."""
    base = load_profile("pi4-ax88179")
    return ip_front.limits(dataclasses.replace(base, kernel=kernel))


@pytest.mark.parametrize("kernel", ["7.2.12+bpo-arm64", "7.0.4-arm64"])
def test_row2_ax88179_on_7x_refuses_jumbo_frames(kernel: str) -> None:
    # usbnet_probe (7.2 lines 1829-1831) lowers ax88179_bind's 4088 to hard_mtu - 14 = 1500:
    # mainline has c7159e960f14 since 7.0 at the latest; before, no maximum (the veth's 65535)
    limits = _limits(kernel)
    assert limits["eth1"]["max"] == 1500
    assert ip_model.refusal(limits, "eth1", 4000) == "Error: mtu greater than device maximum.\n"
    assert "maxmtu 1500 " in ip_model.shown(PI4_AX88179_VETH, limits, as_json=False)


@pytest.mark.parametrize(
    ("kernel", "top"), [("6.12.50", 4088), ("6.12.68", 1500), ("6.18.3-arm64", None)]
)
def test_row2_the_stable_series_keep_their_patch_levels(kernel: str, top: int | None) -> None:
    # 6.12 before 6.12.68: 4088; from it: 1500; 6.13-6.19 (not read) neither claimed nor denied
    limits = _limits(kernel)
    assert limits["eth1"].get("max") == top


# ------------------------------------------------ row 3: r8152's EEE "active" on 6.12


def _eee_status(tmp_path: Path, chip: str, kernel: str, speed: str) -> str:
    state = lab_state(tmp_path, "r8152", chip, kernel, speed=float(speed))
    with_link(state, carrier=True, speed=speed, duplex="full")
    out, err, code = ethtool(state, "--show-eee", "eth0")
    assert (err, code) == ([], 0)
    return next(line.strip() for line in out.splitlines() if "EEE status:" in line)


@pytest.mark.parametrize("chip", ["RTL8156B", "RTL8156"])
@pytest.mark.parametrize("speed", ["2500", "1000"])
def test_row3_an_rtl8156_on_612_never_reads_active(tmp_path: Path, chip: str, speed: str) -> None:
    # r8153_get_eee: phy_check_valid(tp->speed = SPEED_2500, ...) on 100/1000 modes only
    assert _eee_status(tmp_path, chip, "6.12.117", speed) == "EEE status: enabled - inactive"


@pytest.mark.parametrize(
    ("chip", "kernel"),
    [("RTL8156B", "6.1.170"), ("RTL8153", "6.12.117"), ("RTL8156B", "7.2.12+bpo-arm64")],
)
def test_row3_other_series_and_chips_read_active(tmp_path: Path, chip: str, kernel: str) -> None:
    # 6.1: any common mode; RTL8153: tp->speed 1000; 7.x: the link's own speed
    assert _eee_status(tmp_path, chip, kernel, "1000") == "EEE status: enabled - active"
