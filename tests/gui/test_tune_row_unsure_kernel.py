"""Issue 21 on the Tune page: a tweak whose driver support depends on which Raspberry Pi kernel
runs (macb's RP1 coalescing: carried from rpi-6.18.y on, unknown on older branches and without a
kernel version) is offered, and its row
says in plain words that this kernel may not support it; the kernel source it cites is in the
tooltip only."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication, QLabel

from sbctune.inventory.model import Board, Inventory, Nic
from sbctune.lab import fake_ethtool, load_profile
from sbctune.lab.ethtool_state import interface_state
from sbctune.remote import batch
from sbctune.remote.batch import StepResult
from sbctune.tuning import catalog
from sbctune.tuning.kinds import PLANNERS, Context
from sbctune.tuning.probe import Facts
from sbctune.ui.pages.tune_page import TweakRow
from sbctune.ui.theme import LIGHT
from tests.plain_words import jargon
from tests.rpi_branches import CARRYING_KERNEL, carrying

EMPTY = load_profile("cm4-rtl8125b-r8169").bundle  # a profile that captured nothing
pytestmark = pytest.mark.posix_only("the lab's fake ethtool locks its state with fcntl")


def test_the_row_says_this_kernel_may_not_support_it(
    gui_app: QApplication, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # What a Pi 5 whose kernel has gem_get_coalesce shows, as the lab's model of the Raspberry
    # Pi tree answers it on a kernel a test table says carries it (no public capture was found).
    carrying(monkeypatch)
    path = tmp_path / "state.json"
    iface = interface_state("macb", EMPTY, "eth0", "Cadence GEM in RP1", CARRYING_KERNEL)
    path.write_text(json.dumps({"schema": 1, "interfaces": {"eth0": iface}}), encoding="utf-8")
    result = fake_ethtool.run(["-c", "eth0"], str(path))
    assert result is not None and result[2] == 0
    monkeypatch.undo()
    shown_text = result[0]
    found = Facts("eth0")
    found.steps["ethtool -c"] = StepResult(
        batch.Step(("true",), "ethtool -c"), 0, shown_text.encode(), b""
    )
    nic = Nic("eth0", driver="macb", chip="Cadence GEM in RP1")
    tweak = catalog.tweak("irq-coalescing")
    inventory = Inventory(board=Board(kernel="6.12.55+rpt-rpi-2712"), nics=[nic])
    item = PLANNERS[tweak.kind](Context(tweak, found, inventory, nic, {}, {}, (tweak.id,)))
    row = TweakRow(item, True, LIGHT)
    assert row.check.isEnabled()  # offered: tried, then read back
    (shown,) = [w for w in row.findChildren(QLabel) if "may not support" in w.text()]
    assert "this Pi's kernel (6.12.55+rpt-rpi-2712) may not support interrupt coalescing" in (
        shown.text()
    )
    assert "reported as not possible" in shown.text() and not jargon(shown.text())
    assert "macb_main.c" not in shown.text() and "macb_main.c: gem_ethtool_ops" in shown.toolTip()
