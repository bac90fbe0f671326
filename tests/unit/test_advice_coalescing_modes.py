"""igb/igc coalescing: rx-usecs 1 and 3 are mode codes (3, dynamic conservative ITR, the
default), so the planner never sets a fixed interval and leaves the default as it is; it is
refused only from the Pi's read-back, so Results could still recommend "Interrupt coalescing"
for igb as if it would take fewer interrupts. The recommendation now says what Tune does there
(source_rule.read_back_decides, applied in advice.reach)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sbctune.advice.knowledge import load_knowledge
from sbctune.advice.measured_base import Measured, NicAdvisorBase, label
from sbctune.advice.reach import within_reach
from sbctune.advice.runs import NicRuns
from sbctune.catalog import load_catalog
from sbctune.inventory.model import Board, Inventory, Nic
from sbctune.remote.batch import Step, StepResult
from sbctune.tuning import catalog
from sbctune.tuning.kinds import PLANNERS, Context
from sbctune.tuning.probe import Facts
from tests.fake_ethtool_support import ethtool, lab_state

POSIX = pytest.mark.posix_only("the lab's fake ethtool (Linux-only lab) locks its state with fcntl")


def _coalescing_advice(driver: str) -> list[str]:
    """The details of the cpu-bound recommendations naming irq-coalescing for `driver`'s NIC,
    as Results shows them (after advice.reach)."""
    nic = Nic(name="eth1", driver=driver, bus="pci", link_speed_mbps=1000, irqs=[46])
    inventory = Inventory(board=Board(model="Raspberry Pi Compute Module 4 Rev 1.0",
                                      cpu_cores=4), nics=[nic])  # fmt: skip
    out = Measured()
    advisor = NicAdvisorBase(inventory, nic, NicRuns(label(nic)), load_catalog(),
                             load_knowledge(), out)  # fmt: skip
    advisor.tweaks("cpu-bound", [])
    recs = within_reach(within_reach(out.recommendations, inventory), inventory)  # idempotent
    return [r.detail for r in recs if "irq-coalescing" in r.tweak_ids]


@pytest.mark.parametrize("driver", ["igb", "igc"])
def test_intel_coalescing_advice_says_tune_keeps_the_default_mode(driver: str) -> None:
    (detail,) = _coalescing_advice(driver)
    assert f"On {driver} the tuning sets no fixed interval" in detail, detail
    assert "rx-usecs 3, the driver's default, is its adaptive interrupt moderation" in detail
    assert detail.count("sets no fixed interval") == 1
    assert "set_coalesce" in detail  # igb_set_coalesce / igc_ethtool_set_coalesce


def test_a_driver_that_takes_an_interval_is_not_told_so() -> None:
    (detail,) = _coalescing_advice("bcmgenet")
    assert "fixed interval" not in detail


@POSIX
def test_the_plan_does_what_the_advice_says(tmp_path: Path) -> None:
    """The lab's igb (its -c from resources/tuning/driver_caps.json) at rx-usecs 3."""
    text = ethtool(lab_state(tmp_path, "igb", "82580", "6.12.47+rpt-rpi-v8"), "-c", "eth0")[0]
    assert "rx-usecs:\t3" in text or "rx-usecs: 3" in text.replace("\t", " "), text
    found = Facts("eth0")
    found.steps["ethtool -c"] = StepResult(Step(("true",), "ethtool -c"), 0, text.encode(), b"")
    nic = Nic("eth0", driver="igb", chip="82580")
    tweak = catalog.tweak("irq-coalescing")
    inventory = Inventory(board=Board(kernel="6.12.47+rpt-rpi-v8"), nics=[nic])
    item = PLANNERS[tweak.kind](Context(tweak, found, inventory, nic, {}, {}, (tweak.id,)))
    assert not item.applicable and not item.changes
    assert "rx-usecs 3 is igb's adaptive interrupt moderation" in item.reason, item.reason
