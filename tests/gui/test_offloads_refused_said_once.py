"""A tweak whose every part the driver refuses says each refused part once (walk 18 on the
pi1b-smsc95xx lab: the offloads row read "the driver offers none of these offloads; eth0 -K gso:
requested on, but the kernel keeps it off; eth0 -K tso: fixed off by the driver" and then the
same two parts again under "Not possible here"; `tune plan` printed them twice as well). The
`ethtool -k` answer is the lab's smsc95xx model (driver_caps.json, from the kernel source)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication, QLabel

from sbctune.cli.tune_plan_text import plan_lines
from sbctune.inventory.model import Board, Inventory, Nic
from sbctune.remote import batch
from sbctune.remote.batch import StepResult
from sbctune.tuning import catalog
from sbctune.tuning.kinds import PLANNERS, Context
from sbctune.tuning.model import PlannedTweak, TuningPlan
from sbctune.tuning.probe import Facts
from sbctune.ui.theme import LIGHT
from sbctune.ui.widgets.tweak_row import TweakRow
from tests.fake_ethtool_support import ethtool, lab_state

pytestmark = pytest.mark.posix_only("the lab's fake ethtool locks its state with fcntl")


def planned(tweak_id: str, nic: Nic, stdout: str, key: str) -> PlannedTweak:
    found = Facts(nic.name)
    found.steps[key] = StepResult(batch.Step(("true",), key), 0, stdout.encode(), b"")
    tweak = catalog.tweak(tweak_id)
    inventory = Inventory(board=Board(kernel="6.1.0-31-arm64"), nics=[nic])
    return PLANNERS[tweak.kind](Context(tweak, found, inventory, nic, {}, {}, (tweak_id,)))


def test_each_refused_offload_is_said_once(tmp_path: Path, gui_app: QApplication) -> None:
    text = ethtool(lab_state(tmp_path, "smsc95xx", ""), "-k", "eth0")[0]
    item = planned("offloads-on", Nic("eth0", driver="smsc95xx", bus="usb"), text, "ethtool -k")
    assert not item.applicable and len(item.impossible) == 2, (item.reason, item.impossible)
    row = TweakRow(item, False, LIGHT)
    row.show()
    shown = "\n".join(w.text() for w in row.findChildren(QLabel) if w.isVisibleTo(row))
    row.close()
    cli = "\n".join(plan_lines(TuningPlan(nic="eth0", items=[item])))
    for words in (shown, cli):
        assert "the driver offers none of these offloads" in words
        assert words.count("requested on, but the kernel keeps it off") == 1, words
        assert words.count("fixed off by the driver") == 1, words
