"""Audit 38a (resources/tuning/driver_caps_audit38a.md): the tweaks of one plan together, in the
order the session writes them, against what each kernel does when one setting disturbs another.

Row 1, atlantic: before 6.13 every open (after aq_set_ringparam's dev_close, an LRO/VLAN
restart, ip link set down/up) calls irq_set_affinity_hint from aq_pci_func_alloc_irq, which
sets the interrupt's affinity too, over a mask the irq-affinity tweak wrote (audit 11b row 3).
2cd78740effc ("net: atlantic: use irq_update_affinity_hint()", 6.13) sets the hint only, so from
6.13 (7.2 here) the user's mask stays: the table applied 6.12's fact to every later kernel, and
the plan told a --persist user on 7.2 that "the atlantic driver sets it back each time eth1 is
opened", which it no longer does, and moved the ring change before the masks for it.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from sbctune.inventory.model import Board, Inventory, Nic
from sbctune.remote import batch
from sbctune.remote.batch import StepResult
from sbctune.tuning import catalog, driver_caps, link_wait, persist_gaps, planning, reopen_order
from sbctune.tuning.changes import judge, outcome, run_changes
from sbctune.tuning.model import Change, PlannedTweak, TuningPlan
from sbctune.tuning.probe import Facts
from sbctune.tuning.scripts import revert_script
from tests.fake_ethtool_support import ethtool, lab_state, root

pytestmark = pytest.mark.posix_only("the lab's fake ethtool locks its state with fcntl")
SESSION = "20261201T200000Z-abcdef"

BEFORE_6_13 = ("6.1.0-31-arm64", "6.12.57+deb13-arm64")
FROM_6_13 = ("6.13.12-arm64", "7.2.0-1-arm64")


def _affinity(irq: int, before: str, after: str) -> Change:
    path = f"/proc/irq/{irq}/smp_affinity"
    return Change("irq_affinity", path, before, after, path)


# what irq-affinity and nic-rings plan, in the catalog's order (irq-affinity comes first)
AFFINITY_THEN_RINGS = [
    _affinity(60, "1", "2"),
    _affinity(61, "2", "4"),
    Change("ethtool", "eth1 -G rx", "2048", "8184"),
    Change("ethtool", "eth1 -G tx", "4096", "8184"),
]


def _persist_words(kernel: str) -> str:
    """What the plan says of irq-affinity under --persist where nothing brings eth1 up again
    (no NetworkManager, dhcpcd or ifupdown hook): persist_gaps.lost_words."""
    caps = driver_caps.caps("atlantic", kernel, "AQC107")
    facts = reopen_order.open_facts("atlantic", "eth1", kernel, "AQC107")
    return persist_gaps.lost_words(AFFINITY_THEN_RINGS[:2], caps, facts, "eth1")


@pytest.mark.parametrize("kernel", FROM_6_13)
def test_row1_from_6_13_atlantics_open_no_longer_said_to_set_the_mask_back(kernel: str) -> None:
    words = _persist_words(kernel)
    assert "sets it back each time eth1 is opened" not in words
    # what still holds: the vectors are requested only at open (aq_nic_start), so at-boot.sh,
    # run before the open, finds no interrupt of that name to set
    assert "requests its interrupts only when eth1 opens" in words


@pytest.mark.parametrize("kernel", BEFORE_6_13)
def test_row1_before_6_13_the_open_still_sets_it_back(kernel: str) -> None:
    assert "the atlantic driver sets it back each time eth1 is opened" in _persist_words(kernel)


@pytest.mark.parametrize("kernel", FROM_6_13)
def test_row1_from_6_13_the_masks_keep_their_place_before_the_ring_change(kernel: str) -> None:
    facts = reopen_order.open_facts("atlantic", "eth1", kernel, "AQC107")
    changes = AFFINITY_THEN_RINGS
    assert reopen_order.apply_order(changes, facts) == [0, 1, 2, 3]
    assert reopen_order.read_last(changes, facts) == set()


# Row 2, stmmac on 6.12 (until 6.14): __stmmac_open -> stmmac_init_phy calls phy_support_eee for
# a PHY found by address (no phy-handle), which turns EEE on again at every open: a ring change
# (stmmac_reinit_ringparam: stmmac_release, then stmmac_open) or an MTU change
# (stmmac_change_mtu) turned a user's EEE-off back on, the plan said nothing of it, and revert
# (the rings put back, another open) left it on. The same class as the coalescing an open sets
# back (reopen_order.note_resets): EEE is written off again after the restart and after undoing.
STMMAC = ("stmmac", "RK3568", "6.12.57+deb13-arm64")


def _stmmac_facts(tmp_path: Path, driver: str, chip: str, kernel: str) -> Facts:
    """What the planner reads of eth0: the lab's -g, -c and --show-eee of
    this driver on this kernel, EEE turned off before the session."""
    state = lab_state(tmp_path, driver, chip, kernel, speed=1000)
    ethtool(state, "--set-eee", "eth0", "eee", "off")
    found = Facts("eth0")
    for option in ("-g", "-c", "--show-eee"):
        text = ethtool(state, option, "eth0")[0]
        key = f"ethtool {option}"
        found.steps[key] = StepResult(batch.Step(("true",), key), 0, text.encode(), b"")
    return found


async def _plan(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tweaks: tuple[str, ...], nic: tuple[str, ...]
) -> TuningPlan:
    found = _stmmac_facts(tmp_path, *nic)

    async def probe(*_args: Any, **_kwargs: Any) -> Facts:
        return found

    monkeypatch.setattr(planning, "probe", probe)
    eth0 = Nic("eth0", driver=nic[0], chip=nic[1])
    inventory = Inventory(board=Board(kernel=nic[2]), nics=[eth0])
    consent = {"allow_link_restart": True}  # eth0 carries the SSH session: the user agreed
    return await planning.plan(None, inventory, "eth0", tweaks, consent)  # type: ignore[arg-type]


@root
async def test_row2_a_ring_change_keeps_the_users_eee_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    the_plan = await _plan(tmp_path, monkeypatch, ("nic-rings",), STMMAC)
    rings = the_plan.items[0]
    assert rings.applicable and rings.restarts_link, rings.reason
    assert ("restarting the interface turns Energy-Efficient Ethernet, off now, on again where "
            "its PHY is found by address") in rings.reason, rings.reason  # fmt: skip
    assert "stmmac_init_phy" in rings.reason
    assert Change("ethtool", "eth0 --set-eee eee", "off", "off") in the_plan.kept
    # revert.sh: the rings back (another open), then EEE off again
    changes = [c for c in rings.changes if c.needed]
    facts = reopen_order.for_plan(the_plan)
    lines = [line for line in revert_script(SESSION, changes, None, facts, the_plan.kept)
             .splitlines() if "ethtool" in line and not line.startswith("#")]  # fmt: skip
    assert "-G" in lines[0] and "--set-eee" in lines[-1] and "off" in lines[-1], lines


@root
async def test_row2_applying_writes_eee_off_after_the_restart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    the_plan = await _plan(tmp_path, monkeypatch, ("nic-rings",), STMMAC)
    session = _Recorder()
    changes = [c for c in the_plan.items[0].changes if c.needed]
    await run_changes(session, changes, f"/var/lib/sbctune/tuning/{SESSION}",
                      facts=reopen_order.for_plan(the_plan), kept=the_plan.kept)  # type: ignore[arg-type]  # fmt: skip
    argvs = [" ".join(s.argv) for s in session.steps]
    rings_at = next(i for i, a in enumerate(argvs) if " -G " in f" {a} ")
    eee_at = next(i for i, a in enumerate(argvs) if "--set-eee" in a)
    assert rings_at < eee_at and argvs[eee_at].endswith("eee off"), argvs


@root
@pytest.mark.parametrize(
    ("tweaks", "nic"),
    [
        (("nic-rings",), ("stmmac", "RK3568", "6.1.0-31-arm64")),  # no phy_support_eee at open
        (("nic-rings",), ("stmmac", "RK3568", "7.2.0-1-arm64")),  # phylink keeps it (6.14)
        (("nic-rings",), ("igb", "I350", "6.12.57+deb13-arm64")),  # igb_reset keeps the flag
        (("cpu-governor-performance",), STMMAC),  # nothing restarts the interface
    ],
)
async def test_row2_guard_nothing_written_where_eee_stays_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tweaks: tuple[str, ...],
    nic: tuple[str, str, str],
) -> None:  # fmt: skip
    the_plan = await _plan(tmp_path, monkeypatch, tweaks, nic)
    assert not any("--set-eee" in c.target for c in the_plan.kept)
    assert all("Energy-Efficient" not in i.reason for i in the_plan.items)


class _Recorder:
    """Stands for the SSH session in run_changes: records the steps, answers every one."""

    def __init__(self) -> None:
        self.steps: list[batch.Step] = []

    async def run_script(self, steps: Sequence[batch.Step], **_: Any) -> list[StepResult]:
        self.steps = list(steps)
        return [StepResult(s, 0, b"", b"") for s in steps]


# The read-back after everything: a value read back as written right after its write, then
# changed by a later write that dropped the NIC's link, was "applied" though not in force where
# the table names no reset for it (the table's `coalesce_reset_on_open` & co. cover the known
# ones, read last already). Now every value of the NIC written before the last write that drops
# its link is read again after all writes, and the verdict is what the session leaves. The Pi's
# answers below are the test's: whether a kernel undoes it is what the check is for (stmmac on
# 6.1: eee-off, then mtu-jumbo's stmmac_release/__stmmac_open reattaching the PHY through
# phy_init_hw; the PHY's soft reset decides, not the source: driver_caps_audit38a.md).
IGB = ("igb", "eth1", "6.12.57+deb13-arm64", "I350")
RPS = Change("file", "/sys/class/net/eth1/queues/rx-0/rps_cpus", "0", "f",
             "/sys/class/net/eth1/queues/rx-0/rps_cpus")  # fmt: skip
IGB_RINGS = [Change("ethtool", "eth1 -G rx", "256", "4096"),
             Change("ethtool", "eth1 -G tx", "256", "4096")]  # fmt: skip


class _Pi:
    """Answers the session's script: each write goes through, the read right after a write
    shows the value written, the read after everything shows `later` (by change target)."""

    def __init__(self, changes: Sequence[Change], later: dict[str, str]) -> None:
        self.changes, self.later = list(changes), later
        self.steps: list[batch.Step] = []

    async def run_script(self, steps: Sequence[batch.Step], **_: Any) -> list[StepResult]:
        self.steps = list(steps)
        out = []
        for step in steps:
            text = ""
            if step.key[0] in "rR":
                change = self.changes[int(step.key[1:])]
                text = change.after or ""
                if step.key[0] == "R":
                    text = self.later.get(change.target, text)
            out.append(StepResult(step, 0, f"{text}\n".encode(), b""))
        return out


async def _applied(changes: list[Change], later: dict[str, str]) -> tuple[list[Any], _Pi]:
    pi = _Pi(changes, later)
    link = link_wait.link_facts(*IGB)
    facts = reopen_order.open_facts(*IGB)
    written = await run_changes(pi, changes, f"/var/lib/sbctune/tuning/{SESSION}",  # type: ignore[arg-type]
                                facts=facts, link=link)  # fmt: skip
    return written, pi


async def test_a_value_a_later_restart_undid_is_not_called_applied() -> None:
    changes = [RPS, *IGB_RINGS]  # the catalog's order: rps-rfs, then nic-rings
    written, pi = await _applied(changes, {RPS.target: "0"})
    rps = PlannedTweak(catalog.tweak("rps-rfs"), True, "receive work of eth1 on CPUs 0-3", [RPS])
    result = outcome(judge(rps, written[:1]))
    assert result.status == "failed", result
    words = ("it read back as written, but after the ring change dropped the link of eth1 it "
             "shows '0', so it is not in force")  # fmt: skip
    assert words in result.detail, result.detail
    assert [s.key for s in pi.steps][-1] == "R0"  # read again after every write


async def test_values_still_in_force_after_the_restart_stay_applied() -> None:
    written, _pi = await _applied([RPS, *IGB_RINGS], {})
    rps = PlannedTweak(catalog.tweak("rps-rfs"), True, "receive work of eth1 on CPUs 0-3", [RPS])
    assert outcome(judge(rps, written[:1])).status == "applied"
    # nothing is read again where no write after it drops the link
    _written, alone = await _applied([*IGB_RINGS, RPS], {RPS.target: "0"})
    assert not [s for s in alone.steps if s.key.startswith("R")]
