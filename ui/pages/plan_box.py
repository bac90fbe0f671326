"""The Baseline and Measure again pages' plan box: the presets, and the plan that really runs
when it is none of them (`gui --demo --duration/--trials`, a baseline measured with a changed
plan) as an item of its own with that plan's title, never the preset it came from (walk 16:
"Quick (3 trials × 5 s per direction)" shown over a 1-trial, 2 s run)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox

from sbctune.ui.controllers.measurement import Plan, plan_named, presets
from sbctune.ui.widgets.common import narrow_combo

CUSTOM = "custom"  # the item's data for a plan that is no preset (Plan.with_overrides)


class PlanBox:
    """The combo box (`combo`) and the plan behind its custom item."""

    def __init__(self) -> None:
        self.combo = narrow_combo(QComboBox())
        self.combo.setObjectName("plan")
        for name, plan in presets().items():
            self.combo.addItem(plan.title, name)
        self.combo.setAccessibleName("Test plan")
        self._custom: Plan | None = None

    def select(self, name: str) -> None:
        index = self.combo.findData(name)
        if index >= 0:
            self.combo.setCurrentIndex(index)

    def show(self, plan: Plan) -> None:
        """`plan` as the box's choice: a preset by its name, else the custom item."""
        if plan.name in presets() and plan.title == presets()[plan.name].title:
            self.select(plan.name)
            return
        self._custom = plan.as_chosen()  # Start runs it as chosen: Settings' UDP is added again
        index = self.combo.findData(CUSTOM)
        if index < 0:
            self.combo.addItem(plan.title, CUSTOM)
            index = self.combo.count() - 1
        self.combo.setItemText(index, plan.title)
        self.combo.setItemData(index, plan.title, Qt.ItemDataRole.ToolTipRole)
        self.combo.setCurrentIndex(index)

    def preset_name(self) -> str | None:
        """The preset chosen (what Settings remember as the default), None for the custom."""
        name = self.combo.currentData()
        return name if isinstance(name, str) and name != CUSTOM else None

    def chosen(self) -> Plan:
        if self.combo.currentData() == CUSTOM and self._custom is not None:
            return self._custom
        return plan_named(str(self.combo.currentData()))
