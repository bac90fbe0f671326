"""Audit 31 (resources/tuning/driver_caps_audit31.md): kernels after 6.12, read in Debian's 7.2.

The table is read from Debian's 6.1 and 6.12, and a newer kernel took what both say. Debian's
linux-source-7.2 (trixie-backports, 7.2.12-1~bpo13+1) shows what changed after 6.12 and the
table applied there; each change is a hand fact cited to the 7.2 tree with its first release
("since"), or an "until" on the 6.12 fact it ends, read by the planner and the lab alike:

- row 1: stmmac's EEE is phylink's from 6.14 (4218647d4556): on at start on every board whose
  MAC has EEE, and kept across a close/open (6.12 from .4: only where the PHY is found by
  address, and set on again at every open);
- row 2: lan78xx is a phylink driver from 6.17 (e110bc825897): `ethtool -a` shows RX and TX off
  at start (phylink's MLO_PAUSE_AN), no EINVAL for pause autoneg over a forced link;
- row 3: mainline drives the Pi 5's RP1 from 6.18 (dc110d1b2356), without the Raspberry Pi
  tree's interrupt coalescing: a mainline kernel on a Pi 5 is not that tree;
- row 4: smsc95xx answers `ethtool -a/-A` from 6.17 (c521b8c9f212).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from sbctune.advice.logs import log_findings
from sbctune.inventory.model import Board, Inventory, Nic
from sbctune.lab.ethtool_table_eee import hold_eee
from sbctune.remote import batch
from sbctune.remote.batch import StepResult
from sbctune.tuning import driver_caps, persist_gaps, reopen_order
from sbctune.tuning.model import Change, PlannedTweak
from sbctune.tuning.probe import Facts
from sbctune.tuning.source_rule import read_back_decides
from tests.fake_ethtool_support import ethtool, lab_state
from tests.kernel_package import cached_package
from tests.plan_one import plan_one

POSIX = pytest.mark.posix_only("the lab's fake ethtool (Linux-only lab) locks its state with fcntl")
CAPTURES = Path(__file__).resolve().parents[1] / "captures"
# ethtool --show-eee of a real Pi with EEE enabled (systemd issue 32032), as audit 30's tests
EEE_ON = (CAPTURES / "ethtool_eee" / "pi_end0_enabled_inactive_systemd_32032.txt").read_text(
    encoding="utf-8"
)
EEE_OFF = Change("ethtool", "eth0 --set-eee eee", "on", "off")
RINGS = Change("ethtool", "eth0 -G rx", "512", "1024")

ARMBIAN_618 = "6.18.8-current-rockchip64"  # Armbian current (a mainline build)
DEBIAN_72 = "7.2.0-1-arm64"  # Debian trixie-backports
PI_618 = "6.18.3+rpt-rpi-v8"  # Raspberry Pi OS on rpi-6.18.y
PI5_618 = "6.18.3-v8-16k+"  # a Raspberry Pi tree build for the Pi 5 (bcm2712_defconfig)


# --- row 1: stmmac's EEE is phylink's from 6.14 ----------------------------------------------


@pytest.mark.parametrize("kernel", ["6.14.1", ARMBIAN_618, DEBIAN_72])
def test_stmmac_starts_eee_on_for_every_board_from_614(kernel: str) -> None:
    """stmmac_phylink_setup's eee_enabled_default: on for a phy-handle board (RK3588) too, no
    longer only where the PHY is found by address; and no reset at open."""
    caps = driver_caps.caps("stmmac", kernel, "RK3588")
    assert caps is not None and driver_caps.fact_in_every_series(caps, "eee_default")
    assert caps.facts["eee_default"] == {"enabled": True, "tx_lpi": True}
    assert "eee_reset_on_open" not in caps.facts
    assert caps.cite("eee_default").endswith("stmmac_main.c: stmmac_phylink_setup")


@pytest.mark.parametrize("kernel", ["6.12.20-arm64", "6.13.2"])
def test_stmmac_before_614_keeps_the_phy_by_address_branch(kernel: str) -> None:
    caps = driver_caps.caps("stmmac", kernel, "RK3588")
    assert caps is not None
    assert caps.facts["eee_reset_on_open"]["phy_by_address"] is True
    assert caps.facts["eee_default"]["phy_by_address"] is True


def _planned_eee_off(kernel: str) -> PlannedTweak:
    found = Facts("eth0")
    found.steps["ethtool --show-eee"] = StepResult(
        batch.Step(("true",), "ethtool --show-eee"), 0, EEE_ON.encode(), b""
    )
    nic = Nic("eth0", driver="stmmac", chip="RK3588")
    return plan_one("eee-off", found, nic, kernel, {"allow_link_restart": True})


def test_eee_off_on_stmmac_618_is_not_said_to_come_back_at_the_next_open() -> None:
    """phylink_bringup_phy applies the eee_cfg the last set stored (phylink_ethtool_set_eee):
    an eee-off made on Armbian's 6.18 survives a ring change, a new MTU, a network restart."""
    item = _planned_eee_off(ARMBIAN_618)
    assert item.applicable and [c.after for c in item.changes] == ["off"], item.reason
    assert "on again" not in item.reason and "until the next restart" not in item.reason
    facts = reopen_order.open_facts("stmmac", "eth0", ARMBIAN_618, "RK3588")
    assert reopen_order.apply_order([EEE_OFF, RINGS], facts) == [0, 1]  # no reordering
    assert reopen_order.read_last([EEE_OFF, RINGS], facts) == set()
    caps = driver_caps.caps("stmmac", ARMBIAN_618, "RK3588")
    lost = persist_gaps.why_lost(EEE_OFF, caps, facts, "eth0") or ""
    assert "sets it back each time" not in lost and "stmmac_init_phy" not in lost, lost
    # 6.12 (audit 30 row 1) unchanged
    assert "on again" in _planned_eee_off("6.12.20-arm64").reason


def _lab_eee(kernel: str, by_address: bool | None) -> dict[str, Any]:
    eee: dict[str, Any] = {"supported": ["1000baseT/Full"], "enabled": False,
                           "link_partner": [], "tx_lpi": False}  # fmt: skip
    if by_address is not None:
        eee["phy_by_address"] = by_address
    state: dict[str, Any] = {"eee": eee}
    caps = driver_caps.caps("stmmac", kernel, "RK3588")
    assert caps is not None
    hold_eee(state, caps, "RK3588", 1000.0)
    return dict(state["eee"])


@pytest.mark.parametrize("by_address", [None, False, True])
def test_the_labs_stmmac_on_618_starts_eee_on_and_keeps_it_off_across_an_open(
    by_address: bool | None,
) -> None:
    """Whichever way the board finds its PHY, 6.18's stmmac starts EEE on and never sets it
    back at open (6.12.20: on and reset only where the model says by address)."""
    eee = _lab_eee(ARMBIAN_618, by_address)
    assert eee["enabled"] is True and eee["tx_lpi"] is True
    assert "reset_on_open" not in eee
    old = _lab_eee("6.12.20-arm64", by_address)
    assert old["enabled"] is (by_address is True)


# --- row 2: lan78xx's pause is phylink's from 6.17 ---------------------------------------------


@pytest.mark.parametrize("kernel", [PI_618, DEBIAN_72])
def test_lan78xx_after_617_asks_for_no_pause_at_start(kernel: str) -> None:
    caps = driver_caps.caps("lan78xx", kernel, "LAN7515")
    assert caps is not None
    assert "pause_default" not in caps.facts
    assert "pause_autoneg_needs_link_autoneg" not in caps.facts
    assert caps.facts["pause_advertised_at_start"] == {"Pause": True, "Asym_Pause": True}
    assert (
        caps.cite("pause_advertised_at_start") == "drivers/net/phy/phylink.c: phylink_bringup_phy"
    )


def _results_words(kernel: str) -> str | None:
    nic = Nic("eth0", driver="lan78xx", chip="LAN7515", bus="usb")
    inventory = Inventory(board=Board(kernel=kernel), nics=[nic])
    return read_back_decides("flow-control", inventory, nic)


def test_results_no_longer_says_lan78xx_asks_for_pause_at_start_on_618() -> None:
    """Results' words for the flow-control tweak: 'lan78xx asks for RX and TX pause frames at
    start ... changes nothing' is 6.12's lan78xx_phy_init, not phylink's MLO_PAUSE_AN."""
    assert _results_words(PI_618) is None
    said = _results_words("6.12.25+rpt-rpi-v8")
    assert said is not None and "asks for RX and TX pause frames at start" in said


@POSIX
@pytest.mark.parametrize(("kernel", "on"), [(PI_618, "off"), ("6.12.25+rpt-rpi-v8", "on")])
def test_the_labs_pi3b_plus_shows_its_kernels_pause_request(
    tmp_path: Path, kernel: str, on: str
) -> None:
    """ethtool -a on a Pi 3 B+: 6.17+ shows phylink's request (autoneg only, RX/TX off); 6.12
    lan78xx_phy_init's fc_request_control (RX and TX on)."""
    state = lab_state(tmp_path, "lan78xx", "LAN7515", kernel)
    text, _errors, code = ethtool(state, "-a", "eth0")
    assert code == 0, text
    assert _pause_lines(text) == {"Autonegotiate": "on", "RX": on, "TX": on}


def _pause_lines(text: str) -> dict[str, str]:
    """ethtool -a's "Name:\tvalue" lines."""
    return {k.strip(): v.strip() for k, _, v in
            (line.partition(":") for line in text.splitlines()[1:]) if v.strip()}  # fmt: skip


# --- row 3: mainline drives the Pi 5's RP1 from 6.18, without coalescing ----------------------

RP1 = "Cadence GEM in RP1"
PI5_61_COALESCE = CAPTURES / "ethtool_c" / "pi5_stratum1_macb_rp1_61_72_eth0.txt"


def _pi5_coalescing(kernel: str) -> PlannedTweak:
    paste = PI5_61_COALESCE.read_text(encoding="utf-8")
    found = Facts("eth0")
    found.steps["ethtool -c"] = StepResult(
        batch.Step(("true",), "ethtool -c"), 0, paste.encode(), b""
    )
    return plan_one("irq-coalescing", found, Nic("eth0", driver="macb", chip=RP1), kernel)


@pytest.mark.parametrize("kernel", [DEBIAN_72, "6.18.1-1-arm64"])
def test_a_mainline_kernel_on_a_pi5_is_not_the_raspberry_pi_tree(kernel: str) -> None:
    """raspberrypi_rp1_config (dc110d1b2356, 6.18): mainline's gem_ethtool_ops has no
    get/set_coalesce, so interrupt coalescing is not planned there; the RP1's jumbo maximum
    (MIN(10240, RX_BUFFER_MAX) - 18) is mainline's own."""
    assert driver_caps.tree_of(kernel, RP1) == "debian"
    caps = driver_caps.caps("macb", kernel, RP1)
    assert caps is not None
    assert not caps.has("set_coalesce") and "set_coalesce" not in caps.unsure
    assert caps.mtu_max(RP1) == 10222
    item = _pi5_coalescing(kernel)
    assert not item.applicable
    assert "no set_coalesce" in item.reason, item.reason


@pytest.mark.parametrize("kernel", [PI5_618, "6.12.47+rpt-rpi-2712", "6.8.0-1056-raspi", None])
def test_the_raspberry_pi_tree_and_an_unknown_kernel_keep_the_trees_rp1(
    kernel: str | None,
) -> None:
    assert driver_caps.tree_of(kernel, RP1) == driver_caps.RPI_TREE


def test_a_pi5_on_rpi_618_still_coalesces() -> None:
    caps = driver_caps.caps("macb", PI5_618, RP1)
    assert caps is not None and caps.has("set_coalesce")
    assert _pi5_coalescing(PI5_618).applicable


@POSIX
@pytest.mark.parametrize(("kernel", "answers"), [(DEBIAN_72, False), (PI5_618, True)])
def test_the_labs_pi5_answers_ethtool_c_as_its_kernels_tree(
    tmp_path: Path, kernel: str, answers: bool
) -> None:
    state = lab_state(tmp_path, "macb", RP1, kernel)
    _text, errors, code = ethtool(state, "-c", "eth0")
    assert (code == 0) is answers, errors
    if not answers:
        assert any("Operation not supported" in line for line in errors), errors


# --- row 4: smsc95xx's pause from 6.17 ---------------------------------------------------------


@POSIX
@pytest.mark.parametrize(("kernel", "answers"), [(PI_618, True), ("6.12.25+rpt-rpi-v8", False)])
def test_the_labs_smsc95xx_answers_ethtool_a_from_617(
    tmp_path: Path, kernel: str, answers: bool
) -> None:
    """smsc95xx_get_pauseparam (c521b8c9f212, 6.17): a Pi 3 B / 2 B on rpi-6.18.y answers
    `ethtool -a`; on 6.12 the kernel says "Operation not supported"."""
    caps = driver_caps.caps("smsc95xx", kernel)
    assert caps is not None and caps.has("set_pauseparam") is answers
    state = lab_state(tmp_path, "smsc95xx", "", kernel)
    text, errors, code = ethtool(state, "-a", "eth0")
    assert (code == 0) is answers, (text, errors)
    if answers:  # smsc95xx_bind: RX and TX requested, with autonegotiation
        assert _pause_lines(text) == {"Autonegotiate": "on", "RX": "on", "TX": "on"}


# --- the source: kernel_source extracts a fresh tree when one glob covers another -------------


@pytest.mark.posix_only("builds a Debian package with dpkg-deb and extracts it with tar")
def test_a_fresh_tree_is_extracted_when_one_glob_covers_another(tmp_path: Path) -> None:
    """tar takes each member for the first pattern it matches and fails "Not found in archive"
    for a pattern left with none: the source test's globs ("net/mac80211/*" and
    "net/mac80211/iface.c") failed on a fresh 7.2 tree. A package built here, as Debian's
    linux-source-7.2 is laid out (/usr/src/linux-source-7.2.tar.xz)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
    import kernel_source

    files = {
        "net/mac80211/iface.c": "int ieee80211_if_add;\n",
        "net/mac80211/rate.c": "int rate;\n",
    }
    cache = cached_package(tmp_path, "7.2", files)
    globs = ["net/mac80211/*", "net/mac80211/iface.c"]
    tree = kernel_source.obtain("7.2", globs, cache=cache, offline=True)
    assert (tree.root / "net/mac80211/iface.c").is_file()
    assert (tree.root / "net/mac80211/rate.c").is_file()
    (tree.root.parent / "linux-source-7.2.tar.xz").unlink()  # a second call extracts nothing
    assert kernel_source.obtain("7.2", globs, cache=cache, offline=True).root == tree.root


# --- row 6: bcmgenet's ring discards are rx_missed_errors from 6.16 ----------------------------


def _pi4_counters() -> Nic:
    """An `ip -s link`-like reading of a Pi 4's eth0 (built here: counters as the NIC reports
    them): rx_errors at 3 % of the frames received."""
    nic = Nic("eth0", driver="bcmgenet")
    nic.counters = {"rx_packets": 1_000_000, "rx_errors": 30_000, "rx_dropped": 0,
                    "tx_packets": 900_000, "tx_errors": 0, "tx_dropped": 0}  # fmt: skip
    return nic


def test_a_pi4_on_618s_rx_errors_are_damaged_frames_not_ring_discards() -> None:
    """e985b97ac1b1 (6.16) moved bcmgenet_desc_rx's discard count from errors to missed: on
    Raspberry Pi OS's 6.18 rx_errors no longer holds ring overflows, so the advice does not
    explain them away as drops (audit 21 row 1 stays right for 6.12 and an unknown kernel)."""
    (found,) = [f for f in log_findings(_pi4_counters(), PI_618) if f.id == "interface-errors"]
    assert "bcmgenet_desc_rx" not in found.summary
    assert found.severity == "warning"
    for kernel in ("6.12.25+rpt-rpi-v8", None):
        said = [f for f in log_findings(_pi4_counters(), kernel) if f.id == "interface-errors"]
        assert said and "bcmgenet.c: bcmgenet_desc_rx" in said[0].summary, kernel


def test_inspect_passes_the_boards_kernel_to_the_counter_rule() -> None:
    """The inventory's kernel reaches the counters' judgement (add_static_advice)."""
    from sbctune.advice.static import add_static_advice
    from sbctune.inventory.raw import Parsed

    for kernel, explained in ((PI_618, False), ("6.12.25+rpt-rpi-v8", True)):
        inventory = Inventory(board=Board(kernel=kernel), nics=[_pi4_counters()])
        add_static_advice(inventory, Parsed())
        (found,) = [f for f in inventory.findings if f.id == "interface-errors"]
        assert ("bcmgenet_desc_rx" in found.summary) is explained, kernel
