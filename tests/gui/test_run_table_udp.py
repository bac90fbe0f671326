"""The results table shows a run's UDP tests next to its TCP figures."""

from __future__ import annotations

import datetime as dt

from PySide6.QtWidgets import QApplication

from sbctune.history.records import RunRecord, TestRecord, UdpRecord
from sbctune.ui.widgets.run_table import RunTable


def test_udp_rows_follow_the_tcp_rows() -> None:
    run = RunRecord(
        device_id=1,
        started_at=dt.datetime.now(dt.timezone.utc),
        plan_name="quick",
        tests=[TestRecord(direction="pi_to_pc", mode="half", mean_mbps=93.0, complete=True)],
        udp=[UdpRecord("pc_to_pi", 50.0, 49.9, 0.147, 3, 10344, 0.029, 2, True)],
    )
    table = RunTable()
    table.show_run(run, "Mbit/s")
    assert table.rowCount() == 2
    cells = [table.item(1, c).text() for c in range(table.columnCount())]
    assert cells[0] == "PC → Pi" and cells[1] == "UDP at 50 Mbit/s"
    assert "49.9" in cells[2]
    assert cells[6] == "0.147 ms · 0.03 % lost (3/10344) · 2 out of order"
    assert cells[-1] == "yes"
    assert table.item(0, 6).text() == ""  # a TCP row has no UDP figures
    assert not table.isColumnHidden(6)


def test_a_run_without_udp_has_no_empty_udp_column(gui_app: QApplication) -> None:
    """Seen on the s10 walk at 800x600: after a TCP-only run the empty "UDP jitter · loss"
    column pushed the table behind a horizontal scroll bar."""
    run = RunRecord(
        device_id=1,
        started_at=dt.datetime.now(dt.timezone.utc),
        plan_name="quick",
        tests=[TestRecord(direction="pi_to_pc", mode="half", mean_mbps=736.6, complete=True)],
    )
    table = RunTable()
    table.show_run(run, "Mbit/s")
    assert table.isColumnHidden(6)
    header = table.horizontalHeaderItem(6)
    assert header is not None and header.text().replace("\n", " ") == "UDP jitter · loss"
    assert not table.isColumnHidden(7)  # "Complete" stays
