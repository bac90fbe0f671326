"""History: past runs of every device; pick several to compare them side by side."""

from __future__ import annotations

from collections import Counter

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
)

from sbctune.ui.controllers.measurement import plan_title
from sbctune.ui.controllers.records import DIRECTION_LABEL, RecordsController, RunRecord
from sbctune.ui.controllers.results import (
    across_nics,
    across_nics_words,
    latency_rows,
    result_rows,
    run_label,
    together_lines,
    udp_rows,
)
from sbctune.ui.mode_words import mode_words
from sbctune.ui.pages.base import Page
from sbctune.ui.settings import AppSettings
from sbctune.ui.theme import Colors
from sbctune.ui.units import keep_together, rate
from sbctune.ui.widgets.common import Card, label, narrow_combo
from sbctune.ui.widgets.lazy import compare_chart
from sbctune.ui.widgets.run_table import CompareTable
from sbctune.workflow.baseline_check import in_force_full, in_force_mark, in_force_short

PLAN_COLUMN = 4


def _at_once(count: int) -> str:
    """The NIC cell's second line for a run of NICs measured at once ("4 NICs at once")."""
    return f"\n{count} NICs at once" if count > 1 else ""


class HistoryPage(Page):
    title = "History"
    intro = "Every measurement, newest first. Tick two or more to compare them."

    def __init__(self, records: RecordsController, settings: AppSettings, colors: Colors) -> None:
        super().__init__()
        self._records = records
        self._settings = settings
        top = QHBoxLayout()
        self.device = narrow_combo(QComboBox())
        self.device.setAccessibleName("Device")
        self.device.currentIndexChanged.connect(lambda _i: self._load_runs())
        top.addWidget(label("Device:", wrap=False))
        top.addWidget(self.device, 1)
        self.content.addLayout(top)
        # An empty grid says nothing to a first-time user: say why it is empty.
        self.empty = label("", name="muted")
        self.content.addWidget(self.empty)
        self.table = QTableWidget(0, 6)
        self.table.setAccessibleName("Runs of the chosen device")
        self.table.setHorizontalHeaderLabels(["", "Run", "When", "NIC", "Plan", "Mean figures"])
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(False)
        # The plan with the tweaks in force can be long: it takes the width the others leave and
        # wraps there; the figures keep their lines whole, one per test (walk 15 at 800 x 600:
        # the figures were cut behind a scroll bar, "PC → Pi one …", in a table 3 rows high).
        header.setSectionResizeMode(PLAN_COLUMN, QHeaderView.ResizeMode.Stretch)
        # Its room kept: a scroll bar appearing once the rows are sized would narrow the plan
        # column under rows already sized (seen at 150 %: "with flow steering …" cut).
        self.table.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        self.table.setWordWrap(True)
        # A narrower window (a scroll bar appears) wraps the cells onto more lines.
        self.table.horizontalHeader().sectionResized.connect(
            lambda *_: self.table.resizeRowsToContents()
        )
        self.table.setMinimumHeight(200)
        self.table.itemChanged.connect(lambda _item: self._update_button())
        self.content.addWidget(self.table, 1)  # the runs take the page's height
        row = QHBoxLayout()
        self.compare_button = QPushButton("&Compare selected")
        self.compare_button.clicked.connect(self.compare)
        self.delete_button = QPushButton("&Delete selected")
        self.delete_button.clicked.connect(self._delete)
        row.addWidget(self.compare_button)
        row.addWidget(self.delete_button)
        row.addStretch(1)
        self.content.addLayout(row)
        self.compare_card = Card("Comparison")
        self.compare_table = CompareTable()
        self.compare_table.setAccessibleName("Comparison of the chosen runs")
        self.chart = compare_chart(colors)
        # What the Pi ran under differs between runs: say it next to the figures.
        self.changes = label("", selectable=True)
        self.changes.setAccessibleName("What changed on the Pi between the chosen runs")
        # Which tweaks each run ran under, as read back (the per-tweak runs of "Find what
        # helps" were all "tuned" before: walk 14, problem 7).
        self.in_force = label("", selectable=True)
        self.in_force.setAccessibleName("The tuning each chosen run ran under")
        # NICs measured at once: each direction's total over the time every NIC ran, with
        # the note the command line prints under its Total row (sbctune.measure.together).
        self.together_title = label("NICs measured together", name="cardTitle")
        self.together = label("", selectable=True)
        self.together.setAccessibleName("The chosen NICs' total over the time all of them ran")
        # Runs of several NICs: said above the figures, which then carry no change (walk 22)
        self.across = label("", wrap=True)
        self.across.setAccessibleName("Why the comparison gives no change")
        self.across.hide()
        self.compare_card.body.addWidget(self.across)
        self.compare_card.body.addWidget(self.compare_table)
        self.compare_card.body.addWidget(self.compare_table.change_below)
        self.compare_card.body.addWidget(self.together_title)
        self.compare_card.body.addWidget(self.together)
        self.compare_card.body.addWidget(label("The tuning each run ran under", name="cardTitle"))
        self.compare_card.body.addWidget(self.in_force)
        self.compare_card.body.addWidget(self.chart)
        self.compare_card.body.addWidget(label("What changed on the Pi", name="cardTitle"))
        self.compare_card.body.addWidget(self.changes)
        self.compare_card.hide()
        self.content.addWidget(self.compare_card)
        self.runs: list[RunRecord] = []

    def shown(self) -> None:
        current = self.device.currentData()
        self.device.blockSignals(True)
        self.device.clear()
        for device in self._records.devices():
            self.device.addItem(
                f"{device.name or device.host} ({device.user}@{device.host})", device.id
            )
        index = self.device.findData(current)
        self.device.setCurrentIndex(max(0, index))
        self.device.blockSignals(False)
        self._load_runs()

    def _load_runs(self) -> None:
        device_id = self.device.currentData()
        self.runs = self._records.runs_for_device(device_id) if isinstance(device_id, int) else []
        self.table.blockSignals(True)
        self.table.setRowCount(len(self.runs))
        units = self._settings.units
        # NICs measured at once are one measurement: each of their rows says so (walk 22: the
        # four runs of --all-nics read as four separate tests of one NIC after another)
        at_once = Counter(run.aggregate_id for run in self.runs if run.aggregate_id)
        for r, run in enumerate(self.runs):
            check = QTableWidgetItem()
            check.setFlags(Qt.ItemFlag.ItemIsUserCheckable | Qt.ItemFlag.ItemIsEnabled)
            check.setCheckState(Qt.CheckState.Unchecked)
            figures = "\n".join(
                # "one way", not the database's "half" (seen on the walk of session 10)
                f"{DIRECTION_LABEL[t.direction]} {mode_words(t.mode).lower()} "
                f"{rate(t.mean_mbps, units)}"
                for t in run.tests
            )
            plan, full = _plan_cell(run)
            cells = [
                f"#{run.id}",
                run.started_at.astimezone().strftime("%Y-%m-%d %H:%M"),
                (run.nic or "–") + _at_once(at_once[run.aggregate_id or ""]),
                plan,
                figures,
            ]
            self.table.setItem(r, 0, check)
            for c, text in enumerate(cells, start=1):
                item = QTableWidgetItem(keep_together(text))
                # a narrow window wraps or cuts the figures; the plan's tweaks are listed here
                item.setToolTip(full if c == PLAN_COLUMN else text)
                self.table.setItem(r, c, item)
        self.table.resizeRowsToContents()
        self.table.blockSignals(False)
        QTimer.singleShot(0, self.table.resizeRowsToContents)  # at the width it is laid out at
        self.empty.setText(
            ""
            if self.runs
            else "No measurements of this Pi yet: each Baseline or Measure again adds one here."
            if self.device.count()
            else "No measurements yet: connect to a Pi and measure a Baseline; it shows here."
        )
        self.empty.setVisible(not self.runs)
        self._update_button()

    def checked(self) -> list[RunRecord]:
        return [
            run
            for r, run in enumerate(self.runs)
            if (item := self.table.item(r, 0)) is not None
            and item.checkState() == Qt.CheckState.Checked
        ]

    def set_checked(self, run_ids: list[int]) -> None:
        for r, run in enumerate(self.runs):
            item = self.table.item(r, 0)
            if item is not None:
                on = run.id in run_ids
                item.setCheckState(Qt.CheckState.Checked if on else Qt.CheckState.Unchecked)

    def _update_button(self) -> None:
        chosen = len(self.checked())
        self.compare_button.setEnabled(chosen >= 2)
        self.delete_button.setEnabled(chosen >= 1)

    def compare(self) -> None:
        # oldest first; runs that started together (NICs measured at once) in NIC order
        runs = sorted(self.checked(), key=lambda r: (r.started_at, r.id or 0))
        if len(runs) < 2:
            return
        several = across_nics(runs)
        labels = [run_label(r, several) for r in runs]
        rows = result_rows(runs, self._records.calibration(runs))
        self.across.setText(across_nics_words(runs))
        self.across.setVisible(several)
        self.compare_table.show_rows(
            labels, rows, self._settings.units, latency_rows(runs), udp_rows(runs),
            with_change=not several,
        )  # fmt: skip
        self.chart.show_rows(labels, rows, self._settings.units)
        together = together_lines(runs)
        self.together.setText("\n".join(together))
        self.together_title.setVisible(bool(together))
        self.together.setVisible(bool(together))
        self.in_force.setText(
            "\n".join(f"#{r.id}: {in_force_mark(r) or 'no tuning in force'}" for r in runs)
        )
        self.changes.setText(
            "\n".join(
                f"{pair}:" + "".join(f"\n  {line}" for line in lines)
                for pair, lines in self._records.changes(runs)
            )
        )
        self.compare_card.show()

    def _delete(self) -> None:
        for run in self.checked():
            if run.id is not None:
                self._records.forget_run(run.id)
        self.compare_card.hide()
        self._load_runs()

    def apply_theme(self, colors: Colors) -> None:
        self.chart.apply_theme(colors)


def _plan_cell(run: RunRecord) -> tuple[str, str]:
    """(the Plan cell, its tooltip). The cell: the plan's name as its title starts ("Quick",
    "Custom, from Quick") and how the run is marked, the tweaks in force counted, a line or
    two at 800 x 600 (walk18: a row as tall as the list of tweaks, and the Thorough title
    alone took four lines); the tooltip: the whole title and every tweak by name. The marks
    are the tuning read back from the Pi (walk 14, problem 7)."""
    short = [m] if (m := in_force_short(run)) else []
    full = [m] if (m := in_force_full(run)) else []
    ended = ["incomplete"] if not run.complete else []  # as the page that stopped it said
    title = plan_title(run.plan_name, run.plan)

    def marked(head: str, marks: list[str]) -> str:
        return head + (f" ({'; '.join(marks + ended)})" if marks + ended else "")

    return marked(title.split(" (")[0].strip() or title, short), marked(title, full)
