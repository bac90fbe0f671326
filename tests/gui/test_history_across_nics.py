"""Walk 22: History's comparison of the runs of NICs measured together (`measure --all-nics`
on the lab cm4-i340-igb: eth0 767.5, eth1 768.5, eth2 770.0, eth3 767.0 Mbit/s Pi → PC) gave
"Change (last vs first)" from eth0 to eth3, a difference between ports that reads as what
tuning did, squeezed at 800 × 600 into "+0.5 … s". Runs of several NICs are named with their
NIC and compared without a change, and the page says why; runs of one NIC keep the change."""

from __future__ import annotations

import datetime as dt

from PySide6.QtCore import Qt

from sbctune.history.records import RunRecord, TestRecord
from sbctune.ui.main_window import MainWindow
from sbctune.ui.pages.history_page import HistoryPage

FIGURES = {"eth0": 767.5, "eth1": 768.5, "eth2": 770.0, "eth3": 767.0}


def _run(device_id: int, nic: str, mbps: float, minute: int, group: str | None) -> RunRecord:
    start = dt.datetime(2026, 11, 30, 12, minute, tzinfo=dt.timezone.utc)
    return RunRecord(
        device_id=device_id, started_at=start, finished_at=start + dt.timedelta(seconds=8),
        plan_name="quick", nic=nic, endpoint_kind="builtin", complete=True,
        tests=[TestRecord("pi_to_pc", "half", mean_mbps=mbps, complete=True)],
        aggregate_id=group,
    )  # fmt: skip


def _compare(window: MainWindow, ids: list[int]) -> HistoryPage:
    window.go("history")
    page = window.page("history")
    assert isinstance(page, HistoryPage)
    for row, run in enumerate(page.runs):
        item = page.table.item(row, 0)
        assert item is not None
        on = run.id in ids
        item.setCheckState(Qt.CheckState.Checked if on else Qt.CheckState.Unchecked)
    page.compare_button.click()
    return page


def _headers(page: HistoryPage) -> list[str]:
    table = page.compare_table
    return [table.horizontalHeaderItem(c).text() for c in range(table.columnCount())]  # type: ignore[union-attr]


def test_runs_of_nics_measured_together_are_compared_without_a_change(
    window: MainWindow,
) -> None:
    device = window.history.add_device("198.18.4.2", 22, "pi")
    assert device.id is not None
    ids = [window.history.save_run(_run(device.id, nic, mbps, 46, "agg"))
           for nic, mbps in FIGURES.items()]  # fmt: skip
    page = _compare(window, ids)
    headers = _headers(page)
    assert "Change (last vs first)" not in headers
    assert [h for h in headers if h.startswith("#")] == [
        f"#{i} {nic}" for i, nic in zip(ids, FIGURES, strict=True)
    ]
    assert not page.across.isHidden()
    assert "These runs measured different NICs (eth0, eth1, eth2, eth3)" in page.across.text()
    assert "no change between them" in page.across.text()


def test_runs_of_one_nic_keep_the_change(window: MainWindow) -> None:
    device = window.history.add_device("198.18.4.2", 22, "pi")
    assert device.id is not None
    ids = [window.history.save_run(_run(device.id, "eth0", mbps, m, None))
           for m, mbps in ((34, 925.0), (46, 767.5))]  # fmt: skip
    page = _compare(window, ids)
    assert "Change (last vs first)" in _headers(page)
    assert page.across.isHidden()


def test_the_list_says_which_runs_were_measured_at_once(window: MainWindow) -> None:
    device = window.history.add_device("198.18.4.2", 22, "pi")
    assert device.id is not None
    for nic, mbps in FIGURES.items():
        window.history.save_run(_run(device.id, nic, mbps, 46, "agg"))
    window.history.save_run(_run(device.id, "eth0", 925.0, 50, None))
    window.go("history")
    page = window.page("history")
    assert isinstance(page, HistoryPage)
    cells = {}
    for row, run in enumerate(page.runs):
        item = page.table.item(row, 3)  # the NIC column
        assert item is not None
        cells[run.id] = " ".join(item.text().split())
    assert sorted(cells.values()) == ["eth0", "eth0 4 NICs at once", "eth1 4 NICs at once",
                                      "eth2 4 NICs at once", "eth3 4 NICs at once"]  # fmt: skip
