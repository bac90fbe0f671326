"""Audit 34b (resources/tuning/driver_caps_audit34b.md): the bar's read of r8169, igb, igc,
atlantic, stmmac and asix, sources first (6.1, 6.12 and 7.2), and audit 33b's row 6 (atlantic's
AUTO moderation and sbctune's revert) settled. Each test below failed before its change.

Row 1: aq_ethtool_set_coalesce takes a usecs of 0 only with its frames at 1 and the ON mode
reads frames 0 back, so the undo of irq-coalescing's 0 -> 50 (`-C rx-usecs 0`) was EOPNOTSUPP;
it now writes `rx-usecs 0 rx-frames 1`. Row 2: r8169's jumbo MTU renegotiates only while pause
is still advertised (genphy_check_and_restart_aneg restarts a changed advertisement only). Rows
3-5, after 6.12 (read in linux-source-7.2, dated by their upstream commits): igc turns VLAN
offloads on by default from 6.16; the RTL8125/8126 take 16362-byte MTUs from 6.15; r8169 turns
SG/TSO on by default from 6.13 on VER_46 and later but the RTL8125A.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from sbctune.inventory.model import Board, Inventory, Nic
from sbctune.lab import fake_ethtool, ip_front, load_profile
from sbctune.remote import batch
from sbctune.remote.batch import StepResult
from sbctune.tuning import catalog, knobs
from sbctune.tuning.kinds import PLANNERS, Context
from sbctune.tuning.model import PlannedTweak
from sbctune.tuning.probe import Facts, Read
from tests.fake_ethtool_support import (
    LINK_UP,
    ethtool,
    in_lab,
    lab_state,
    record_bounces,
    root,
    with_link,
)
from tests.plan_one import plan_one

POSIX = pytest.mark.posix_only("the lab's fake ethtool (Linux-only lab) locks its state with fcntl")


def _planned(tweak_id: str, nic: Nic, key: str, text: str, kernel: str) -> PlannedTweak:
    found = Facts(nic.name)
    found.steps[key] = StepResult(batch.Step(("true",), key), 0, text.encode(), b"")
    return plan_one(tweak_id, found, nic, kernel)


def _coalesce(state: str) -> dict[str, str]:
    out, err, code = ethtool(state, "-c", "eth0")
    assert code == 0, err
    return dict(line.split(": ", 1) for line in out.splitlines() if ": " in line)


# --- row 1: atlantic's undo of rx-usecs 0 -> 50 -----------------------------------------------


@POSIX
@root
@pytest.mark.parametrize("kernel", ["6.1.0-27-arm64", "6.12.0-1-arm64"])
def test_atlantic_coalescing_from_a_zero_timer_is_undone(tmp_path: Path, kernel: str) -> None:
    state = lab_state(tmp_path, "atlantic", "AQC107", kernel)
    assert ethtool(state, "-C", "eth0", "rx-usecs", "0", "rx-frames", "1")[2] == 0
    assert (_coalesce(state)["rx-usecs"], _coalesce(state)["rx-frames"]) == ("0", "0")
    nic = Nic("eth0", driver="atlantic", chip="AQC107", link_speed_mbps=1000)
    item = _planned("irq-coalescing", nic, "ethtool -c", ethtool(state, "-c", "eth0")[0], kernel)
    (change,) = item.changes
    assert item.applicable and (change.before, change.after) == ("0", "50")
    (apply,) = knobs.write_argvs(change, change.after, restoring=False)
    assert ethtool(state, *apply[1:])[2] == 0
    assert _coalesce(state)["rx-usecs"] == "50"
    (undo,) = knobs.write_argvs(change, change.before, restoring=True)
    _, err, code = ethtool(state, *undo[1:])
    assert (code, err) == (0, []), undo  # was: netlink error: Operation not supported
    assert (_coalesce(state)["rx-usecs"], _coalesce(state)["rx-frames"]) == ("0", "0")


def test_atlantic_writes_a_non_zero_timer_alone() -> None:
    """The control: 50 over a 0/0 pair, and any value over AUTO's numbers, is the value alone
    (frames 0 is what a non-zero usecs needs)."""
    from sbctune.tuning import driver_caps

    caps = driver_caps.caps("atlantic", "6.12.0-1-arm64")
    assert caps is not None
    shown = {"rx-usecs": 256, "rx-frames": 0}
    assert driver_caps.coalesce_written(caps.facts, "rx-usecs", [50, 256], shown) == ()
    macb = driver_caps.caps("macb", "6.12.0-1-arm64")
    assert macb is not None and "coalesce_usecs_needs_frames_zero" not in macb.facts


# --- row 2: r8169's jumbo MTU renegotiates only while pause is advertised ----------------------

RTL8125B = "RTL8125 2.5GbE Controller (RTL8125B)"


def _advertised_pause(state: str) -> str:
    text = ethtool(state, "eth0")[0]
    return text.split("Advertised pause frame use:")[1].split("\n")[0].strip()


@pytest.fixture
def bounces(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    return record_bounces(monkeypatch)


@POSIX
@root
@pytest.mark.parametrize("kernel", ["6.1.0-27-arm64", "6.12.0-1-arm64"])
def test_a_second_jumbo_mtu_keeps_the_r8169_link(
    tmp_path: Path, bounces: list[str], kernel: str
) -> None:
    """rtl_jumbo_config clears Pause/Asym_Pause and calls phy_start_aneg at every MTU above
    1500; genphy_check_and_restart_aneg restarts only a changed advertisement. The first jumbo
    MTU renegotiates; after it (undone or not) nothing is left to clear: no link drop."""
    state = in_lab(with_link(lab_state(tmp_path, "r8169", RTL8125B, kernel, up=True), **LINK_UP))
    assert _advertised_pause(state) == "Symmetric Receive-only"  # phy_support_asym_pause
    assert fake_ethtool.mtu_link_dropped(state, "eth0") == 0
    assert bounces == ["eth0"]
    assert _advertised_pause(state) == "No"  # was: still "Symmetric Receive-only"
    assert fake_ethtool.mtu_link_dropped(state, "eth0") == 0  # 1500 again, then 9000 again
    assert bounces == ["eth0"]  # was: a second drop


@POSIX
@root
def test_pause_turned_off_first_leaves_nothing_for_the_jumbo_mtu_to_renegotiate(
    tmp_path: Path, bounces: list[str]
) -> None:
    state = in_lab(
        with_link(lab_state(tmp_path, "r8169", RTL8125B, "6.12.0-1-arm64", up=True), **LINK_UP)
    )
    assert ethtool(state, "-A", "eth0", "rx", "off", "tx", "off")[2] == 0
    bounces.clear()  # phy_set_asym_pause's own renegotiation
    assert _advertised_pause(state) == "No"
    assert fake_ethtool.mtu_link_dropped(state, "eth0") == 0
    assert bounces == []


def test_the_jumbo_plan_says_when_r8169_renegotiates() -> None:
    """The plan's words: the renegotiation is phylib's for a changed advertisement. The probe
    reads no advertisement, so the change stays held back on the SSH NIC (the safe side)."""
    from tests.unit.test_lab_audit25 import _plan

    for item in (_plan("wlan0"), _plan("eth0")):
        assert "while the link still advertises flow control, as it does from boot" in item.reason
        assert "drivers/net/phy/phy_device.c: genphy_check_and_restart_aneg" in item.reason
    assert _plan("eth0").needs_link_consent


# --- row 3: igc turns VLAN offloads on by default from 6.16 -------------------------------------


def _features(state: str) -> dict[str, str]:
    out = ethtool(state, "-k", "eth0")[0]
    return dict(line.strip().split(": ", 1) for line in out.splitlines()[1:] if ": " in line)


@POSIX
@pytest.mark.parametrize(
    ("kernel", "shown"),
    [("6.1.0-27-arm64", "off"), ("6.12.0-1-arm64", "off"), ("6.16.3-1-arm64", "on"),
     ("7.2.0-1-arm64", "on")],
)  # fmt: skip
def test_igc_shows_vlan_offloads_on_from_616(tmp_path: Path, kernel: str, shown: str) -> None:
    """igc_probe (7.2, since f9c961efb0f4 in 6.16): features |= HW_VLAN_CTAG_TX | _RX after
    hw_features is copied: on and changeable; 6.1/6.12 leave them in hw_features only."""
    state = lab_state(tmp_path, "igc", "Ethernet Controller I226-V", kernel)
    features = _features(state)
    assert (features["rx-vlan-offload"], features["tx-vlan-offload"]) == (shown, shown)


@POSIX
@root
def test_igc_vlan_offloads_on_72_stay_changeable_together(tmp_path: Path) -> None:
    state = lab_state(tmp_path, "igc", "Ethernet Controller I225-V", "7.2.0-1-arm64")
    assert ethtool(state, "-K", "eth0", "rxvlan", "off")[2] == 0
    features = _features(state)  # igc_fix_features: TX insertion follows RX stripping, while
    # the request (wanted_features) keeps TX on
    assert (features["rx-vlan-offload"], features["tx-vlan-offload"]) == (
        "off",
        "off [requested on]",
    )


# --- row 4: the RTL8125/8126 take 16K jumbo frames from 6.15 -------------------------------------


def _jumbo_plan(kernel: str, mtu: int, chip: str = "RTL8125 2.5GbE Controller") -> PlannedTweak:
    nic = Nic("eth1", driver="r8169", chip=chip, mtu=1500)
    found = Facts("eth1")
    found.knobs["/sys/class/net/eth1/mtu"] = Read(True, "1500")
    tweak = catalog.tweak("mtu-jumbo")
    inventory = Inventory(board=Board(kernel=kernel), nics=[nic])
    options = {"path_supports_jumbo": True, "mtu": mtu, "allow_link_restart": True}
    return PLANNERS[tweak.kind](Context(tweak, found, inventory, nic, options, {}, ("mtu-jumbo",)))


@pytest.mark.parametrize("kernel", ["6.15.2-1-arm64", "7.2.0-1-arm64"])
def test_an_rtl8125_takes_12000_from_615(kernel: str) -> None:
    """rtl_jumbo_max (7.2, since 473367a5ffe1 in 6.15): JUMBO_16K (16362) on VER_61 and later;
    the plan wrote "not possible, at most 9194"."""
    item = _jumbo_plan(kernel, 12000)
    assert item.applicable, item.reason
    assert [(c.before, c.after) for c in item.changes] == [("1500", "12000")]
    refused = _jumbo_plan(kernel, 16363)
    assert not refused.applicable and "at most 16362" in refused.reason


@pytest.mark.parametrize(
    ("kernel", "chip"),
    [("6.12.0-1-arm64", "RTL8125 2.5GbE Controller"),
     ("7.2.0-1-arm64", "RTL8111/8168/8411 PCI Express Gigabit Ethernet Controller")],
)  # fmt: skip
def test_9194_stays_the_limit_before_615_and_for_the_gigabit_chips(kernel: str, chip: str) -> None:
    item = _jumbo_plan(kernel, 12000, chip)
    assert not item.applicable and "at most 9194" in item.reason


def test_the_lab_shows_the_16k_maximum_on_a_72_rtl8125() -> None:
    profile = load_profile("cm4-rtl8125b-r8169")
    assert ip_front.limits(profile)["eth1"]["max"] == 9194  # the seed names no kernel
    newer = dataclasses.replace(profile, kernel="7.2.0-1-arm64")
    assert ip_front.limits(newer)["eth1"]["max"] == 16362


# --- row 5: r8169 turns SG/TSO on by default from 6.13 (VER_46 and later, not the RTL8125A) -------

RTL8168H = "RTL8111/8168/8411 PCI Express Gigabit Ethernet Controller (RTL8168h/8111h)"


@POSIX
@pytest.mark.parametrize(
    ("kernel", "chip", "shown"),
    [("6.12.0-1-arm64", RTL8125B, "off"), ("6.13.5-1-arm64", RTL8125B, "on"),
     ("7.2.0-1-arm64", RTL8168H, "on"), ("7.2.0-1-arm64", "RTL8125 2.5GbE Controller (RTL8125A)",
     "off"), ("7.2.0-1-arm64", "RTL8169 PCI Gigabit Ethernet Controller", "off")],
)  # fmt: skip
def test_r8169_sg_and_tso_by_default(tmp_path: Path, kernel: str, chip: str, shown: str) -> None:
    """rtl_init_one (7.2, since b8bf38440ba9 in 6.13): features |= hw_features (SG, TSO, TSO6)
    where mac_version >= VER_46 and != VER_61; 6.12 leaves them off on every chip."""
    state = lab_state(tmp_path, "r8169", chip, kernel)
    features = _features(state)
    assert (features["scatter-gather"], features["tx-tcp-segmentation"]) == (shown, shown)
    assert features["rx-all"] == "off"  # RXALL joins hw_features after the copy
    item = _planned("offloads-on", Nic("eth0", driver="r8169", chip=chip), "ethtool -k",
                    ethtool(state, "-k", "eth0")[0], kernel)  # fmt: skip
    sg = [c for c in item.changes if c.needed and c.target in ("eth0 -K sg", "eth0 -K tso")]
    assert bool(sg) == (shown == "off"), item.reason  # on already: nothing to turn on
