"""Settings: this PC's iperf3 endpoint, the default plan, units and theme (saved at once)."""

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
from sbctune.ui.settings import UNITS, AppSettings, Units
from sbctune.ui.theme import THEME_CHOICES, ThemeChoice
from sbctune.ui.widgets.common import Card, label, narrow_combo

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
        card = Card("Measuring")
        form = QFormLayout()
        self.endpoint = narrow_combo(QComboBox())
        for kind, title in ENDPOINT_TITLE.items():
            self.endpoint.addItem(title, kind)
        self.iperf3_path = QLineEdit()
        self.iperf3_path.setAccessibleName("Path of the iperf3 program on this PC")
        self.iperf3_path.setPlaceholderText("empty: the bundled iperf3, then the one on PATH")
        browse = QPushButton("&Browse…")
        browse.clicked.connect(self._browse)
        path_row = QHBoxLayout()
        path_row.setContentsMargins(0, 0, 0, 0)
        path_row.addWidget(self.iperf3_path, 1)
        path_row.addWidget(browse)
        path_box = QWidget()
        path_box.setLayout(path_row)
        self.plan = narrow_combo(QComboBox())
        for name, plan in presets().items():
            self.plan.addItem(plan.title, name)
        form.addRow("This computer's &endpoint:", self.endpoint)
        form.addRow("&iperf3 program:", path_box)
        form.addRow("Default &plan:", self.plan)
        self.calibrate = QCheckBox("&Measure the baseline twice")
        why = (
            "A/A calibration: two runs with nothing changed show how far apart identical runs "
            "come out on this Pi and network; comparisons then call a change only beyond that."
        )
        self.calibrate.setToolTip(why)
        self.calibrate.setAccessibleDescription(why)
        calibrate_box = QWidget()
        calibrate_rows = QVBoxLayout(calibrate_box)
        calibrate_rows.setContentsMargins(0, 0, 0, 0)
        calibrate_rows.addWidget(self.calibrate)
        calibrate_rows.addWidget(label(why, name="muted"))
        form.addRow("Tune && Measure:", calibrate_box)
        card.body.addLayout(form)
        self.content.addWidget(card)
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
        self.content.addWidget(view)
        self.content.addWidget(
            label(
                "The built-in endpoint speaks iperf3's protocol, so the Pi runs its normal iperf3 "
                "client against it; choose the system iperf3 to compare the two.",
                name="muted",
            )
        )
        self.content.addStretch(1)
        self.shown()
        self.endpoint.currentIndexChanged.connect(self._save)
        self.iperf3_path.editingFinished.connect(self._save)
        self.plan.currentIndexChanged.connect(self._save)
        self.calibrate.toggled.connect(self._save)
        self.units.currentIndexChanged.connect(self._save)
        self.theme.currentIndexChanged.connect(self._save)

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
        self.iperf3_path.setEnabled(s.endpoint_kind == "iperf3")

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
        self.iperf3_path.setEnabled(s.endpoint_kind == "iperf3")
