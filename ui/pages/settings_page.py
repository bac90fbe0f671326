"""Settings: this PC's iperf3 endpoint, the default plan, the UDP test, units and theme (saved
at once; a UDP rate out of range is refused with a message and the last good one kept)."""

from __future__ import annotations

from typing import cast

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from sbctune.ui.controllers.measurement import EndpointKind, presets
from sbctune.ui.pages.base import Page
from sbctune.ui.settings import (
    UDP_MAX_MBPS,
    UNITS,
    AppSettings,
    Units,
    udp_rate_of,
)
from sbctune.ui.theme import THEME_CHOICES, ThemeChoice
from sbctune.ui.widgets.common import Card, ProblemPanel, label, label_reaches, narrow_combo

ENDPOINT_TITLE = {
    "builtin": "Built-in (no iperf3 needed on this computer)",
    "iperf3": "System iperf3",
}
THEME_TITLE = {"system": "Follow the system", "light": "Light", "dark": "Dark"}


class SettingsPage(Page):
    title = "Settings"
    intro = "Changes are saved at once."

    def __init__(self, settings: AppSettings) -> None:
        super().__init__()
        self._settings = settings
        self.content.addWidget(self._measuring_card())
        self.content.addWidget(self._display_card())
        self.content.addWidget(
            label(
                "The built-in speed test speaks iperf3's language, so the Pi runs its usual "
                "iperf3 against it; choose the system iperf3 to compare the two.",
                name="muted",
            )
        )
        self.content.addStretch(1)
        self.shown()
        self._save_on_change()

    def _measuring_card(self) -> Card:
        """The endpoint, its iperf3, the default plan, the baseline twice and the UDP test."""
        card = Card("Measuring")
        form = QFormLayout()
        self._add_endpoint_rows(form)
        form.addRow("Tune && Measure:", self._calibrate_box())
        udp_row = self._udp_row()
        form.addRow("U&DP test:", udp_row)
        label_reaches(form, udp_row, self.udp)
        card.body.addLayout(form)
        self.udp_problem = ProblemPanel()
        self.udp_problem.setAccessibleName("Problem with the UDP rate")
        card.body.addWidget(self.udp_problem)
        card.body.addWidget(
            label(
                "The UDP test reports the rate received, jitter and lost datagrams each way. "
                "Pick a rate below the link's: above it, loss measures the overload.",
                name="muted",
            )
        )
        return card

    def _add_endpoint_rows(self, form: QFormLayout) -> None:
        """Speed test on this computer, its iperf3 program (with Browse…), the default plan."""
        self.endpoint = narrow_combo(QComboBox())
        for kind, title in ENDPOINT_TITLE.items():
            self.endpoint.addItem(title, kind)
        path_box = self._iperf3_path_box()
        self.plan = narrow_combo(QComboBox())
        for name, plan in presets().items():
            self.plan.addItem(plan.title, name)
        form.addRow("Sp&eed test on this computer:", self.endpoint)
        self.endpoint.setToolTip(
            "The program on this computer the Pi's iperf3 sends to and receives from (the "
            "test's endpoint on this side)."
        )
        form.addRow("&iperf3 program:", path_box)
        label_reaches(form, path_box, self.iperf3_path)
        form.addRow("Default &plan:", self.plan)

    def _iperf3_path_box(self) -> QWidget:
        """[path of iperf3] [Browse…]"""
        self.iperf3_path = QLineEdit()
        self.iperf3_path.setAccessibleName("Path of the iperf3 program on this PC")
        self.iperf3_path.setPlaceholderText("empty: the bundled iperf3, then the one on PATH")
        browse = QPushButton("&Browse…")
        browse.clicked.connect(self._browse)
        self.iperf3_browse = browse
        path_row = QHBoxLayout()
        path_row.setContentsMargins(0, 0, 0, 0)
        path_row.addWidget(self.iperf3_path, 1)
        path_row.addWidget(browse)
        path_box = QWidget()
        path_box.setLayout(path_row)
        return path_box

    def _calibrate_box(self) -> QWidget:
        """[x] Measure the baseline twice, with why under it."""
        self.calibrate = QCheckBox("&Measure the baseline twice")
        why = (
            # Not "A/A calibration" (the statisticians' word; s10 walk at 800x600).
            "Two runs with nothing changed show how far apart identical runs come out on this "
            "Pi and network; comparisons then call a change only beyond that."
        )
        self.calibrate.setToolTip(why)
        self.calibrate.setAccessibleDescription(why)
        calibrate_box = QWidget()
        calibrate_rows = QVBoxLayout(calibrate_box)
        calibrate_rows.setContentsMargins(0, 0, 0, 0)
        calibrate_rows.addWidget(self.calibrate)
        calibrate_rows.addWidget(label(why, name="muted"))
        return calibrate_box

    def _display_card(self) -> Card:
        """Units and theme."""
        view = Card("Display")
        view_form = QFormLayout()
        self.units = narrow_combo(QComboBox())
        for unit in UNITS:
            self.units.addItem(unit, unit)
        self.theme = narrow_combo(QComboBox())
        for choice in THEME_CHOICES:
            self.theme.addItem(THEME_TITLE[choice], choice)
        view_form.addRow("&Units:", self.units)
        view_form.addRow("&Theme:", self.theme)
        view.body.addLayout(view_form)
        return view

    def _save_on_change(self) -> None:
        """Every field saves at once (connected after shown(): filling them saves nothing)."""
        self.endpoint.currentIndexChanged.connect(self._save)
        self.iperf3_path.editingFinished.connect(self._save)
        self.plan.currentIndexChanged.connect(self._save)
        self.calibrate.toggled.connect(self._save)
        self.units.currentIndexChanged.connect(self._save)
        self.theme.currentIndexChanged.connect(self._save)
        self.udp.toggled.connect(self._save)
        self.udp_rate.editingFinished.connect(self._save)

    def _udp_row(self) -> QWidget:
        """[x] after the TCP tests, at [50] Mbit/s"""
        self.udp = QCheckBox("After the TCP tests, at")
        self.udp.setAccessibleName("Add a UDP test after the TCP tests")
        self.udp_rate = QLineEdit()
        self.udp_rate.setAccessibleName("UDP test rate in Mbit/s")
        self.udp_rate.setMaximumWidth(self.udp_rate.fontMetrics().horizontalAdvance("0") * 12)
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.udp)
        row.addWidget(self.udp_rate)
        row.addWidget(label("Mbit/s", wrap=False))
        row.addStretch(1)
        box = QWidget()
        box.setLayout(row)
        box.setFocusProxy(self.udp)
        return box

    def shown(self) -> None:
        s = self._settings
        for combo, value in (
            (self.endpoint, s.endpoint_kind),
            (self.plan, s.default_plan),
            (self.units, s.units),
            (self.theme, s.theme),
        ):
            combo.blockSignals(True)
            combo.setCurrentIndex(max(0, combo.findData(value)))
            combo.blockSignals(False)
        self.iperf3_path.setText(s.iperf3_path or "")
        self.calibrate.blockSignals(True)
        self.calibrate.setChecked(s.calibrate_flow)
        self.calibrate.blockSignals(False)
        self._path_follows(s.endpoint_kind)
        self.udp.blockSignals(True)
        self.udp.setChecked(s.udp_enabled)
        self.udp.blockSignals(False)
        self.udp_rate.setText(f"{s.udp_mbps:g}")
        self.udp_rate.setEnabled(s.udp_enabled)
        self.udp_problem.clear()

    def _browse(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Choose the iperf3 program")
        if path:
            self.iperf3_path.setText(path)
            self._save()

    def _save(self) -> None:
        s = self._settings
        s.endpoint_kind = cast(EndpointKind, self.endpoint.currentData())
        s.iperf3_path = self.iperf3_path.text().strip() or None
        s.default_plan = str(self.plan.currentData())
        s.calibrate_flow = self.calibrate.isChecked()
        s.units = cast(Units, self.units.currentData())
        s.theme = cast(ThemeChoice, self.theme.currentData())
        self._path_follows(s.endpoint_kind)
        self._save_udp()

    def _path_follows(self, kind: EndpointKind) -> None:
        """The iperf3 program's field and its Browse… only for the system iperf3: the built-in
        one uses neither (walk ux29: Browse… stayed enabled under "Built-in")."""
        for widget in (self.iperf3_path, self.iperf3_browse):
            widget.setEnabled(kind == "iperf3")

    def _save_udp(self) -> None:
        """The rate is saved only when in range; otherwise a message, and the text the user
        typed stays in the field to correct (the last good rate stays in force)."""
        s = self._settings
        s.udp_enabled = self.udp.isChecked()
        self.udp_rate.setEnabled(s.udp_enabled)
        text = self.udp_rate.text().strip()
        rate = udp_rate_of(text)
        if rate is None:
            self.udp_problem.show_problem(
                f"“{text[:40]}” is not a UDP rate the test can use.",
                f"Give Mbit/s above 0 and at most {UDP_MAX_MBPS:g}, e.g. 50. Until then the "
                f"UDP test runs at {s.udp_mbps:g} Mbit/s.",
            )
            return
        self.udp_problem.clear()
        s.udp_mbps = rate
