"""Audit 26 (resources/tuning/driver_caps_audit26.md): kernels the table was not generated from.

The table is read from Debian's 6.1 and 6.12; for any other kernel `driver_caps` took what both
have. Debian's linux-source-5.10 (bullseye, 5.10.262-1) shows ethtool ops that both have and
5.10 has not, each added upstream by a commit whose first release is now the op's "since"
(hand fact `ops_since`): bcmgenet get/set_pauseparam (2d8bdf525d71, 5.16), r8152's (163d01c56e80,
5.14), r8169's (216f78ea8cf6, 5.13) and its get_ringparam (dc4aa50b13f1, 5.13), the AX88772's
(6661918c3b59, 6.1). On an older kernel the op is not there: `ethtool -a` answers "Operation not
supported", and the planner says why with the release that brought it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sbctune.inventory.model import Board, Inventory, Nic
from sbctune.tuning import catalog, driver_caps
from sbctune.tuning.kinds import PLANNERS, Context
from sbctune.tuning.probe import Facts
from sbctune.tuning.source_rule import lacks
from tests.fake_ethtool_support import ethtool, lab_state, shown

POSIX = pytest.mark.posix_only("the lab's fake ethtool (Linux-only lab) locks its state with fcntl")

# (driver, chip, op, first release, the last release before it): each from its commit's pull
DATED = [
    ("bcmgenet", "", "set_pauseparam", "5.16", "5.15"),
    ("bcmgenet", "", "get_pauseparam", "5.16", "5.15"),
    ("r8152", "RTL8153", "set_pauseparam", "5.14", "5.13"),
    ("r8169", "RTL8168h/8111h", "set_pauseparam", "5.13", "5.12"),
    ("r8169", "RTL8168h/8111h", "get_ringparam", "5.13", "5.12"),
    ("asix", "ASIX AX88772B", "set_pauseparam", "6.1", "6.0"),
]
# Kernel releases as real systems name them (Debian bullseye, Ubuntu 20.04/22.04, Armbian):
# "{}" is the series.
DEBIAN_LIKE = ["{}.0-28-arm64", "{}.0-91-generic", "{}.80-rockchip64"]


@pytest.mark.parametrize("driver,chip,op,since,before", DATED)
@pytest.mark.parametrize("form", DEBIAN_LIKE)
def test_an_op_is_not_claimed_on_a_kernel_older_than_its_commit(
    driver: str, chip: str, op: str, since: str, before: str, form: str
) -> None:
    older = driver_caps.caps(driver, form.format(before), chip or None)
    assert older is not None
    assert not older.has(op) and op not in older.unsure
    newer = driver_caps.caps(driver, form.format(since), chip or None)
    assert newer is not None and newer.has(op)


@pytest.mark.parametrize("driver,chip,op,since,before", DATED)
def test_the_planner_says_which_release_brought_the_op(
    driver: str, chip: str, op: str, since: str, before: str
) -> None:
    words = lacks(driver_caps.caps(driver, f"{before}.0-28-arm64", chip or None), op)
    assert words is not None
    assert f"only from Linux {since}" in words and "Operation not supported" in words
    assert "no " + op + " in Linux 6.1" not in words  # not the words for a driver without it


@pytest.mark.parametrize(
    "kernel", [None, "6.1.0-41-arm64", "6.6.51+rpt-rpi-v8", "6.18.34-current-rockchip64"]
)
def test_kernels_at_or_after_the_commit_or_unknown_keep_the_op(kernel: str | None) -> None:
    for driver, chip, op, _since, _before in DATED:
        caps = driver_caps.caps(driver, kernel, chip or None)
        assert caps is not None and caps.has(op), (driver, kernel)


@pytest.mark.parametrize("kernel", ["5.10.63-v7l+", "5.15.84-v8+", "5.15.4-0-rpi4"])
def test_a_pi_tree_kernel_before_the_commit_is_unsure_not_denied(kernel: str) -> None:
    """An rpi-5.10.y / rpi-5.15.y branch may carry a backport no source here shows: the op is
    neither claimed nor denied (the planner tries and reads back; the lab refuses, as for every
    unsure op)."""
    caps = driver_caps.caps("bcmgenet", kernel)
    assert caps is not None
    assert not caps.has("set_pauseparam") and "set_pauseparam" in caps.unsure
    assert lacks(caps, "set_pauseparam") is None


def test_the_same_kernel_keeps_an_op_that_came_earlier() -> None:
    """5.15 (Ubuntu 22.04, Raspberry Pi OS bullseye's last): r8152's pause (5.14) and r8169's
    (5.13) are there, bcmgenet's (5.16) is not."""
    kernel = "5.15.0-1055-raspi"
    assert driver_caps.caps("r8152", kernel, "RTL8153").has("set_pauseparam")  # type: ignore[union-attr]
    assert driver_caps.caps("r8169", kernel).has("set_pauseparam")  # type: ignore[union-attr]
    assert not driver_caps.caps("bcmgenet", kernel).has("set_pauseparam")  # type: ignore[union-attr]


def _flow_control(driver: str, chip: str, kernel: str) -> str:
    tweak = catalog.tweak("flow-control")
    nic = Nic("eth1", driver=driver, chip=chip, bus="usb")
    inventory = Inventory(board=Board(kernel=kernel), nics=[nic])
    ctx = Context(tweak, Facts("eth1"), inventory, nic, {}, {}, ("flow-control",))
    item = PLANNERS[tweak.kind](ctx)
    return f"{item.applicable} {item.reason}"


def test_flow_control_on_a_lan78xx_is_still_planned_on_510() -> None:
    """lan78xx has had its pause ops since before 5.10 (5.10's lan78xx_ethtool_ops has them):
    nothing dated, nothing changes."""
    caps = driver_caps.caps("lan78xx", "5.10.0-28-arm64", "LAN7515")
    assert caps is not None and caps.has("set_pauseparam")
    assert "only from Linux" not in _flow_control("lan78xx", "LAN7515", "5.10.0-28-arm64")


@POSIX
@pytest.mark.parametrize("kernel", ["5.10.0-28-arm64", "5.15.0-91-generic"])
def test_the_labs_pi4_genet_on_a_kernel_before_516_has_no_pause(
    tmp_path: Path, kernel: str
) -> None:
    """bcmgenet_ethtool_ops before 2d8bdf525d71 (5.16) has no get_pauseparam: ethtool's ioctl
    path answers EOPNOTSUPP, "Cannot get device pause settings: Operation not supported"."""
    state = lab_state(tmp_path, "bcmgenet", "", kernel)
    text, errors, code = ethtool(state, "-a", "eth0")
    assert code != 0
    assert any("Operation not supported" in line for line in errors), errors
    assert "Autonegotiate" not in text


@POSIX
def test_the_labs_pi4_genet_on_61_still_shows_pause(tmp_path: Path) -> None:
    state = lab_state(tmp_path, "bcmgenet", "", "6.1.0-41-arm64")
    text, _errors, code = ethtool(state, "-a", "eth0")
    assert code == 0 and "Autonegotiate" in text


@POSIX
@pytest.mark.parametrize("kernel,shown", [("5.10.0-28-arm64", False), ("5.13.0-52-generic", True)])
def test_the_labs_r8169_ring_read_follows_its_release(
    tmp_path: Path, kernel: str, shown: bool
) -> None:
    """rtl8169_get_ringparam (dc4aa50b13f1, 5.13): `ethtool -g` reads 256/256 from then on."""
    state = lab_state(tmp_path, "r8169", "RTL8168h/8111h", kernel)
    text, _errors, code = ethtool(state, "-g", "eth0")
    assert (code == 0 and "Pre-set maximums" in text) is shown


# Rows 5-7: facts that changed between 6.1 and 6.12, dated by their commit ("until" on the 6.1
# fact, "since" on the 6.12 one), so a kernel between or after the two (6.6, Ubuntu 24.04's
# 6.8, 6.18) gets its own side instead of the first fact or neither.


@pytest.mark.parametrize(
    ("kernel", "tx_usecs"),
    [("6.1.0-41-arm64", 1000), ("6.6.51-rockchip64", 1000), ("6.8.0-1056-raspi", 5000),
     ("6.12.20+rpt-rpi-2712", 5000), ("6.18.34-current-rockchip64", 5000)],
)  # fmt: skip
def test_stmmacs_tx_timer_default_follows_its_commit(kernel: str, tx_usecs: int) -> None:
    """STMMAC_COAL_TX_TIMER 1000 -> 5000 (common.h; 039550960a22, 6.7): 6.8 and 6.18 start at
    5000 us, not 6.1's 1000 (the first of the two facts, as before)."""
    caps = driver_caps.caps("stmmac", kernel, "RK3588")
    assert caps is not None
    assert caps.facts["coalesce_defaults"]["tx-usecs"] == tx_usecs


@POSIX
@pytest.mark.parametrize(
    ("kernel", "tx_usecs"), [("6.6.51-rockchip64", "1000"), ("6.8.0-31-generic", "5000")]
)
def test_the_labs_stmmac_shows_its_kernels_tx_timer(
    tmp_path: Path, kernel: str, tx_usecs: str
) -> None:
    state = lab_state(tmp_path, "stmmac", "RK3588", kernel)
    assert shown(state, "-c", "tx-usecs") == tx_usecs


@pytest.mark.parametrize(
    ("kernel", "busy"),
    [("5.10.0-28-arm64", True), ("6.6.51-rockchip64", True), ("6.11.0-9-generic", True),
     ("6.12.20+rpt-rpi-2712", False), ("6.18.34-current-rockchip64", False)],
)  # fmt: skip
def test_stmmacs_ebusy_while_down_ends_with_612(kernel: str, busy: bool) -> None:
    """stmmac_check_if_running (ethtool_ops.begin: EBUSY unless netif_running) until
    55ddb6c5a3ae (6.12): 6.6 and 6.11 still refuse every request of a down NIC; 6.18 does not
    (the planner's down-NIC words and persistence gaps read this fact with no series check)."""
    caps = driver_caps.caps("stmmac", kernel, "RK3588")
    assert caps is not None
    assert (caps.facts.get("ethtool_refused_when_down") == "EBUSY") is busy
    assert driver_caps.fact_in_every_series(caps, "ethtool_refused_when_down") is busy


@POSIX
@pytest.mark.parametrize(
    ("kernel", "busy"), [("6.6.51-rockchip64", True), ("6.18.34-current-rockchip64", False)]
)
def test_the_labs_down_stmmac_answers_as_its_kernel(
    tmp_path: Path, kernel: str, busy: bool
) -> None:
    down = lab_state(tmp_path, "stmmac", "RK3588", kernel, up=False)
    _out, errors, code = ethtool(down, "-g", "eth0")
    assert (code != 0 and any("Device or resource busy" in e for e in errors)) is busy


@pytest.mark.parametrize(
    ("driver", "kernel", "claimed"),
    [("macb", "6.6.31+rpt-rpi-2712", False), ("macb", "6.12.25+rpt-rpi-2712", True),
     ("r8169", "5.15.0-91-generic", False), ("r8169", "6.2.0-39-generic", True),
     ("r8169", "6.6.51-rockchip64", True)],
)  # fmt: skip
def test_software_irq_coalescing_by_default_is_dated(
    driver: str, kernel: str, claimed: bool
) -> None:
    """netdev_sw_irq_coalesce_default_on: r8169 from 42f66a44d837 (6.2), macb from d57f7b45945a
    (6.12; asked for 6.6.y and dropped): a Pi 5 on rpi-6.6.y does not start with
    gro_flush_timeout 20000."""
    caps = driver_caps.caps(driver, kernel)
    assert caps is not None
    assert ("sw_irq_coalesce_default" in caps.facts) is claimed


@pytest.mark.parametrize(
    ("kernel", "side"),
    [("5.10.0-28-arm64", "6.1"), ("6.6.31+rpt-rpi-v8", "6.1"), ("6.8.0-1056-raspi", "6.1"),
     ("6.10.14-v8+", "6.12"), ("6.12.25+rpt-rpi-v8", "6.12"), ("6.18.0-rc2-v8-16k+", "6.12")],
)  # fmt: skip
def test_lan78xx_eee_follows_its_phylib_conversion(kernel: str, side: str) -> None:
    """ "net: usb: lan78xx: Fixup EEE" (a00bbd15a5af, 6.10) moved the MAC's EEE bit to link
    changes, sent every set through phy_ethtool_set_eee (renegotiation) and called
    phy_support_eee (EEE on from the start). A Pi 3 B+ on rpi-6.6.y is on 6.1's side: EEE off
    until asked, and turning it off keeps the link (no consent needed for the SSH NIC)."""
    caps = driver_caps.caps("lan78xx", kernel, "LAN7515")
    assert caps is not None
    assert driver_caps.fact_in_every_series(caps, "eee_default")
    assert caps.facts["eee_default"]["enabled"] is (side == "6.12")
    assert caps.restarts("eee") is (side == "6.12")
    assert bool(caps.facts.get("eee_off_keeps_link")) is (side == "6.1")


@pytest.mark.parametrize(
    ("kernel", "refused"), [("6.6.51-rockchip64", None), ("6.12.20+rpt-rpi-2712", "EOPNOTSUPP")]
)
def test_stmmacs_eee_refusal_while_down_comes_with_612(kernel: str, refused: str | None) -> None:
    """Before 55ddb6c5a3ae the begin callback answers EBUSY first: phylink's EOPNOTSUPP for a
    down NIC's EEE is 6.12's answer, not 6.6's."""
    caps = driver_caps.caps("stmmac", kernel, "RK3588")
    assert caps is not None
    assert caps.facts.get("ops_refused_when_down", {}).get("get_eee") == refused


@pytest.mark.parametrize(
    ("driver", "kernel", "claimed"),
    [("bcmgenet", "6.12.47+rpt-rpi-v8", False), ("bcmgenet", "6.12.78+rpt-rpi-v8", True),
     ("bcmgenet", "6.12.117+deb13-arm64", True), ("bcmgenet", "6.6.31+rpt-rpi-v8", False),
     ("bcmgenet", "7.0.1-arch1-1", True), ("stmmac", "6.12.3-1-arm64", False),
     ("stmmac", "6.12.4-1-arm64", True), ("stmmac", "6.13.2-1-arm64", True)],
)  # fmt: skip
def test_phylib_eee_on_by_default_comes_with_its_stable_release(
    driver: str, kernel: str, claimed: bool
) -> None:
    """phy_support_eee (EEE and Tx LPI on from the start) reached bcmgenet with "net: bcmgenet:
    fix broken EEE by converting to phylib-managed state" (908c344d5cfa, 7.0; 6.12.78 by
    backport, Debian's changelog) and stmmac with "net: stmmac: set initial EEE policy
    configuration" (59c5e1411a0a, 6.13; 6.12.4): a Pi 4 on 6.12.47 does not start with EEE on,
    nor turn it back on at every open."""
    caps = driver_caps.caps(driver, kernel, "RK3588" if driver == "stmmac" else None)
    assert caps is not None
    assert ("eee_default" in caps.facts) is claimed
    if driver == "bcmgenet":
        assert ("eee_reset_on_open" in caps.facts) is claimed
    if claimed:
        assert driver_caps.fact_in_every_series(caps, "eee_default")
