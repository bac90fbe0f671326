"""A tweak's one-line summary names only what the Pi read on or was written and read back
(audit 11b, left alone: offloads-on on asix said "GRO/GSO/TSO on" while GSO and TSO stayed off,
the detail lines right). The class: every summary that names values (offloads, flow control's
directions, the governor's cores) is made from the settings it names (PlannedTweak.named),
without those the plan found impossible and, at apply, those the Pi refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from sbctune.inventory.model import Board, Inventory, Nic
from sbctune.remote.batch import Step, StepResult
from sbctune.tuning import catalog
from sbctune.tuning.changes import Written, judge, outcome
from sbctune.tuning.kinds import PLANNERS, Context
from sbctune.tuning.model import PlannedTweak
from sbctune.tuning.probe import Facts, Read
from sbctune.workflow.tuning_words import outcome_line
from tests.fake_ethtool_support import ethtool, lab_state

POSIX = pytest.mark.posix_only("the lab's fake ethtool (Linux-only lab) locks its state with fcntl")
KERNEL = "6.12.47+rpt-rpi-v8"


def _offloads(tmp_path: Path, driver: str, chip: str | None) -> PlannedTweak:
    """offloads-on planned for eth0 of `driver`, its `-k` from the lab's fake ethtool (which
    reads the driver table, resources/tuning/driver_caps.json)."""
    text = ethtool(lab_state(tmp_path, driver, chip, KERNEL), "-k", "eth0")[0]
    found = Facts("eth0")
    found.steps["ethtool -k"] = StepResult(Step(("true",), "ethtool -k"), 0, text.encode(), b"")
    nic = Nic("eth0", driver=driver, chip=chip, mtu=1500)
    tweak = catalog.tweak("offloads-on")
    inventory = Inventory(board=Board(kernel=KERNEL), nics=[nic])
    context = Context(tweak, found, inventory, nic, {}, {}, ("offloads-on",))
    return PLANNERS[tweak.kind](context)


@POSIX
def test_asix_offloads_name_only_gro_which_is_on(tmp_path: Path) -> None:
    item = _offloads(tmp_path, "asix", None)
    off = dict(item.impossible)
    assert set(off) == {"eth0 -K gso", "eth0 -K tso"}  # the detail lines, as before
    assert item.reason == "GRO on", item.reason
    shown = outcome(judge(item, []))  # nothing to write: GRO is on already
    assert (
        shown.status == "already"
        and "Generic segmentation offload (eth0 -K gso): requested on" in outcome_line(shown)
    )


@POSIX
def test_a_write_the_pi_refused_leaves_the_summary(tmp_path: Path) -> None:
    """r8169 (SG and TSO off at start): SG goes on, TSO's write is refused and reads back off."""
    item = _offloads(tmp_path, "r8169", "RTL8125B")
    assert item.reason == "GRO/GSO/TSO on"  # the plan: all three can be on
    needed = [c for c in item.changes if c.needed]
    assert [c.target for c in needed] == ["eth0 -K sg", "eth0 -K tso"]
    refused = StepResult(Step(("ethtool",), "w1"), 1, b"",
                         b"Could not change any device features\n")  # fmt: skip
    written = [Written(needed[0], 0, None, "on"), Written(needed[1], 1, refused, "off")]
    shown = outcome(judge(item, written))
    assert shown.status == "applied"
    assert shown.detail.startswith(
        "GRO/GSO on (not possible here: TCP segmentation offload (eth0 -K tso): Could not"
    ), shown.detail


def test_the_governor_says_every_core_only_when_every_policy_goes() -> None:
    found = Facts("eth0")
    base = "/sys/devices/system/cpu/cpufreq"
    # policy4's governor cannot be read (a governor not yet listed is no refusal: the write
    # loads its module, test_lab_audit16)
    unread = Read(False, f"cat: {base}/policy4/scaling_governor: Permission denied")
    for n, now in ((0, Read(True, "ondemand")), (4, unread)):
        found.knobs[f"{base}/policy{n}/scaling_governor"] = now
        found.knobs[f"{base}/policy{n}/scaling_available_governors"] = Read(True, "ondemand")
    tweak = catalog.tweak("cpu-governor-performance")
    context = Context(tweak, found, Inventory(), None, {}, {}, (tweak.id,))
    item = PLANNERS[tweak.kind](context)
    assert item.reason == "the cores of CPU frequency policy0 at their top clock (performance)"
    found.knobs[f"{base}/policy4/scaling_governor"] = Read(True, "ondemand")
    every = PLANNERS[tweak.kind](context)
    assert every.reason == "every core at its top clock (performance)"
