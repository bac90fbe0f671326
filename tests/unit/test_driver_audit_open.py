"""The rows the three driver audits had left open (resources/tuning/driver_caps_audit3a.md rows 6,
8, 10; driver_caps_audit3b.md rows 9, 11 and its note on a cached ``-k`` after an MTU change):
each test here failed on the code before its fix, on the lab's ethtool answers as the kernel's
source says (driver_caps.json hand facts).

Sets need root, as the real ethtool does; the lab itself runs as root.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sbctune.inventory.model import Nic
from sbctune.tuning.knobs import ethtool_value
from tests.fake_ethtool_support import ethtool, lab_state, root, shown
from tests.unit.test_driver_audit3b import planned

pytestmark = pytest.mark.posix_only("the lab's fake ethtool locks its state with fcntl")

BUSY = "netlink error: Device or resource busy"


def lab(tmp_path: Path, driver: str, chip: str = "", kernel: str = "", **extra: Any) -> str:
    return lab_state(tmp_path, driver, chip, kernel, **extra)


# ------------------------------ stmmac on 6.1: every request EBUSY while down (audit 3b row 9)


@root
@pytest.mark.parametrize(
    "argv",
    [("-g",), ("-c",), ("-a",), ("--show-eee",), ("-l",), ("-G", "rx", "256"),
     ("-C", "tx-frames", "16"), ("-A", "rx", "on"), ("--set-eee", "eee", "off"),
     ("-K", "gro", "off")],
)  # fmt: skip
def test_stmmac_on_6_1_refuses_every_request_while_down(
    tmp_path: Path, argv: tuple[str, ...]
) -> None:
    down = lab(tmp_path, "stmmac", kernel="6.1.0-31-arm64", up=False)
    out, err, code = ethtool(down, argv[0], "eth0", *argv[1:])
    assert (out, err[-1:]) == ("", [BUSY]) and code != 0
    up = lab(tmp_path, "stmmac", kernel="6.1.0-31-arm64", up=True)
    assert BUSY not in ethtool(up, argv[0], "eth0", *argv[1:])[1]


def test_stmmac_down_still_shows_its_features_and_6_12_has_no_begin(tmp_path: Path) -> None:
    down61 = lab(tmp_path, "stmmac", kernel="6.1.0-31-arm64", up=False)
    assert ethtool(down61, "-k", "eth0")[2] == 0  # features_prepare_data: no ethnl_ops_begin
    down612 = lab(tmp_path, "stmmac", kernel="6.12.57+rpt-rpi-2712", up=False)
    assert ethtool(down612, "-g", "eth0")[2] == 0
    unknown = lab(tmp_path, "stmmac", kernel="", up=False)  # a 6.1-only fact is not claimed
    assert ethtool(unknown, "-g", "eth0")[2] == 0


# --------------------------- bcmgenet: adaptive-rx on starts from DIM's profile (audit 3a row 6)


@root
def test_bcmgenet_adaptive_rx_on_shows_dims_starting_profile(tmp_path: Path) -> None:
    state = lab(tmp_path, "bcmgenet")
    assert ethtool(state, "-C", "eth0", "rx-usecs", "50", "rx-frames", "32")[2] == 0
    assert (shown(state, "-c", "rx-usecs"), shown(state, "-c", "rx-frames")) == ("57", "32")
    assert ethtool(state, "-C", "eth0", "adaptive-rx", "on")[2] == 0
    # net_dim_get_def_rx_moderation (EQE): 8 us (one 8.192 us tick, read back 8), 256 frames
    assert (shown(state, "-c", "rx-usecs"), shown(state, "-c", "rx-frames")) == ("8", "256")
    # already adaptive: a value given now is written as given (use_dim already set)
    assert ethtool(state, "-C", "eth0", "rx-usecs", "50")[2] == 0
    assert shown(state, "-c", "rx-usecs") == "57"
    # adaptive off keeps what the registers hold
    assert ethtool(state, "-C", "eth0", "adaptive-rx", "off")[2] == 0
    assert (shown(state, "-c", "rx-usecs"), shown(state, "-c", "rx-frames")) == ("57", "256")


@root
def test_irq_coalescing_on_bcmgenet_puts_the_old_values_back_on_revert(tmp_path: Path) -> None:
    state = lab(tmp_path, "bcmgenet")
    plan = planned("irq-coalescing", Nic("eth0", driver="bcmgenet"),
                   ethtool(state, "-c", "eth0")[0], "ethtool -c")  # fmt: skip
    got = [(c.target, c.before, c.after) for c in plan.changes]
    assert got == [
        ("eth0 -C rx-usecs", "0", "8"),
        ("eth0 -C rx-frames", "1", "256"),
        ("eth0 -C adaptive-rx", "off", "on"),
    ]  # fmt: skip  (DIM last: audit 6a row 10)
    for change in plan.changes:  # applied in order; each read back as planned
        assert ethtool(state, "-C", "eth0", change.target.split()[-1], str(change.after))[2] == 0
        text = ethtool(state, "-c", "eth0")[0]
        assert ethtool_value("-C", change.target.split()[-1], text) == change.after
    for change in reversed(plan.changes):  # the revert
        assert ethtool(state, "-C", "eth0", change.target.split()[-1], str(change.before))[2] == 0
    assert (shown(state, "-c", "rx-usecs"), shown(state, "-c", "rx-frames")) == ("0", "1")


# --------------------- r8152: EEE by chip, rtl_ops_init's eee_en and eee_adv (audit 3a row 10)


@pytest.mark.parametrize(
    ("chip", "modes", "status"),
    [("RTL8152", "100baseT/Full", "enabled - active"),
     ("RTL8152B", "100baseT/Full", "enabled - active"),
     ("RTL8153", "100baseT/Full 1000baseT/Full", "enabled - active"),
     ("RTL8156B", "100baseT/Full 1000baseT/Full", "enabled - active")],
)  # fmt: skip
def test_r8152_eee_by_chip(tmp_path: Path, chip: str, modes: str, status: str) -> None:
    state = lab(tmp_path, "r8152", chip)
    text = ethtool(state, "--show-eee", "eth0")[0]
    advertised = text.split("Advertised EEE link modes:")[1].split("Link partner")[0].split()
    assert " ".join(advertised) == modes
    assert shown(state, "--show-eee", "EEE status") == status


def test_r8152s_rtl8156_eee_default_is_not_claimed() -> None:
    """RTL_VER_10 (EEE off) and RTL_VER_11 (on) are both an RTL8156: the table says unknown."""
    from sbctune.tuning import driver_caps

    caps = driver_caps.caps("r8152")
    assert caps is not None
    assert caps.facts["eee_by_chip"]["RTL8156"]["enabled"] is None
