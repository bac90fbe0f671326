"""The main window: the guided path in a sidebar, one page at a time, and the status bar.

Its parts: the staged start-up (main_window_start), the guided path and its Next bar
(main_window_path), following the flow's steps (main_window_flow), closing (main_window_close).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QMenu,
    QMessageBox,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from sbctune.ui.main_window_close import ClosingWindow
from sbctune.ui.main_window_flow import FlowSteps
from sbctune.ui.main_window_path import (
    EXTRA,
    SHORT,
    SHOWN_ON,
    STEP_PAGE,
    GuidedPath,
    path_for,
    step_titles,
    titles_for,
)
from sbctune.ui.main_window_start import fill_when_shown, preload
from sbctune.ui.pages.connect_page import ConnectPage
from sbctune.ui.settings import AppSettings
from sbctune.ui.tasks import TaskRunner
from sbctune.ui.theme import Colors, ThemeManager
from sbctune.ui.widgets.layout_before_paint import LayoutBeforePaint
from sbctune.ui.window_fit import PREFERRED, show_fitted
from sbctune.wording import spoken

# The first window is painted before the rest is imported (issue 22: the window in < 1.5 s):
# what only the filled window needs (the controllers, the pages, the one-click flow, and with
# them asyncssh and the history) is imported by `finish_start`, and by the methods using it.
if TYPE_CHECKING:
    import asyncio

    from sbctune.history import History
    from sbctune.measure.install import InstallPlan
    from sbctune.measure.pc_endpoint import EndpointKind
    from sbctune.remote import HostKeyInfo, KnownHosts
    from sbctune.ui.pages.base import Page
    from sbctune.workflow import StepSpec

__all__ = [
    "EXTRA", "SHORT", "SHOWN_ON", "STEP_PAGE", "MainWindow", "path_for", "step_titles",
    "titles_for",
]  # fmt: skip


def __getattr__(name: str) -> tuple[str, ...] | dict[str, str]:
    """PATH and TITLES, made on first use (main_window_path's)."""
    if name not in ("PATH", "TITLES"):  # the import system asks for others (__path__ ...)
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from sbctune.ui import main_window_path

    value: tuple[str, ...] | dict[str, str] = getattr(main_window_path, name)
    return value


class MainWindow(GuidedPath, FlowSteps, ClosingWindow, QMainWindow):
    def __init__(
        self,
        history: History | None,
        settings: AppSettings,
        theme: ThemeManager,
        known_hosts: Callable[[], KnownHosts] | None = None,
        steps: Sequence[StepSpec] | None = None,
        *,
        staged: bool = False,
    ) -> None:
        """`history`: None opens the user's own. `known_hosts`: None, the user's own.
        `steps`: the one-click flow's steps (default: sbctune.workflow.FLOW_STEPS).

        `staged`: the app's start-up. The window holds the Connect page alone at first (made
        from light modules: the user types into it at once), `show_fitted` puts it on the screen,
        and the rest (the core, the other pages, the sidebar's steps) is imported and made once
        it is painted (`finish_start`, then `ready` is true). Otherwise all is made here."""
        super().__init__()
        self.setObjectName("mainWindow")
        self.installEventFilter(LayoutBeforePaint(self))  # no paint of a half-laid-out page
        self.setWindowTitle("sbctune")
        self.settings = settings
        self.theme = theme
        self.ready = False
        self._then: list[Callable[[], None]] = []
        self._start_args = (history, known_hosts, steps)
        self._closing = False
        self._close_question: QMessageBox | None = None  # asked on close while armed
        # Asked before a flow whose plan holds tweaks back for the link (open while asking).
        self.consent_question: QMessageBox | None = None
        self.in_force_question: QMessageBox | None = None  # before a flow with tuning in force
        self._flow_started_at = 0.0
        self._shutdown_task: asyncio.Task[None] | None = None
        self.resize(PREFERRED)
        geometry, state = settings.window_state()
        self.restored = geometry is not None and self.restoreGeometry(geometry)
        self._saved_state = state
        self._preloading = threading.Thread(target=preload, name="preload", daemon=True)
        self.runner = TaskRunner(on_error=self._unexpected)
        self._menu_heads: tuple[QMenu, QMenu, QMenu] | None = None
        self._frame()
        self._top_menus()  # from the first paint: the page does not move down when filled
        if staged:
            self.statusBar().showMessage("Starting…")
            self.connect_page.focus_first()  # typed keys go there from the first paint
        else:
            self.finish_start()

    def finish_start(self) -> None:
        """Import and build what the window shows and does: controllers, pages, menus."""
        if self.ready:
            return
        from sbctune.history import History
        from sbctune.remote import KnownHosts
        from sbctune.ui.controllers.state import AppState
        from sbctune.workflow import FLOW_STEPS

        history, known_hosts, steps = self._start_args
        steps = FLOW_STEPS if steps is None else steps
        history = History.open() if history is None else history
        self.steps = tuple(steps)
        self.path = path_for(steps)
        self.titles = titles_for(steps)
        self.step_titles = step_titles(steps)
        self.history = history
        self.state = AppState(self)
        self._controllers(history, known_hosts or KnownHosts)
        self.connect_page.attach(self.connection, self.finder)
        self._pages(self.theme.colors)
        self._layout()
        self._menus()
        self._wire()
        self._update_steps()
        if self._saved_state is not None:
            self.restoreState(self._saved_state)
        self.statusBar().clearMessage()
        self.ready = True
        self.go("connect")
        then, self._then = self._then, []
        for callback in then:
            callback()

    def start_preloading(self) -> None:
        """Import the core on a worker thread now (a staged window does once it is painted)."""
        if self._preloading.ident is None and not self.ready:
            self._preloading.start()

    def show_fitted(self, then: Callable[[], None] | None = None) -> None:
        """Show the window within the screen (maximized where it would not fit). A staged
        window is filled once it is on the screen, then `then` runs (at once if filled)."""
        show_fitted(self, self.restored)
        if self.ready:
            if then is not None:
                then()
            return
        if then is not None:
            self._then.append(then)
        fill_when_shown(self, self._preloading, self.finish_start)

    # ------------------------------------------------------------------ set-up
    def _controllers(self, history: History, known_hosts: Callable[[], KnownHosts]) -> None:
        """Everything that talks to the Pi or the history."""
        from sbctune.ui.controllers.connection import ConnectionController
        from sbctune.ui.controllers.exporting import ExportController
        from sbctune.ui.controllers.finding import FindController
        from sbctune.ui.controllers.flow import FlowController
        from sbctune.ui.controllers.inspection import InspectController
        from sbctune.ui.controllers.measurement import MeasureController
        from sbctune.ui.controllers.records import RecordsController
        from sbctune.ui.controllers.tuning import TuningController

        self.connection = ConnectionController(
            self.state, self.runner, history, self._ask_host_key, known_hosts
        )
        self.inspection = InspectController(self.state, self.runner, history)
        self.baseline = MeasureController(
            "baseline", self.state, self.runner, history, self._endpoint, self._ask_install,
            udp=self.settings.udp_rate,
        )  # fmt: skip
        self.again = MeasureController(
            "after", self.state, self.runner, history, self._endpoint, self._ask_install,
            udp=self.settings.udp_rate,
        )  # fmt: skip
        self.tuning = TuningController(self.state, self.runner, history)
        self.exporter = ExportController(self.runner, history)
        self.records = RecordsController(history)
        self.finder = FindController(self.runner, history)  # for the Connect page's Find
        self.flow = FlowController(
            self.state,
            self.runner,
            history,
            {"baseline": self.baseline, "calibrate": self.baseline, "measure_again": self.again},
            self._endpoint,
            self._ask_install,
            self.steps,
            alone=self.again,  # each tweak measured alone: live on Measure again's page
        )

    def _pages(self, colors: Colors) -> None:
        """Each page talks to its controllers only."""
        from sbctune.ui.pages.devices_page import DevicesPage
        from sbctune.ui.pages.history_page import HistoryPage
        from sbctune.ui.pages.inspect_page import InspectPage
        from sbctune.ui.pages.measure_page import MeasurePage
        from sbctune.ui.pages.results_page import ResultsPage
        from sbctune.ui.pages.settings_page import SettingsPage
        from sbctune.ui.pages.step_page import StepPage
        from sbctune.ui.pages.tune_page import TunePage

        settings = self.settings
        self.inspect_page = InspectPage(self.state, self.inspection, colors)
        self.baseline_page = MeasurePage(self.baseline, self.state, settings, colors)
        self.tune_page = TunePage(self.state, self.tuning, colors)
        self.again_page = MeasurePage(self.again, self.state, settings, colors)
        self.results_page = ResultsPage(
            self.state, settings, self.tuning, self.exporter, colors, self.records
        )
        self.devices_page = DevicesPage(self.records)
        self.pages: dict[str, Page] = {
            "connect": self.connect_page,
            "inspect": self.inspect_page,
            "baseline": self.baseline_page,
            "tune": self.tune_page,
            "again": self.again_page,
            "results": self.results_page,
            "devices": self.devices_page,
            "history": HistoryPage(self.records, settings, colors),
            "settings": SettingsPage(settings),
        }
        # A flow step without a page of its own: the generic step page, in the path's order.
        self.step_pages = {
            key: StepPage(n, self.step_titles[key])
            for n, key in enumerate(self.path, 1)
            if key not in self.pages
        }
        self.pages.update(self.step_pages)

    def _frame(self) -> None:
        """The sidebar (its steps come with `_layout`) and the page stack, holding the Connect
        page: made before the core is imported (ConnectPage's `attach` comes later)."""
        from sbctune.ui.widgets.message_bar import MessageBar

        self.message_bar = MessageBar(self)
        self.setStatusBar(self.message_bar)
        self.sidebar = QListWidget()
        self.sidebar.setObjectName("sidebar")
        self.sidebar.setAccessibleName("Steps")
        self.sidebar.setFixedWidth(190)
        self.stack = QStackedWidget()
        self.connect_page = ConnectPage(None, self.settings, self.runner)
        self.stack.addWidget(self.connect_page)
        central = QWidget()
        row = QHBoxLayout(central)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(0)
        row.addWidget(self.sidebar)
        self._right = QVBoxLayout()
        self._right.setContentsMargins(0, 0, 0, 0)
        self._right.setSpacing(0)
        self._right.addWidget(self.stack, 1)
        row.addLayout(self._right, 1)
        self.setCentralWidget(central)

    def _layout(self) -> None:
        from sbctune.ui.warning_notices import WarningNotices
        from sbctune.ui.widgets.next_bar import NextBar

        for key in (*self.path, *EXTRA):
            if key == "devices":
                spacer = QListWidgetItem("")
                spacer.setFlags(Qt.ItemFlag.NoItemFlags)
                spacer.setSizeHint(spacer.sizeHint().expandedTo(spacer.sizeHint()))
                self.sidebar.addItem(spacer)
            item = QListWidgetItem(self.titles[key])
            item.setData(Qt.ItemDataRole.UserRole, key)
            self.sidebar.addItem(item)
            if self.pages[key] is not self.connect_page:
                self.stack.addWidget(self.pages[key])
        self.sidebar.currentItemChanged.connect(self._sidebar_changed)
        self.next_bar = NextBar()
        self._right.addWidget(self.next_bar)
        from sbctune.ui.widgets.elided_label import ElidedLabel

        # Elided with the whole line as its tooltip: a long host name next to the guard's
        # countdown would otherwise squeeze both.
        self.connection_label = ElidedLabel("Not connected")
        self.message_bar.add_permanent(self.connection_label, yielding=True)
        # The guard's countdown wherever the user is (the Tune page shows it too).
        self.guard_label = QLabel("")
        self.guard_label.setAccessibleName("Auto-revert guard countdown")
        self.guard_label.hide()
        self.message_bar.add_permanent(self.guard_label)
        self.tuning.guard_tick.connect(self._show_guard)  # the Tune page's seconds too
        self.notices = WarningNotices(self)
        self.notices.warned.connect(self._show_warning)

    def _show_guard(self) -> None:
        left = self.tuning.seconds_shown
        if left is None:
            self.guard_label.hide()
            return
        held = self.tuning.held_text()
        if held is not None:
            self.guard_label.setText(held)
        else:
            # "on trial", as Results says it: "armed" is the guard's own word (s10 walk)
            self.guard_label.setText(f"Tuning on trial: reverts in {left} s unless kept")
        self.guard_label.show()

    def _show_warning(self, text: str) -> None:
        self.statusBar().showMessage(f"Warning: {text}", 20000)

    def _top_menus(self) -> tuple[QMenu, QMenu, QMenu]:
        """File, Go and Help, made once and in the first window already: the menu bar came
        only once the window was filled, and the Connect page then moved down under the
        pointer of a user who clicked a field meanwhile (walk 27: 28 px at 150 %)."""
        if self._menu_heads is None:
            bar = self.menuBar()
            self._menu_heads = (bar.addMenu("&File"), bar.addMenu("&Go"), bar.addMenu("&Help"))
        return self._menu_heads

    def _menus(self) -> None:
        file_menu, go_menu, help_menu = self._top_menus()
        self.disconnect_action = QAction("&Disconnect", self)
        self.disconnect_action.triggered.connect(self._disconnect)
        file_menu.addAction(self.disconnect_action)
        quit_action = QAction("&Quit", self)
        quit_action.setShortcut(QKeySequence.StandardKey.Quit)
        quit_action.triggered.connect(self.close)
        file_menu.addAction(quit_action)
        for n, key in enumerate((*self.path, *EXTRA), start=1):
            action = QAction(self.titles[key].split("  ")[-1], self)
            action.setShortcut(QKeySequence(f"Ctrl+{n}"))
            action.triggered.connect(lambda _=False, k=key: self.go(k))
            go_menu.addAction(action)
        started = QAction("&Getting started", self)
        started.setShortcut(QKeySequence.StandardKey.HelpContents)  # F1
        started.triggered.connect(self.show_getting_started)
        help_menu.addAction(started)
        keys = QAction("&Keyboard shortcuts", self)
        keys.triggered.connect(self.show_shortcuts)
        help_menu.addAction(keys)
        help_menu.addSeparator()
        about = QAction("&About sbctune", self)
        about.triggered.connect(self.show_about)
        help_menu.addAction(about)

    def _wire(self) -> None:
        self.connect_page.connected.connect(self._connected)
        self.inspect_page.tune_and_measure.connect(lambda: self.tune_and_measure())
        self.inspect_page.measure_only.connect(lambda: self._measure_only())
        self.baseline_page.done.connect(self._baseline_done)
        self.again_page.done.connect(self._measure_done)
        self.again_page.go_tune.connect(lambda: self.go("tune"))
        self.tune_page.measure_again.connect(lambda: self._measure_again())
        self.tune_page.continue_to_inspect.connect(lambda: self.go("inspect"))
        self.tune_page.cancel_flow.connect(lambda: self.flow.cancel())
        self.devices_page.connect_requested.connect(self._connect_saved)
        self.flow.step.connect(self._flow_step)
        self.flow.tuning_event.connect(self.tune_page.show_event)
        self.flow.failed.connect(self._flow_failed)
        self.flow.finished.connect(self._flow_finished)
        self.results_page.find_requested.connect(self.find_what_helps)
        self.results_page.baseline_requested.connect(lambda: self.go("baseline"))
        self.flow.cancelled.connect(self._flow_cancelled)
        self.flow.measuring_alone.connect(lambda: self.go("again"))
        for measuring in (self.baseline, self.again):
            for ended in (measuring.finished, measuring.failed, measuring.stopped_early,
                          measuring.cancelled):  # fmt: skip
                ended.connect(self._refusal_over)
        self.state.changed.connect(self._update_steps)
        self.next_bar.go.connect(self._follow_next)
        self.next_bar.cancel.connect(lambda: self.flow.cancel())
        self.flow_timer = QTimer(self)
        self.flow_timer.setInterval(500)
        self.flow_timer.timeout.connect(self._update_next)
        self.theme.changed.connect(self._theme_changed)
        self.settings.changed.connect(self._setting_changed)

    def _endpoint(self) -> tuple[EndpointKind, str | None]:
        return self.settings.endpoint_kind, self.settings.iperf3_path

    async def _ask_host_key(self, info: HostKeyInfo) -> bool:
        from sbctune.ui.widgets.dialogs import ask_host_key

        return await ask_host_key(info, self)

    async def _ask_install(self, plan: InstallPlan) -> bool:
        from sbctune.ui.widgets.dialogs import ask_install_iperf3

        return await ask_install_iperf3(plan, self)

    def _unexpected(self, exc: BaseException) -> None:
        self.statusBar().showMessage(f"Error: {spoken(str(exc))}", 15000)

    # ------------------------------------------------------------------ navigation
    # ------------------------------------------------------------------ look
    def _theme_changed(self, colors: Colors) -> None:
        for page in self.pages.values():
            page.apply_theme(colors)

    def _setting_changed(self, key: str) -> None:
        if key == "view/theme":
            self.theme.apply(self.settings.theme)
        elif key == "view/units":
            for page in self.pages.values():
                set_units = getattr(page, "set_units", None)
                if set_units is not None:
                    set_units()

    def show_getting_started(self) -> None:
        from PySide6.QtWidgets import QDialog

        from sbctune.ui.widgets.help_dialogs import GettingStartedDialog

        self.help_dialog: QDialog = GettingStartedDialog(self)
        self.help_dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.help_dialog.open()

    def show_shortcuts(self) -> None:
        from sbctune.ui.widgets.help_dialogs import ShortcutsDialog

        menus = [a.menu() for a in self.menuBar().actions()]
        actions = [a for m in menus if isinstance(m, QMenu) for a in m.actions()]
        self.help_dialog = ShortcutsDialog(actions, self)
        self.help_dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.help_dialog.open()

    def show_about(self) -> None:
        from sbctune.ui.controllers.about import about_facts
        from sbctune.ui.widgets.dialogs import AboutDialog

        async def show() -> None:
            facts = await about_facts(self.state, self.settings.iperf3_path)
            dialog = AboutDialog(facts, self)
            dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
            self.about_dialog = dialog
            dialog.open()

        self.runner.start(show(), name="about")
