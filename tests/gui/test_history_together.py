"""History's comparison of NICs measured at once gives each direction's total over the time
every NIC ran, with the note the command line prints under its Total row."""

from __future__ import annotations

import datetime as dt

from sbctune.history.records import RunRecord, TestRecord, TogetherRecord
from sbctune.ui.main_window import MainWindow
from tests.gui.history_support import compare_every_run, history_page

NOTE = (
    "PC → Pi: together for 2.0 s of 3.0 s: eth2 started 1.0 s late; the total counts only "
    "that time."
)


def _run(device_id: int, nic: str, own: float, together: float) -> RunRecord:
    start = dt.datetime(2026, 11, 30, 10, 0, tzinfo=dt.timezone.utc)
    kept = TogetherRecord(together, 2.0, 3.0, NOTE)
    test = TestRecord("pc_to_pi", "half", mean_mbps=own, together=kept)
    return RunRecord(
        device_id=device_id, started_at=start, finished_at=start + dt.timedelta(seconds=20),
        plan_name="quick", nic=nic, endpoint_kind="builtin", complete=True, tests=[test],
        aggregate_id="g1",
    )  # fmt: skip


def test_the_comparison_gives_the_total_of_nics_measured_together(window: MainWindow) -> None:
    device = window.history.add_device("198.18.0.2", 22, "pi")
    assert device.id is not None
    runs = [_run(device.id, "eth1", 646.7, 500.0), _run(device.id, "eth2", 646.7, 500.0)]
    for run in runs:
        window.history.save_run(run)
    page = history_page(window)
    compare_every_run(page)
    text = page.together.text()
    assert "eth1 500 + eth2 500 = 1000 Mbit/s over the 2.0 s of 3.0 s all NICs ran" in text
    assert NOTE in text and "1293" not in text
    assert not page.together.isHidden() and not page.together_title.isHidden()
