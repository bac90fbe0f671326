"""What the main window's parts (main_window_path, main_window_flow, main_window_close) may use
of each other and of the window, for the type checker only: at run time `WindowParts` is
`object`, and the one class with all of it is main_window.MainWindow."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import asyncio

    from PySide6.QtCore import QTimer
    from PySide6.QtGui import QAction
    from PySide6.QtWidgets import QLabel, QListWidget, QMainWindow, QMessageBox, QStackedWidget

    from sbctune.history.records import RunRecord
    from sbctune.ui.controllers.connection import ConnectionController
    from sbctune.ui.controllers.flow import FlowController
    from sbctune.ui.controllers.measurement import MeasureController
    from sbctune.ui.controllers.state import AppState
    from sbctune.ui.controllers.tuning import TuningController
    from sbctune.ui.pages.base import Page
    from sbctune.ui.pages.connect_page import ConnectPage
    from sbctune.ui.pages.measure_page import MeasurePage
    from sbctune.ui.pages.step_page import StepPage
    from sbctune.ui.pages.tune_page import TunePage
    from sbctune.ui.settings import AppSettings
    from sbctune.ui.tasks import TaskRunner
    from sbctune.ui.widgets.next_bar import NextBar

    class WindowParts(QMainWindow):
        settings: AppSettings
        ready: bool
        state: AppState
        runner: TaskRunner
        connection: ConnectionController
        baseline: MeasureController
        again: MeasureController
        tuning: TuningController
        flow: FlowController
        pages: dict[str, Page]
        step_pages: dict[str, StepPage]
        step_titles: dict[str, str]
        connect_page: ConnectPage
        baseline_page: MeasurePage
        again_page: MeasurePage
        tune_page: TunePage
        sidebar: QListWidget
        stack: QStackedWidget
        next_bar: NextBar
        flow_timer: QTimer
        connection_label: QLabel
        disconnect_action: QAction
        _flow_started_at: float
        _closing: bool
        _close_question: QMessageBox | None
        consent_question: QMessageBox | None
        in_force_question: QMessageBox | None
        _shutdown_task: asyncio.Task[None] | None

        def go(self, key: str) -> None: ...
        def current_key(self) -> str: ...
        def _update_next(self) -> None: ...
        def _measure_done(self, _record: RunRecord) -> None: ...
        def _ask_close_while_armed(self, left: float) -> None: ...

else:
    WindowParts = object
