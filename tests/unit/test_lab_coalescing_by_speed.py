"""Coalescing that depends on the link's speed, in the lab as in the kernel's source, for the
profile's link speed (the one the lab's sysfs shows), and the planner reading the lab's answers
(driver_caps_audit2.md rows 2 and 6).

r8169 (RTL8168/8111/8101): rtl_set_coalesce / rtl_coalesce_choose_scale / rtl_get_coalesce.
atlantic: hw_atl_b0_hw_interrupt_moderation_set (AUTO mode's speed table), aq_ethtool_get_coalesce.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from sbctune.inventory.model import Board, Inventory, Nic
from sbctune.lab import load_profile
from sbctune.lab.ethtool_state import build_state
from sbctune.remote import batch
from sbctune.remote.batch import StepResult
from sbctune.tuning import catalog
from sbctune.tuning.kinds import PLANNERS, Context
from sbctune.tuning.model import PlannedTweak
from sbctune.tuning.probe import Facts
from tests.fake_ethtool_support import ethtool, lab_state, root

pytestmark = pytest.mark.posix_only("the lab's fake ethtool locks its state with fcntl")

NOT_SUPPORTED = "netlink error: Operation not supported"
INVALID = "netlink error: Invalid argument"
OUT_OF_RANGE = "netlink error: Numerical result out of range"
NO_ROW = "netlink error: Link number out of range"


def lab(tmp_path: Path, driver: str, chip: str, speed: float | None) -> str:
    return lab_state(tmp_path, driver, chip, speed=speed)


def shown(state: str) -> dict[str, str]:
    out, err, code = ethtool(state, "-c", "eth0")
    assert code == 0, err
    return dict(line.split(": ", 1) for line in out.splitlines() if "-" in line and ": " in line)


def planned(driver: str, chip: str, speed: int | None, text: str) -> PlannedTweak:
    found = Facts("eth0")
    step = batch.Step(("true",), "ethtool -c")
    found.steps["ethtool -c"] = StepResult(step, 0, text.encode(), b"")
    nic = Nic("eth0", driver=driver, chip=chip, link_speed_mbps=speed)
    tweak = catalog.tweak("irq-coalescing")
    inventory = Inventory(board=Board(kernel="6.1.0"), nics=[nic])
    return PLANNERS[tweak.kind](Context(tweak, found, inventory, nic, {}, {}, ("irq-coalescing",)))


def test_r8169_shows_coalescing_off_as_the_kernel_does(tmp_path: Path) -> None:
    """rtl_hw_start_8168 writes IntrMitigate 0; rtl_get_coalesce shows usecs 0 and frames 1."""
    values = shown(lab(tmp_path, "r8169", "RTL8111H", 1000))
    got = tuple(values[n] for n in ("rx-usecs", "rx-frames", "tx-usecs", "tx-frames"))
    assert got == ("0", "1", "0", "1")


@root
@pytest.mark.parametrize(("speed", "reads"), [(1000, "50"), (None, "50"), (100, "62"), (10, "82")])
def test_r8169_rx_usecs_reads_back_in_units_of_the_links_scale(
    tmp_path: Path, speed: int | None, reads: str
) -> None:
    """50 us: 10 units of 5 us at 1 Gbit/s (and at an unknown speed, which rtl_coalesce_info
    takes as its first row); 3 units of 20.48 us at 100 Mbit/s (61.44, rounded up: 62);
    2 units of 40.96 us at 10 Mbit/s (82)."""
    state = lab(tmp_path, "r8169", "RTL8111H", speed)
    assert ethtool(state, "-C", "eth0", "rx-usecs", "50")[2] == 0
    assert shown(state)["rx-usecs"] == reads
    assert shown(state)["rx-frames"] == "0"  # usecs set: frames read back as stored (0 * 4)


@root
def test_r8169_stores_every_value_again_with_the_scale_the_larger_one_picks(
    tmp_path: Path,
) -> None:
    """At 100 Mbit/s tx-usecs 8 is 4 units of 2.56 us (reads 11); a later rx-usecs 30 hands
    the 11 back, stored as 5 units (reads 13); rx-usecs 100 moves both to the 20.48 us
    scale (tx 13 -> 1 unit, reads 21)."""
    state = lab(tmp_path, "r8169", "RTL8111H", 100)
    assert ethtool(state, "-C", "eth0", "tx-usecs", "8")[2] == 0
    assert shown(state)["tx-usecs"] == "11"
    assert ethtool(state, "-C", "eth0", "rx-usecs", "30")[2] == 0
    assert (shown(state)["rx-usecs"], shown(state)["tx-usecs"]) == ("31", "13")
    assert ethtool(state, "-C", "eth0", "rx-usecs", "100")[2] == 0
    assert (shown(state)["rx-usecs"], shown(state)["tx-usecs"]) == ("103", "21")


@root
def test_r8169_frame_and_range_refusals(tmp_path: Path) -> None:
    """Frames over 60 ERANGE (first); frames without usecs EINVAL; frames kept in fours; usecs
    over 15 units of the largest scale (1 Gbit/s: 2400) ERANGE; a set that changes nothing
    does not reach the driver."""
    state = lab(tmp_path, "r8169", "RTL8111H", 1000)
    assert ethtool(state, "-C", "eth0", "rx-frames", "61")[1] == [OUT_OF_RANGE]
    assert ethtool(state, "-C", "eth0", "rx-frames", "8")[1] == [INVALID]
    assert ethtool(state, "-C", "eth0", "rx-usecs", "2401")[1] == [OUT_OF_RANGE]
    assert ethtool(state, "-C", "eth0", "rx-usecs", "2400", "rx-frames", "7")[2] == 0
    assert (shown(state)["rx-usecs"], shown(state)["rx-frames"]) == ("2400", "8")
    assert ethtool(state, "-C", "eth0", "rx-frames", "8")[2] == 0  # unchanged: not sent


def test_r8169_at_a_speed_without_a_scale_answers_as_the_kernel(tmp_path: Path) -> None:
    """rtl_coalesce_info: a speed with no row (an RTL8111 never links at 2.5 Gbit/s; the
    RTL8125 refuses coalescing before that) is ELNRNG, for -c as for -C."""
    state = lab(tmp_path, "r8169", "RTL8111H", 2500)
    assert ethtool(state, "-c", "eth0")[1] == [NO_ROW]
    assert ethtool(lab(tmp_path, "r8169", "RTL8125B", 2500), "-c", "eth0")[1] == [NOT_SUPPORTED]


@root
@pytest.mark.parametrize("speed", [1000, 100])
def test_the_planner_and_the_lab_agree_on_r8169_at_the_links_speed(
    tmp_path: Path, speed: int
) -> None:
    """At 1 Gbit/s the planner writes 50 and the lab reads back 50 (the change verifies); at
    100 Mbit/s no value near 50 reads back as written, so it plans nothing."""
    state = lab(tmp_path, "r8169", "RTL8111H", speed)
    item = planned("r8169", "RTL8111H", speed, ethtool(state, "-c", "eth0")[0])
    if speed == 100:
        assert not item.applicable and "read back 62" in item.reason
        return
    change = next(c for c in item.changes if c.target.endswith("rx-usecs"))
    assert item.applicable and change.after == "50"
    assert ethtool(state, "-C", "eth0", "rx-usecs", change.after)[2] == 0
    assert shown(state)["rx-usecs"] == change.after


AQ_ROWS = [(100, "160", "1022"), (1000, "256", "1022"), (2500, "448", "1022"),
           (5000, "224", "1022"), (10000, "112", "510"), (10, "112", "510"),
           (None, "256", "1022")]  # fmt: skip


@pytest.mark.parametrize(("speed", "rx", "tx"), AQ_ROWS)
def test_atlantic_auto_moderation_defaults_follow_the_link_speed(
    tmp_path: Path, speed: int | None, rx: str, tx: str
) -> None:
    """hw_atl_b0/hw_atl2_hw_interrupt_moderation_set: the speed table's maxima times 2; a speed
    hw_atl_utils_mbps_2_speed_index does not know is the 10G row; frames 0. With no speed in
    the profile the lab keeps the 1 Gbit/s row."""
    values = shown(lab(tmp_path, "atlantic", "AQC107", speed))
    assert (values["rx-usecs"], values["tx-usecs"]) == (rx, tx)
    assert (values["rx-frames"], values["tx-frames"]) == ("0", "0")


def test_the_lab_takes_the_link_speed_from_the_profile() -> None:
    """build_state hands each interface the speed the lab's sysfs shows: the profile's
    link_speed_mbps (an RTL8111 at 100 Mbit/s gets the 100 Mbit/s scale), else veth's 10000,
    where r8169 has no scale (ELNRNG, as the planner says "no coalescing at 10000")."""
    profile = load_profile("cm4-rtl8125b-r8169")
    nic = profile.interfaces[0]
    slow = dataclasses.replace(
        nic, chip="RTL8111H", link=dataclasses.replace(nic.link, link_speed_mbps=100)
    )
    state = build_state(dataclasses.replace(profile, interfaces=(slow, *profile.interfaces[1:])))
    assert state["interfaces"][nic.name]["coalesce"]["scale"]["row"][0] == 2560
    unsaid = dataclasses.replace(slow, link=dataclasses.replace(nic.link, link_speed_mbps=None))
    state = build_state(dataclasses.replace(profile, interfaces=(unsaid, *profile.interfaces[1:])))
    assert state["interfaces"][nic.name]["coalesce"]["scale"]["row"] is None


@root
@pytest.mark.parametrize("chip", ["RTL-8110SC/8169SC Gigabit Ethernet", "RTL8169 PCI Gigabit"])
def test_the_pci_rtl8169_has_its_own_finer_scale(tmp_path: Path, chip: str) -> None:
    """rtl_coalesce_info: mac_version up to RTL_GIGA_MAC_VER_06 (the PCI RTL8169/8110 family)
    uses rtl_coalesce_info_8169, 0.32/2.56/5.12/10.24 us at 1 Gbit/s: 50 is 10 units of
    5.12 us and reads back 52; no value near 50 reads back as written, so the planner plans
    nothing. An RTL8111/8168 (the PCIe chips) keeps the 5 us row."""
    state = lab(tmp_path, "r8169", chip, 1000)
    item = planned("r8169", chip, 1000, ethtool(state, "-c", "eth0")[0])
    assert not item.applicable and "read back 52" in item.reason
    assert ethtool(state, "-C", "eth0", "rx-usecs", "50")[2] == 0
    assert shown(state)["rx-usecs"] == "52"
    (tmp_path / "pcie").mkdir()
    pcie = lab(tmp_path / "pcie", "r8169", "RTL8111/8168/8411 PCI Express Gigabit", 1000)
    assert ethtool(pcie, "-C", "eth0", "rx-usecs", "50")[2] == 0
    assert shown(pcie)["rx-usecs"] == "50"


@root
def test_atlantic_reads_frames_back_as_0_and_then_refuses_a_one_parameter_set(
    tmp_path: Path,
) -> None:
    """aq_ethtool_set_coalesce always sets the ON mode, where aq_ethtool_get_coalesce shows
    frames 0: after rx-usecs 0 rx-frames 1 the RX pair reads 0/0, which the next -C hands back
    (EOPNOTSUPP) unless it sets rx-usecs itself, as the planner's command does."""
    state = lab(tmp_path, "atlantic", "AQC107", 1000)
    assert ethtool(state, "-C", "eth0", "rx-usecs", "0", "rx-frames", "1")[2] == 0
    assert (shown(state)["rx-usecs"], shown(state)["rx-frames"]) == ("0", "0")
    assert ethtool(state, "-C", "eth0", "tx-usecs", "100")[1] == [NOT_SUPPORTED]
    item = planned("atlantic", "AQC107", 1000, ethtool(state, "-c", "eth0")[0])
    change = next(c for c in item.changes if c.target.endswith("rx-usecs"))
    assert item.applicable and (change.before, change.after) == ("0", "50")
    assert ethtool(state, "-C", "eth0", "rx-usecs", change.after)[2] == 0
    assert (shown(state)["rx-usecs"], shown(state)["rx-frames"]) == ("50", "0")
