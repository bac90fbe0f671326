"""The main window: the guided path in a sidebar, one page at a time, and the status bar."""

from __future__ import annotations

import asyncio
import importlib
import threading
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QMessageBox,
    QPushButton,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from sbctune.ui.settings import AppSettings
from sbctune.ui.theme import Colors, ThemeManager
from sbctune.ui.window_fit import PREFERRED, show_fitted

# The first window is painted before the rest is imported (issue 22: the window in < 1.5 s):
# what only the filled window needs (the controllers, the pages, the one-click flow, and with
# them asyncssh and the history) is imported by `finish_start`, and by the methods using it.
if TYPE_CHECKING:
    from sbctune.history import History
    from sbctune.history.records import DeviceRecord, RunRecord
    from sbctune.measure.install import InstallPlan
    from sbctune.measure.pc_endpoint import EndpointKind
    from sbctune.measure.plans import Plan
    from sbctune.remote import HostKeyInfo, KnownHosts
    from sbctune.ui.pages.base import Page
    from sbctune.workflow import ConnectedInfo, Problem, StepSpec

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


# The core packages the filled window needs (no Qt in them): imported on a worker thread while
# the bare window stays responsive (it repaints, moves and closes); the pages are made on the
# GUI thread afterwards (`finish_start`).
PRELOAD = (
    "sbctune.history",
    "sbctune.remote",
    "sbctune.workflow",
    "sbctune.workflow.connecting",
    "sbctune.workflow.leftover",
    "sbctune.workflow.tuning_words",
    "sbctune.advice.stored",
    "sbctune.compare.state_diff",
    "sbctune.compare.waterfall",
    "sbctune.export.report_data",
    "sbctune.measure.latency.report",
)


def _preload() -> None:
    for name in PRELOAD:
        try:
            importlib.import_module(name)
        except Exception:  # finish_start imports it again and shows the error
            return


def _fill_when_shown(window: MainWindow, poll_ms: int = 10, give_up_ms: int = 500) -> None:
    """Fill a staged window once it is on the screen and painted (a window manager maps it a
    little after `show`; after `give_up_ms` regardless) and the core is imported."""
    timer = QTimer(window)
    timer.setInterval(poll_ms)
    started = time.monotonic()
    painted: list[bool] = []

    def check() -> None:
        if not painted:
            handle = window.windowHandle()
            exposed = handle is not None and handle.isExposed()
            if not exposed and (time.monotonic() - started) * 1000 < give_up_ms:
                return
            if exposed:
                window.repaint()  # the bare window on the screen now, before the slow part
            painted.append(True)
        if window._preloading.is_alive():
            return
        timer.stop()
        timer.deleteLater()
        QTimer.singleShot(0, window.finish_start)

    timer.timeout.connect(check)
    timer.start()


class MainWindow(QMainWindow):
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

        `staged`: show a bare window first (`show_fitted`) and fill it on the next turn of the
        event loop (`finish_start`, then `ready` is true): the app's start-up. Otherwise the
        window is filled here."""
        super().__init__()
        self.setObjectName("mainWindow")
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
        self._flow_started_at = 0.0
        self._shutdown_task: asyncio.Task[None] | None = None
        self.resize(PREFERRED)
        geometry, state = settings.window_state()
        self.restored = geometry is not None and self.restoreGeometry(geometry)
        self._saved_state = state
        self._preloading = threading.Thread(target=_preload, name="preload", daemon=True)
        if staged:
            self._preloading.start()  # while Qt shows the bare window
            starting = QLabel("Starting sbctune…")
            starting.setAlignment(Qt.AlignmentFlag.AlignCenter)
            self.setCentralWidget(starting)
            self.statusBar().showMessage("Starting…")
        else:
            self.finish_start()

    def finish_start(self) -> None:
        """Import and build what the window shows and does: controllers, pages, menus."""
        if self.ready:
            return
        from sbctune.history import History
        from sbctune.remote import KnownHosts
        from sbctune.ui.controllers.state import AppState
        from sbctune.ui.tasks import TaskRunner
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
        self.runner = TaskRunner(on_error=self._unexpected)
        self._controllers(history, known_hosts or KnownHosts)
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
        _fill_when_shown(self)

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
        )

    def _pages(self, colors: Colors) -> None:
        """Each page talks to its controllers only."""
        from sbctune.ui.pages.connect_page import ConnectPage
        from sbctune.ui.pages.devices_page import DevicesPage
        from sbctune.ui.pages.history_page import HistoryPage
        from sbctune.ui.pages.inspect_page import InspectPage
        from sbctune.ui.pages.measure_page import MeasurePage
        from sbctune.ui.pages.results_page import ResultsPage
        from sbctune.ui.pages.settings_page import SettingsPage
        from sbctune.ui.pages.step_page import StepPage
        from sbctune.ui.pages.tune_page import TunePage

        settings = self.settings
        self.connect_page = ConnectPage(self.connection, settings, self.runner, self.finder)
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

    def _layout(self) -> None:
        from sbctune.ui.warning_notices import WarningNotices
        from sbctune.ui.widgets.next_bar import NextBar

        self.sidebar = QListWidget()
        self.sidebar.setObjectName("sidebar")
        self.sidebar.setAccessibleName("Steps")
        self.stack = QStackedWidget()
        for key in (*self.path, *EXTRA):
            if key == "devices":
                spacer = QListWidgetItem("")
                spacer.setFlags(Qt.ItemFlag.NoItemFlags)
                spacer.setSizeHint(spacer.sizeHint().expandedTo(spacer.sizeHint()))
                self.sidebar.addItem(spacer)
            item = QListWidgetItem(self.titles[key])
            item.setData(Qt.ItemDataRole.UserRole, key)
            self.sidebar.addItem(item)
            self.stack.addWidget(self.pages[key])
        self.sidebar.setFixedWidth(190)
        self.sidebar.currentItemChanged.connect(self._sidebar_changed)
        central = QWidget()
        row = QHBoxLayout(central)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(0)
        row.addWidget(self.sidebar)
        right = QVBoxLayout()
        right.setContentsMargins(0, 0, 0, 0)
        right.setSpacing(0)
        right.addWidget(self.stack, 1)
        self.next_bar = NextBar()
        right.addWidget(self.next_bar)
        row.addLayout(right, 1)
        self.setCentralWidget(central)
        self.connection_label = QLabel("Not connected")
        self.statusBar().addPermanentWidget(self.connection_label)
        # The guard's countdown wherever the user is (the Tune page shows it too).
        self.guard_label = QLabel("")
        self.guard_label.setAccessibleName("Auto-revert guard countdown")
        self.guard_label.hide()
        self.statusBar().addPermanentWidget(self.guard_label)
        self._guard_timer = QTimer(self)
        self._guard_timer.setInterval(500)
        self._guard_timer.timeout.connect(self._show_guard)
        self.state.tuning_changed.connect(self._show_guard)
        self.notices = WarningNotices(self)
        self.notices.warned.connect(self._show_warning)

    def _show_guard(self) -> None:
        left = self.tuning.guard_left()
        if left is None:
            self.guard_label.hide()
            self._guard_timer.stop()
            return
        held = self.tuning.held_text()
        if held is not None:
            self.guard_label.setText(held)
        else:
            self.guard_label.setText(f"Tuning armed: reverts in {left:.0f} s unless kept")
        self.guard_label.show()
        if not self._guard_timer.isActive():
            self._guard_timer.start()

    def _show_warning(self, text: str) -> None:
        self.statusBar().showMessage(f"Warning: {text}", 20000)

    def _menus(self) -> None:
        bar = self.menuBar()
        file_menu = bar.addMenu("&File")
        self.disconnect_action = QAction("&Disconnect", self)
        self.disconnect_action.triggered.connect(self._disconnect)
        file_menu.addAction(self.disconnect_action)
        quit_action = QAction("&Quit", self)
        quit_action.setShortcut(QKeySequence.StandardKey.Quit)
        quit_action.triggered.connect(self.close)
        file_menu.addAction(quit_action)
        go_menu = bar.addMenu("&Go")
        for n, key in enumerate((*self.path, *EXTRA), start=1):
            action = QAction(self.titles[key].split("  ")[-1], self)
            action.setShortcut(QKeySequence(f"Ctrl+{n}"))
            action.triggered.connect(lambda _=False, k=key: self.go(k))
            go_menu.addAction(action)
        help_menu = bar.addMenu("&Help")
        about = QAction("&About sbctune", self)
        about.triggered.connect(self.show_about)
        help_menu.addAction(about)

    def _wire(self) -> None:
        self.connect_page.connected.connect(self._connected)
        self.inspect_page.tune_and_measure.connect(lambda: self.tune_and_measure())
        self.inspect_page.measure_only.connect(lambda: self._measure_only())
        self.baseline_page.done.connect(self._baseline_done)
        self.again_page.done.connect(self._measure_done)
        self.tune_page.measure_again.connect(lambda: self._measure_again())
        self.tune_page.continue_to_inspect.connect(lambda: self.go("inspect"))
        self.devices_page.connect_requested.connect(self._connect_saved)
        self.flow.step.connect(self._flow_step)
        self.flow.tuning_event.connect(self.tune_page.show_event)
        self.flow.failed.connect(self._flow_failed)
        self.flow.finished.connect(lambda _result: self.go("results"))
        self.results_page.find_requested.connect(self.find_what_helps)
        self.flow.cancelled.connect(self._flow_cancelled)
        self.state.changed.connect(self._update_steps)
        self.next_bar.go.connect(self._follow_next)
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
        self.statusBar().showMessage(f"Error: {exc}", 15000)

    # ------------------------------------------------------------------ navigation
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
        for button in page.findChildren(QPushButton, "primary"):
            if button.isVisibleTo(self) and button.isEnabled():
                button.setAutoDefault(True)  # Enter presses it (as in a dialog)
                button.setFocus(Qt.FocusReason.OtherFocusReason)
                return
        page.setFocus(Qt.FocusReason.OtherFocusReason)  # nothing to press yet: Enter waits

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

    # ------------------------------------------------------------------ the path
    def _connected(self, info: ConnectedInfo) -> None:
        # Tuning an earlier sbctune left on the Pi would skew a baseline: settle it first.
        self.go("tune" if info.tuning_leftover is not None else "inspect")

    def _connect_saved(self, device: DeviceRecord) -> None:
        self.connect_page.fill(device.host, device.port, device.user)
        self.go("connect")

    def _disconnect(self) -> None:
        self.runner.start(self.connection.close_session(), name="disconnect")

    def _measure_only(self) -> None:
        self.go("baseline")
        self.baseline_page.start()

    def _measure_again(self) -> None:
        self.go("again")
        self.again_page.start()

    def tune_and_measure(self, plan: Plan | None = None, *, ask: bool = True) -> None:
        """The one click: baseline, the safe tweaks under the guard, measure again, results.
        `plan`: the Baseline page's choice (with Settings' UDP test) unless given (the demo's).
        `ask`: tweaks it would hold back for the link are offered first (the scripted demo
        does not ask: they stay held back, and its results say so)."""
        chosen = plan or self.baseline.planned(self.baseline_page.chosen_plan())

        def start(allow: bool) -> None:
            self.go("baseline")
            self._flow_started_at = time.monotonic()
            self.flow.start(chosen, calibrate=self.settings.calibrate_flow,
                            allow_link_restart=allow)  # fmt: skip
            self.flow_timer.start()
            self._update_next()

        self._with_link_consent("Tune & Measure", start, ask)

    def find_what_helps(self) -> None:
        """Each recommended tweak alone, with the Baseline page's plan; the time it takes is
        said before it starts (and the time left at each step, on the Tune page's log)."""
        from sbctune.workflow.attributing import estimate_seconds, plan_seconds

        chosen = self.baseline.planned(self.baseline_page.chosen_plan())
        plan = self.tuning.plan
        count = sum(i.applicable and i.tweak.recommended and not i.tweak.advanced
                    for i in plan.items) if plan else 0  # fmt: skip

        def start(allow: bool) -> None:
            if count:
                minutes = (estimate_seconds(chosen, count) + plan_seconds(chosen)) / 60
                self.statusBar().showMessage(
                    f"Find what helps: a baseline and {count} tweak(s) one at a time, "
                    f"about {minutes:.0f} min"
                )
            self.go("baseline")
            self._flow_started_at = time.monotonic()
            self.flow.start(chosen, find=True, tweaks=count, allow_link_restart=allow)
            self.flow_timer.start()
            self._update_next()

        self._with_link_consent("Find what helps", start)

    def _with_link_consent(
        self, what: str, start: Callable[[bool], None], ask: bool = True
    ) -> None:
        """Start the flow; first, when its plan would hold tweaks back because they drop the
        link this app reaches the Pi through, say which and offer the Tune page's consent. A
        consent already given there counts; the answer given here is the Tune page's too."""
        from sbctune.workflow import problem_from
        from sbctune.workflow.link_consent import held_before_run

        state = self.state.model
        session, inventory = state.session, state.inventory
        agreed = self.tuning.allow_link_restart
        if agreed or not ask or session is None or inventory is None or self.flow.running:
            start(agreed)
            return
        nic = state.nic

        def answered(allow: bool) -> None:
            self.consent_question = None
            if not self.tuning.running:
                self.tuning.allow_link_restart = allow
                self.tune_page.consent_box.setChecked(allow)
            start(allow)

        async def check() -> None:
            self.statusBar().showMessage("Checking which tweaks would drop the network link…")
            held = await held_before_run(session, inventory, nic)
            self.statusBar().clearMessage()
            if not held:
                start(False)
                return
            from sbctune.tuning.words import tweak_title
            from sbctune.ui.widgets.link_consent_question import LinkConsentQuestion

            titles = [tweak_title(i.tweak.id) for i in held]
            self.consent_question = LinkConsentQuestion(self, what, titles, answered)
            self.consent_question.open()

        self.runner.start(check(), name="link-consent",
                          on_error=lambda exc: self._flow_failed(problem_from(exc)))  # fmt: skip

    def _flow_step(self, step: str, status: str, detail: str) -> None:
        from sbctune.workflow.steps import CALIBRATE

        key = STEP_PAGE.get(step) or SHOWN_ON.get(step, step)
        if status == "started" and key in self.pages:
            self.go(key)
        if step == "tune" or SHOWN_ON.get(step) == "tune":
            self.tune_page.flow_progress(status, detail)
        elif key in self.step_pages:
            self.step_pages[key].flow_progress(status, detail)
        if step == CALIBRATE.id and status == "done":  # the run-to-run spread, in words
            self.baseline_page.status.setText(f"A/A calibration, {detail}")
        if step == "results" and status == "done":
            self.go("results")
            # The figures are on the page; the status bar is too narrow for them.
            self.statusBar().showMessage("Tune & Measure finished: see the results.", 10000)
        else:
            title = CALIBRATE.title if step == CALIBRATE.id else self.step_titles.get(key, step)
            self.statusBar().showMessage(f"{title}: {status}.", 10000)

    def _flow_failed(self, problem: Problem) -> None:
        """Shown where the user is; the measure pages stop their live view themselves."""
        self.pages[self.current_key()].show_problem(problem)

    def _flow_cancelled(self) -> None:
        self.statusBar().showMessage("Cancelled; the tuning (if any) was reverted.", 15000)

    def _baseline_done(self, record: RunRecord) -> None:
        """A baseline alone: the path goes on to Tune ("Next", focused), not past it; one
        measured again after tuning goes to the results, where before and after meet."""
        if self.state.after is None:
            self._update_next()
        else:
            self._measure_done(record)

    def _measure_done(self, _record: RunRecord) -> None:
        if self.flow.running:
            return
        # On the next turn of the loop: saving the run and drawing the results page
        # are each a short block; together they would be one long one.
        QTimer.singleShot(0, lambda: self.go("results"))

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

    # ------------------------------------------------------------------ closing
    def _ask_close_while_armed(self, left: float) -> None:
        """The tuning is armed: keep it, revert it now, or let the Pi's guard revert it. Shown
        with open(), not exec(): the event loop (and the countdown) keep running."""
        box = QMessageBox(self)
        box.setIcon(QMessageBox.Icon.Question)
        box.setWindowTitle("The tuning is not kept yet")
        box.setText(
            f"The settings applied to the Pi are armed: its guard reverts them in {left:.0f} s "
            "unless you keep them, even after sbctune is closed."
        )
        keep = box.addButton("Keep the settings", QMessageBox.ButtonRole.AcceptRole)
        box.addButton("Revert now", QMessageBox.ButtonRole.DestructiveRole)
        let = box.addButton(f"Let it revert in {left:.0f} s", QMessageBox.ButtonRole.RejectRole)
        stay = box.addButton("Don't close", QMessageBox.ButtonRole.NoRole)
        box.setDefaultButton(stay)
        self._close_question = box

        def answered(button: object) -> None:
            self._close_question = None
            if button is stay:
                return
            if button is let:
                self._close_question = box  # asked: close without asking again
                self.close()
                return
            signal = self.tuning.confirmed if button is keep else self.tuning.reverted
            self._close_question = box

            def done(_session_id: str) -> None:
                signal.disconnect(done)
                self.close()

            signal.connect(done)
            (self.tuning.confirm if button is keep else self.tuning.revert)()

        box.buttonClicked.connect(answered)
        box.open()

    def closeEvent(self, event: QCloseEvent) -> None:
        """Stop running work first: iperf3 on both sides, and tuning (the flow reverts)."""
        self.settings.save_window_state(self.saveGeometry(), self.saveState())
        if not self.ready:  # closed while starting: nothing runs yet
            event.accept()
            return
        left = None if self._closing else self.tuning.guard_left()
        if left is not None and self._close_question is None:
            event.ignore()  # asked first, even when the link is gone: the guard still runs
            self._ask_close_while_armed(left)
            return
        if self._closing or (not self.runner.running and self.state.session is None):
            event.accept()
            return
        event.ignore()
        self._closing = True
        self.statusBar().showMessage("Stopping running work and closing the connection…")

        async def shutdown() -> None:
            try:
                await self.runner.shutdown()
                await self.connection.close_session()
            finally:
                self.close()

        # Held here, not by the runner: the runner's shutdown cancels what it holds.
        self._shutdown_task = asyncio.get_event_loop().create_task(shutdown())
