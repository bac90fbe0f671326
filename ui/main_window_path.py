"""The guided path: the sidebar's steps in order, their titles, the page shown for each step of
the one-click flow, and the bar under the page ("Next: …", or the flow's overall progress)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QApplication, QLineEdit, QListWidgetItem, QPushButton, QWidget

from sbctune.ui.main_window_parts import WindowParts

if TYPE_CHECKING:
    from sbctune.ui.pages.base import Page
    from sbctune.workflow import StepSpec


# The page showing each step of the one-click flow that has a page of its own; any other step
# (one added to FLOW_STEPS) gets a StepPage under its own id.
STEP_PAGE = {"baseline": "baseline", "tune": "tune", "measure_again": "again", "results": "results"}
# Steps shown on another step's page (not in the sidebar): the A/A calibration's second
# baseline runs on the Baseline page; keeping only what helps and "Find what helps" on Tune.
SHOWN_ON = {"calibrate": "baseline", "keep": "tune", "find": "tune"}
SHORT = {
    "connect": "Connect",
    "inspect": "Inspect",
    "baseline": "Baseline",
    "tune": "Tune",
    "again": "Measure again",
    "results": "Results",
}
EXTRA = ("devices", "history", "settings")


def step_titles(steps: Sequence[StepSpec]) -> dict[str, str]:
    """Each flow step's title, by the key of the page that shows it."""
    return {STEP_PAGE.get(step.id, step.id): step.title for step in steps}


def path_for(steps: Sequence[StepSpec]) -> tuple[str, ...]:
    """The guided path in the sidebar: Connect, Inspect, then the flow's steps."""
    return ("connect", "inspect",
            *(STEP_PAGE.get(s.id, s.id) for s in steps if s.id not in SHOWN_ON))  # fmt: skip


def titles_for(steps: Sequence[StepSpec]) -> dict[str, str]:
    titles = step_titles(steps)
    numbered = {
        key: f"{n}  {SHORT.get(key) or titles[key]}" for n, key in enumerate(path_for(steps), 1)
    }
    return numbered | {"devices": "Devices", "history": "History", "settings": "Settings"}


def __getattr__(name: str) -> tuple[str, ...] | dict[str, str]:
    """PATH (the sidebar's order: the guided path, then EXTRA) and TITLES (keys name the pages
    everywhere), made on first use: they need the one-click flow's steps, a slow import."""
    if name not in ("PATH", "TITLES"):  # the import system asks for others (__path__ ...)
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from sbctune.workflow import FLOW_STEPS

    return path_for(FLOW_STEPS) if name == "PATH" else titles_for(FLOW_STEPS)


class GuidedPath(WindowParts):
    """The main window's navigation: the sidebar, the page stack and the Next bar."""

    def page(self, key: str) -> Page:
        return self.pages[key]

    def current_key(self) -> str:
        widget = self.stack.currentWidget()
        return next(k for k, p in self.pages.items() if p is widget)

    def go(self, key: str) -> None:
        for row in range(self.sidebar.count()):
            item = self.sidebar.item(row)
            if item is not None and item.data(Qt.ItemDataRole.UserRole) == key:
                if not item.flags() & Qt.ItemFlag.ItemIsEnabled:
                    item.setFlags(item.flags() | Qt.ItemFlag.ItemIsEnabled)
                if self.sidebar.currentItem() is not item:
                    self.sidebar.setCurrentItem(item)  # shows the page (_sidebar_changed)
                    return
                break
        self._show(key)

    def _sidebar_changed(self, item: QListWidgetItem | None, _previous: object) -> None:
        if item is not None:
            key = item.data(Qt.ItemDataRole.UserRole)
            if isinstance(key, str):
                self._show(key)

    def _show(self, key: str) -> None:
        page = self.pages[key]
        if self.stack.currentWidget() is not page:
            self.stack.setCurrentWidget(page)
        page.shown()
        self._update_next()

    def _follow_next(self, key: str) -> None:
        """Go to the next step, its main button focused: Enter goes on from there."""
        self.go(key)
        page = self.pages[key]
        primaries = page.findChildren(QPushButton, "primary")
        for button in primaries:
            if button.isVisibleTo(self) and button.isEnabled():
                _press_on_enter(button)
                return
        page.setFocus(Qt.FocusReason.OtherFocusReason)  # nothing to press yet: Enter waits
        # ...for the button that the page enables once its work is done (Tune's Apply, after
        # the tweaks are read: walk 17, Enter stopped on Tune), unless the user moved on.
        for button in primaries:
            button.installEventFilter(FocusWhenEnabled(page, button))

    def _update_next(self) -> None:
        """The bar under the page: the flow's overall progress while it runs, else the
        current step's "Next" once the step has done its work."""
        from sbctune.ui.controllers.wizard import Progress, next_action
        from sbctune.workflow.steps import CALIBRATE, FLOW_STEP_TITLES

        flow = self.flow
        if flow.running and flow.estimate is not None:
            elapsed = time.monotonic() - self._flow_started_at
            ids = flow.step_ids
            at = ids.index(flow.current_step) + 1 if flow.current_step in ids else 1
            title = self.step_titles.get(STEP_PAGE.get(flow.current_step or "", ""), "")
            title = CALIBRATE.title if flow.current_step == CALIBRATE.id else title
            title = title or FLOW_STEP_TITLES.get(flow.current_step or "", "")
            self.next_bar.show_flow(
                flow.estimate.fraction_done(elapsed),
                f"Tune & Measure, step {at} of {len(ids)}"
                + (f" ({title})" if title else "")
                + f": {flow.estimate.text()}",
            )
            return
        self.flow_timer.stop()
        s = self.state
        done = Progress(
            connected=s.session is not None,
            inspected=s.inventory is not None,
            baseline=s.baseline is not None,
            tuned=s.tuning_state in ("guarded", "confirmed"),
            after=s.after is not None,
        )
        if self.next_bar.show_next(next_action(self.current_key(), done)):
            # A step just finished here: Enter goes on (unless the user is typing).
            focused = QApplication.focusWidget()
            if focused is None or not isinstance(focused, QLineEdit):
                self.next_bar.next_button.setFocus(Qt.FocusReason.OtherFocusReason)

    def _update_steps(self) -> None:
        s = self.state
        enabled = {
            "connect": True,
            "inspect": s.session is not None or s.inventory is not None,
            "baseline": s.inventory is not None,
            "tune": s.inventory is not None,
            "again": s.baseline is not None,
            "results": s.baseline is not None or s.after is not None,
        }
        for row in range(self.sidebar.count()):
            item = self.sidebar.item(row)
            key = item.data(Qt.ItemDataRole.UserRole) if item is not None else None
            if item is not None and key in enabled:
                flags = item.flags()
                on = enabled[key] or self.sidebar.currentItem() is item
                item.setFlags(
                    flags | Qt.ItemFlag.ItemIsEnabled if on else flags & ~Qt.ItemFlag.ItemIsEnabled
                )
        info = s.info
        sample = "  ·  SAMPLE DATA (self-test)" if s.sample_data else ""
        self.connection_label.setText(
            (
                f"Connected: {info.user}@{info.hostname} ({info.display})"
                if info
                else "Not connected"
            )
            + sample
        )
        self.disconnect_action.setEnabled(s.session is not None)
        self._update_next()


def _press_on_enter(button: QPushButton) -> None:
    button.setAutoDefault(True)  # Enter presses it (as in a dialog)
    button.setFocus(Qt.FocusReason.OtherFocusReason)


class FocusWhenEnabled(QObject):
    """Gives `button` the focus when it becomes enabled while its page still holds the focus
    (the user has not clicked or tabbed elsewhere), then goes."""

    def __init__(self, page: QWidget, button: QPushButton) -> None:
        super().__init__(button)
        self._page, self._button = page, button

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.EnabledChange and self._button.isEnabled():
            if QApplication.focusWidget() is self._page and self._button.isVisibleTo(self._page):
                _press_on_enter(self._button)
            watched.removeEventFilter(self)
            self.deleteLater()
        return False
