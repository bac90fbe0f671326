"""Found walking the app at 800×600 with the UDP test on: the Before column took the UDP
figures' one-line width ("50.0 Mbit/s, jitter 0.001 ms, loss 0.00 %") and pushed After and the
change off to the right, behind a scroll bar. Narrow, the figures wrap and every column shows;
wide, nothing wraps that need not."""

from __future__ import annotations

import datetime as dt

import pytest
from PySide6.QtWidgets import QApplication, QVBoxLayout, QWidget

from sbctune.history.records import RunRecord, TestRecord, UdpRecord
from sbctune.ui.controllers.results import latency_rows, result_rows, udp_rows
from sbctune.ui.widgets.run_table import CompareTable


def _run(run_id: int, mbps: float) -> RunRecord:
    return RunRecord(
        device_id=1, started_at=dt.datetime.now(dt.timezone.utc), plan_name="quick", id=run_id,
        tests=[TestRecord(direction="pi_to_pc", mode="half", mean_mbps=mbps, complete=True),
               TestRecord(direction="pc_to_pi", mode="half", mean_mbps=948.0, complete=True)],
        udp=[UdpRecord("pi_to_pc", 50.0, 50.0, 0.001, 0, 10344, 0.0, 0, True),
             UdpRecord("pc_to_pi", 50.0, 49.9, 0.009, 12, 10344, 0.12, 2, True)],
    )  # fmt: skip


@pytest.mark.parametrize("width", [540, 1000])
def test_every_column_shows_without_scrolling(gui_app: QApplication, width: int) -> None:
    holder = QWidget()
    table = CompareTable()
    QVBoxLayout(holder).addWidget(table)
    holder.resize(width, 400)
    holder.show()
    runs = [_run(1, 739.1), _run(2, 830.0)]
    table.show_rows(["Before", "After"], result_rows(runs, None), "Mbit/s", latency_rows(runs),
                    udp_rows(runs))  # fmt: skip
    gui_app.processEvents()
    header = table.horizontalHeader()
    assert header.length() <= table.viewport().width(), (header.length(), width)
    assert not table.horizontalScrollBar().isVisible()
    after = header.sectionPosition(3) + header.sectionSize(3)
    assert after < table.viewport().width() - 100  # room left for the change
    udp_text = table.item(table.rowCount() - 1, 2).text()
    one_line = table.fontMetrics().horizontalAdvance(udp_text)
    wrapped = header.sectionSize(2) < one_line
    assert wrapped == (width < 800), (width, header.sectionSize(2), one_line)
    holder.close()


def test_three_runs_at_1000_px_share_the_width_with_the_change(gui_app: QApplication) -> None:
    """Walk 26: three runs with UDP at 1000 px (the app opens at 1100): each run's UDP figures
    were cut to a rate's width and wrapped onto four lines, a lone "%" on the last, beside a
    change column 500 px wide and half empty. The figures now give way only as far as the
    change needs: no row is taller than two lines, and the change's header is whole."""
    holder = QWidget()
    table = CompareTable()
    QVBoxLayout(holder).addWidget(table)
    holder.resize(1000, 500)
    holder.show()
    runs = [_run(1, 739.1), _run(2, 769.1), _run(3, 799.1)]
    table.show_rows(["#1", "#2", "#3"], result_rows(runs, None), "Mbit/s", latency_rows(runs),
                    udp_rows(runs))  # fmt: skip
    gui_app.processEvents()
    header = table.horizontalHeader()
    assert not table.horizontalScrollBar().isVisible()
    line = table.fontMetrics().lineSpacing()
    tallest = max(table.rowHeight(r) for r in range(table.rowCount()))
    assert tallest < 3 * line, (tallest, line)
    last = table.columnCount() - 1
    assert header.sectionSize(last) >= header.sectionSizeHint(last)  # "Change (last vs first)"
    holder.close()
