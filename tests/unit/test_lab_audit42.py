"""Audit 42 (resources/tuning/driver_caps_audit42.md): the user's ethtool, its versions and its
two interfaces (netlink, ioctl), against what the planner reads.

Row 1: ethtool's ioctl print of `-c` (ethtool.c dump_coalesce: Raspberry Pi OS buster's 4.19,
Ubuntu 20.04's 5.4, OpenWrt's netlink-less build, any ethtool on a kernel without
CONFIG_ETHTOOL_NETLINK) shows every field of struct ethtool_coalesce, "Adaptive RX: off" for a
driver without adaptive moderation. The planner took that for a driver that has it and planned
`-C adaptive-rx on` for stmmac (and igb, r8152, r8169, atlantic), which net/ethtool/ioctl.c
ethtool_set_coalesce refuses (ethtool_set_coalesce_supported: EOPNOTSUPP), and igb's mode codes
were never read. Netlink's print shows "n/a" for what the kernel did not report.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from sbctune.inventory.model import Board, Inventory, Nic
from sbctune.inventory.parsers.ethtool import parse_ethtool_coalesce
from sbctune.lab.ethtool_state import front_text
from sbctune.tuning import catalog
from sbctune.tuning.kinds import PLANNERS, Context
from sbctune.tuning.model import PlannedTweak
from sbctune.tuning.probe import Facts
from tests.fake_ethtool_support import ethtool, lab_state
from tests.plan_one import pi_answer

CAPTURES = Path(__file__).resolve().parents[1] / "captures"
IOCTL_STMMAC = CAPTURES / "ethtool_versions" / "stmmac_ioctl_show_coalesce_2021.txt"
NETLINK_MACB = CAPTURES / "ethtool_c" / "pi5_stratum1_macb_rp1_61_72_eth0.txt"
NETLINK_TUNED = CAPTURES / "ethtool_c" / "tuned_726_enp1s0.txt"


def _coalescing(driver: str, text: str, kernel: str, chip: str | None = None) -> PlannedTweak:
    """irq-coalescing planned for `driver`'s eth0 from `text` (its `ethtool -c`), the SSH
    session over wlan0."""
    found = Facts("eth0")
    found.steps["ethtool -c"] = pi_answer("ethtool -c", text)
    link = [{"ifname": "eth0", "flags": ["UP", "LOWER_UP"], "mtu": 1500}]
    found.steps["ip-link"] = pi_answer("ip-link", json.dumps(link))
    found.steps["ssh-route"] = pi_answer("ssh-route", json.dumps([{"dev": "wlan0"}]))
    tweak = catalog.tweak("irq-coalescing")
    nic = Nic("eth0", driver=driver, chip=chip)
    inventory = Inventory(board=Board(kernel=kernel), nics=[nic])
    return PLANNERS[tweak.kind](Context(tweak, found, inventory, nic, {}, {}, ("irq-coalescing",)))


def _changes(item: PlannedTweak) -> list[tuple[str, str | None, str | None]]:
    return [(c.target, c.before, c.after) for c in item.changes]


@pytest.mark.parametrize("kernel", ["5.10.103-v7l+", "6.1.0-rpi7-rpi-v8", "6.12.25+rpt-rpi-v8"])
def test_row1_the_ioctl_print_plans_no_adaptive_rx_on_stmmac(kernel: str) -> None:
    # the real capture: stmmac's 202 us RX watchdog is longer than the tweak's 50 us already
    item = _coalescing("stmmac", IOCTL_STMMAC.read_text(encoding="utf-8"), kernel)
    assert item.applicable
    assert _changes(item) == [("eth0 -C rx-usecs", "202", "202")]
    assert item.already
    assert "adaptive" not in item.reason


@pytest.mark.posix_only("the lab's fake ethtool locks its state with fcntl")
def test_row1_the_kernel_refuses_what_was_planned(tmp_path: Path) -> None:
    # what the plan asked for before the fix, in the lab (netlink, as the kernel answers it):
    # stmmac's supported_coalesce_params have no ETHTOOL_COALESCE_USE_ADAPTIVE_RX
    state = lab_state(tmp_path, "stmmac", "RK3568", "6.1.0")
    _out, err, code = ethtool(state, "-C", "eth0", "adaptive-rx", "on")
    assert code != 0 and err[-1] == "netlink error: Invalid argument"


def test_row1_the_two_prints_are_told_apart() -> None:
    ioctl, _ = parse_ethtool_coalesce(IOCTL_STMMAC.read_text(encoding="utf-8"))
    assert ioctl.adaptive_rx is False and ioctl.every_field_shown
    for path in (NETLINK_MACB, NETLINK_TUNED):
        netlink, _ = parse_ethtool_coalesce(path.read_text(encoding="utf-8"))
        assert netlink.adaptive_rx is None and netlink.per_attribute
        assert not netlink.every_field_shown


def test_row1_netlinks_print_is_planned_as_before() -> None:
    # "Adaptive RX: n/a" and rx-usecs 49 on the Pi 5's macb (rpi-6.1.y): a fixed interval
    item = _coalescing(
        "macb", NETLINK_MACB.read_text(encoding="utf-8"), "6.1.72-v8-16k+", chip="RP1"
    )
    assert item.applicable
    assert [t for t, _b, _a in _changes(item)] == ["eth0 -C rx-usecs"]


NETLINK_EEE = CAPTURES / "ethtool_eee" / "pi_end0_enabled_inactive_systemd_32032.txt"


@pytest.mark.posix_only("the lab's fake ethtool locks its state with fcntl")
def test_row2_the_labs_show_eee_is_netlinks_print(tmp_path: Path) -> None:
    # Row 2: the lab's ethtool is 6.1 over netlink, whose --show-eee (netlink/eee.c
    # eee_reply_cb) says "EEE settings" and puts no space after a mode; the lab printed the
    # ioctl print's "EEE Settings" and "100baseT/Full " (ethtool.c do_geee, dump_link_caps).
    # A real netlink capture (a Pi's end0, bcmgenet) holds the lines the lab prints.
    out, err, code = ethtool(lab_state(tmp_path, "bcmgenet", "BCM2711", "6.1.0"), "--show-eee",
                             "eth0")  # fmt: skip
    assert (err, code) == ([], 0)
    lines = out.splitlines()
    assert lines[0] == "EEE settings for eth0:"
    assert not [line for line in lines if line.endswith(" ")]
    real = NETLINK_EEE.read_text(encoding="utf-8").splitlines()
    assert real[3:5] == [
        "\tSupported EEE link modes:  100baseT/Full",
        "\t                           1000baseT/Full",
    ]
    assert real[3:5] == lines[3:5]


@pytest.mark.posix_only("the lab's fake ethtool locks its state with fcntl")
def test_row3_the_labs_ethtool_says_its_version(tmp_path: Path) -> None:
    # Row 3: `ethtool --version` went to the capture script, "ethtool: command not found" and
    # 127, which reads as ethtool missing; the lab's ethtool is Debian's 6.1 (ethtool.c
    # do_version: PACKAGE " version " VERSION, configure.ac AC_INIT(ethtool, 6.1, ...))
    state = lab_state(tmp_path, "r8152", "RTL8153", "6.1.0")
    assert ethtool(state, "--version") == ("ethtool version 6.1\n", [], 0)


@pytest.mark.posix_only("the lab's ethtool front is a POSIX shell script")
def test_row3_the_labs_front_hands_version_to_the_model(tmp_path: Path) -> None:
    # the installed `ethtool` is a shell front (ethtool_state.front_text): `--version` has no
    # interface after it, and went to the capture script
    model, fallback = tmp_path / "model", tmp_path / "fallback"
    model.write_text('#!/bin/sh\necho "model $*"\n', encoding="utf-8")
    fallback.write_text('#!/bin/sh\necho "capture $*"\n', encoding="utf-8")
    for script in (model, fallback):
        script.chmod(0o755)
    front = tmp_path / "ethtool"
    front.write_text(front_text(model, fallback, tmp_path / "shown", ["eth0"]), encoding="utf-8")
    env = {"PATH": "/usr/bin:/bin"}
    out = subprocess.run(["sh", str(front), "--version"], capture_output=True, text=True,
                         env=env, check=False, timeout=30)  # fmt: skip
    assert out.stdout == "model --version\n"
