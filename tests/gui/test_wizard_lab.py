"""The wizard against the virtual Pi lab: real SSH, real iperf3, the real window (offscreen)."""

from __future__ import annotations

import asyncio
import subprocess
import time
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import asyncssh
import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QWidget

from sbctune.lab.model import LabInfo
from sbctune.measure.plans import plan_named
from sbctune.ui.main_window import MainWindow
from sbctune.ui.pages.connect_page import ConnectPage
from sbctune.ui.pages.inspect_page import InspectPage
from sbctune.ui.pages.measure_page import MeasurePage
from sbctune.ui.pages.results_page import ResultsPage
from sbctune.ui.pages.settings_page import SettingsPage
from sbctune.ui.pages.tune_page import TunePage
from sbctune.ui.units import rate
from sbctune.ui.widgets.dialogs import HostKeyDialog
from sbctune.workflow.keeping import NO_INTERVAL
from tests.gui.conftest import SCREENSHOTS, until
from tests.lab_support import connect_to_lab

pytestmark = [pytest.mark.lab, pytest.mark.slow]

# The chip of the NIC under test in each profile, as its captures name it
# (resources/lab/profiles/<profile>/: lsusb and the kernel log; sources in SOURCE.md).
PROFILE_CHIP = {"pi4-ax88179": "AX88179", "pi4-rtl8153": "RTL8153"}
# One trial per direction: these tests are about the window, not trials (the trials and their
# interval are tested in tests/integration/test_compare_export_lab.py and test_flow.py).
SHORT = plan_named("quick").with_overrides(duration=4, omit=1, trials=1)
ONE_TRIAL = plan_named("quick").with_overrides(duration=2, omit=1, trials=1)
Drive = Callable[..., Any]


@pytest.fixture(autouse=True)
def no_runtime_warnings() -> Iterator[None]:
    """numpy's "invalid value" (a non-finite value reached a plot: the first latency probes
    were at -inf seconds) or another RuntimeWarning while the window runs fails the test.
    Raised inside Qt's paint event, "-W error" would only print it, and pyqtgraph's paint
    does not always reach the warnings module: numpy calls back here too."""
    found: list[str] = []
    previous = np.seterrcall(lambda err, flag: found.append(f"numpy: {err} ({flag})"))
    try:
        with (
            np.errstate(invalid="call", divide="call", over="call"),
            warnings.catch_warnings(record=True) as caught,
        ):
            warnings.simplefilter("always", RuntimeWarning)
            yield
    finally:
        np.seterrcall(previous)
    found += [f"{w.filename}:{w.lineno}: {w.message}" for w in caught
              if issubclass(w.category, RuntimeWarning)]  # fmt: skip
    assert not found, found


def _page(window: MainWindow, key: str, kind: type[Any]) -> Any:
    page = window.page(key)
    assert isinstance(page, kind)
    return page


def _host_key_dialog(window: MainWindow) -> HostKeyDialog | None:
    found = [d for d in window.findChildren(HostKeyDialog) if d.isVisible()]
    return found[0] if found else None


def _fingerprint(lab: LabInfo) -> str:
    key = asyncssh.read_public_key(Path(lab.state_dir) / "ssh" / "ssh_host_ed25519_key.pub")
    return str(key.get_fingerprint("sha256"))


def _fill(page: ConnectPage, host: str, port: int, user: str, password: str) -> None:
    page.host.setEditText(host)
    page.port.setValue(port)
    page.user.setText(user)
    page.use_password.setChecked(True)
    page.password.setText(password)


async def connect_via_dialog(window: MainWindow, lab: LabInfo) -> None:
    """Fill the form, click Connect, trust the key in the dialog; wait for Inspect."""
    page = _page(window, "connect", ConnectPage)
    _fill(page, lab.host, lab.port, lab.user, lab.password)
    page.connect_button.click()
    await until(lambda: _host_key_dialog(window), 20, "the host-key dialog")
    dialog = _host_key_dialog(window)
    assert dialog is not None
    assert dialog.fingerprint.text() == _fingerprint(lab)
    dialog.trust.click()
    await until(lambda: window.state.session is not None, 20, "the connection")


def _listening_on(addr: str) -> list[str]:
    out = subprocess.run(["ss", "-Hltn"], capture_output=True, text=True, check=True).stdout
    return [line for line in out.splitlines() if f"{addr}:" in line]


async def save_screens(window: MainWindow, app: QApplication, prefix: str) -> None:
    """Every page in both themes, each once it has finished loading (the Tune page reads the
    Pi's settings when first shown: the screenshot waits for the tweaks)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    original = window.theme.choice
    tune = _page(window, "tune", TunePage)
    try:
        for theme in ("light", "dark"):
            window.theme.apply(theme)
            for key in window.pages:
                window.go(key)
                if key == "tune" and window.state.session is not None:
                    await until(
                        lambda: tune.tweak_rows and not window.tuning.running, 60, "the tweaks"
                    )
                await asyncio.sleep(0.05)
                app.processEvents()
                assert window.grab().save(str(SCREENSHOTS / f"{prefix}-{key}-{theme}.png"))
    finally:
        window.theme.apply(original)


def test_the_path_against_the_lab(
    module_lab: LabInfo, window: MainWindow, drive: Drive, gui_app: QApplication, tmp_path: Path
) -> None:
    lab = module_lab
    profile = Path(lab.profile).name

    async def scenario() -> None:
        await connect_via_dialog(window, lab)
        # Inspect opens by itself and reads the Pi.
        inspect = _page(window, "inspect", InspectPage)
        await until(lambda: window.state.inventory is not None, 60, "the inventory")
        assert window.current_key() == "inspect"
        card = next(c for c in inspect.nic_cards if c.nic.name == lab.test_nic.name)
        chip_texts = [w.text() for w in card.findChildren(type(card.title))]
        assert any(PROFILE_CHIP[profile] in t for t in chip_texts), chip_texts
        assert card.pick.isChecked(), "the NIC the PC is reached through is picked"
        assert inspect.go.isEnabled()

        # Baseline, live: at least one point per second, redrawn at least twice a second.
        window.go("baseline")
        page = _page(window, "baseline", MeasurePage)
        window.baseline.start(SHORT)
        await until(lambda: page.live is not None and page.live.current is not None, 30, "start")
        live = page.live
        assert live is not None
        seen: list[tuple[float, int, int]] = []
        while window.baseline.running:
            seen.append((time.monotonic(), live.points, page.redraws))
            await asyncio.sleep(0.1)
        await window.baseline.wait()
        record = window.state.baseline
        assert record is not None and record.complete, page.problem.message.text()
        per_test = SHORT.tests[0].duration + SHORT.tests[0].omit
        assert live.points >= len(SHORT.tests) * per_test
        curve_points = 0
        for direction in ("pi_to_pc", "pc_to_pi"):
            ys = page.throughput.curves[direction].getData()[1]
            curve_points += 0 if ys is None else sum(1 for y in ys if y == y)  # NaN: gaps
        assert curve_points == live.points, "every received point is plotted"
        # Between the first and the last point, no second passes without a new point.
        first = next(i for i, s in enumerate(seen) if s[1] > 0)
        last = max(i for i, s in enumerate(seen) if s[1] == seen[-1][1] and s[1] > 0)
        gaps = []
        prev_t, prev_n = seen[first][0], seen[first][1]
        for t, n, _r in seen[first : last + 1]:
            if n > prev_n:
                gaps.append(t - prev_t)
                prev_t, prev_n = t, n
        # The switches between tests (endpoint restart, iperf3 start on the Pi) are excluded:
        # one after each test but the last (the quick plan now interleaves several trials).
        switches = len(SHORT.tests) - 1
        assert sorted(gaps)[-(switches + 1)] <= 1.3, gaps
        span = seen[last][0] - seen[first][0]
        redraws = seen[last][2] - seen[first][2]
        assert redraws / span >= 2.0, (redraws, span)

        # A baseline alone leads on to Tune (not past it): "Next: Tune".
        bar = window.next_bar
        await until(lambda: bar.next_button.isVisible(), 5, "Next: Tune")
        assert window.current_key() == "baseline"
        assert bar.next_button.text() == "&Next: Tune"
        bar.next_button.click()
        assert window.current_key() == "tune"
        await until(lambda: not window.tuning.running, 60, "the tweaks read")

        # Results: the table shows exactly what the history stored.
        window.go("results")
        results = _page(window, "results", ResultsPage)
        stored = window.history.run(record.id or 0)
        units = window.settings.units
        table = results.table
        for row, test in enumerate(stored.tests):
            item = table.item(row, 2)
            assert item is not None and item.text() == rate(test.mean_mbps, units)

        # Exports land on disk, one file per available format.
        results.folder.setText(str(tmp_path))
        wanted = [f for f, b in results.export_buttons.items() if b.isEnabled()]
        assert {"csv", "json", "md", "html", "svg", "bundle"} <= set(wanted)
        assert not results.export_buttons["ansible"].isEnabled(), "no kept tweaks yet"
        for fmt in wanted:
            results.export_buttons[fmt].click()

        def written() -> set[str]:
            return {p.suffix for p in tmp_path.glob("sbctune-runs-*")}

        await until(
            lambda: len(written()) >= len(wanted) or results.export_problem.isVisible(),
            60,
            "exports",
        )  # an export's problem shows in the export card (the s13 walk)
        assert not results.export_problem.isVisible(), results.export_problem.message.text()
        for path in tmp_path.glob("sbctune-runs-*"):
            assert path.stat().st_size > 0, path
        # What was written can be opened from here, or its folder shown.
        assert results.opened.isVisible()
        assert str(tmp_path) in results.show_folder_button.toolTip()
        assert results.open_button.toolTip().removeprefix("Open ") in {
            str(p) for p in tmp_path.glob("sbctune-runs-*")
        }

    drive(scenario(), timeout=240)
    drive(save_screens(window, gui_app, "lab"), timeout=120)


def test_quitting_mid_test_saves_what_was_measured(
    module_lab: LabInfo, window: MainWindow, drive: Drive
) -> None:
    """Closing the window while a baseline runs stops it as Cancel does, and the seconds
    measured are stored, marked incomplete, before the window goes."""
    lab = module_lab

    async def scenario() -> None:
        await connect_via_dialog(window, lab)
        await until(lambda: window.state.inventory is not None, 60, "the inventory")
        window.go("baseline")
        page = _page(window, "baseline", MeasurePage)
        page.start()
        await until(lambda: page.live is not None and page.live.points >= 3, 40, "live points")
        window.close()  # the user quits mid-test
        await until(lambda: window._shutdown_task is not None, 5, "the quit to start")
        assert window._shutdown_task is not None
        await asyncio.wait_for(asyncio.shield(window._shutdown_task), 30)
        (device,) = window.history.devices()
        (stored,) = window.history.runs_for_device(device.id or 0)
        assert not stored.complete
        assert stored.tests and stored.tests[0].mean_mbps and stored.tests[0].intervals

    drive(scenario(), timeout=180)


def test_cancel_mid_test_leaves_nothing_running(
    module_lab: LabInfo, window: MainWindow, drive: Drive, tmp_path: Path
) -> None:
    lab = module_lab

    async def scenario() -> None:
        await connect_via_dialog(window, lab)
        await until(lambda: window.state.inventory is not None, 60, "the inventory")
        window.go("baseline")
        page = _page(window, "baseline", MeasurePage)
        page.start()  # the quick plan: 2 × 11 s
        await until(lambda: page.live is not None and page.live.points >= 3, 40, "live points")
        assert page.cancel_button.isEnabled()
        page.cancel_button.click()
        await until(lambda: not window.baseline.running, 20, "the cancellation")
        await window.baseline.wait()
        # What was measured is kept, as the CLI's Ctrl-C keeps it: stored, marked incomplete,
        # and shown; it is not taken as the baseline.
        partial = page.partial
        assert partial is not None and partial.id is not None
        assert page.status.text().startswith("Stopped early: cancelled by the user")
        assert f"saved as run {partial.id}, marked incomplete" in page.status.text()
        stored = window.history.run(partial.id)
        assert not stored.complete
        assert stored.tests and all(not t.complete for t in stored.tests)
        assert stored.tests[0].mean_mbps and len(stored.tests[0].intervals) >= 2
        assert page.results_card.isVisible()
        complete_cell = page.table.item(0, page.table.columnCount() - 1)
        assert complete_cell is not None and complete_cell.text() == "NO"
        assert window.state.baseline is None
        # Nothing left: no iperf3 client of this lab on the Pi (asked over a second SSH
        # session; the lab shares the PID namespace, so other labs' iperf3 are filtered out) …
        async with await connect_to_lab(lab, tmp_path / "second") as second:
            found = await second.run(["pgrep", "-a", "iperf3"])
        ours = [
            line
            for line in found.stdout.splitlines()
            if f"-c {lab.test_nic.host_addr} " in line + " " and "<defunct>" not in line
        ]
        assert not ours, ours
        # … and no endpoint listening on this PC.
        assert not _listening_on(lab.test_nic.host_addr)

    (tmp_path / "second").mkdir()
    drive(scenario(), timeout=120)


def _problem_text(page: ConnectPage) -> str:
    return page.problem.message.text() + " " + page.problem.hint.text()


def test_keyboard_only_connect_inspect_baseline(
    module_lab: LabInfo,
    window: MainWindow,
    drive: Drive,
    gui_app: QApplication,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Typing, Tab and Enter only (Alt+T to trust the key: the dialog's default is Cancel)."""
    lab = module_lab
    page = _page(window, "connect", ConnectPage)
    baseline = _page(window, "baseline", MeasurePage)
    monkeypatch.setattr(baseline, "chosen_plan", lambda: ONE_TRIAL)  # short traffic only
    window.go("connect")
    window.activateWindow()
    page.host.setEditText("")
    page.user.clear()
    page.password.clear()
    page.use_password.setChecked(True)
    page.focus_first()  # what the window does when it opens
    gui_app.processEvents()

    def focused() -> QWidget:
        widget = QApplication.focusWidget()
        assert widget is not None, "something has the keyboard focus"
        return widget

    def type_then_tab(text: str, *, select_all: bool = False) -> None:
        if select_all:
            QTest.keyClick(focused(), Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
        QTest.keyClicks(focused(), text)
        QTest.keyClick(focused(), Qt.Key.Key_Tab)

    async def scenario() -> None:
        type_then_tab(lab.host)
        type_then_tab(str(lab.port), select_all=True)
        type_then_tab(lab.user)
        QTest.keyClicks(focused(), lab.password)
        QTest.keyClick(focused(), Qt.Key.Key_Return)
        await until(lambda: _host_key_dialog(window), 20, "the host-key dialog")
        dialog = _host_key_dialog(window)
        assert dialog is not None
        QTest.keyClick(dialog, Qt.Key.Key_T, Qt.KeyboardModifier.AltModifier)
        window.activateWindow()  # as a window manager does once the dialog has gone
        await until(lambda: window.state.inventory is not None, 60, "the inventory")
        assert window.current_key() == "inspect"
        bar = window.next_bar
        await until(lambda: bar.next_button.hasFocus(), 5, "Next focused")
        assert bar.next_button.text() == "&Next: Measure a baseline"
        QTest.keyClick(focused(), Qt.Key.Key_Return)
        assert window.current_key() == "baseline"
        assert baseline.start_button.hasFocus()
        QTest.keyClick(focused(), Qt.Key.Key_Return)
        await until(lambda: window.baseline.running, 10, "the baseline starts")
        await window.baseline.wait()
        assert window.state.baseline is not None and window.state.baseline.complete
        await until(lambda: bar.next_button.hasFocus(), 5, "Next: Tune focused")
        assert bar.next_button.text() == "&Next: Tune"
        QTest.keyClick(focused(), Qt.Key.Key_Return)
        assert window.current_key() == "tune"
        await until(lambda: not window.tuning.running, 60, "the tweaks read")

    drive(scenario(), timeout=180)


def test_wrong_password_says_so(module_lab: LabInfo, window: MainWindow, drive: Drive) -> None:
    lab = module_lab
    page = _page(window, "connect", ConnectPage)

    async def scenario() -> None:
        _fill(page, lab.host, lab.port, lab.user, "not-the-password")
        page.connect_button.click()
        await until(lambda: _host_key_dialog(window), 20, "the host-key dialog")
        dialog = _host_key_dialog(window)
        assert dialog is not None
        dialog.trust.click()
        await until(page.problem.isVisible, 30, "the error")

    drive(scenario(), timeout=60)
    assert "did not accept the password for user “pi”" in _problem_text(page)
    assert "Type the password again" in _problem_text(page)
    assert window.state.session is None


def test_refused_host_key_does_not_connect(
    module_lab: LabInfo, window: MainWindow, drive: Drive
) -> None:
    lab = module_lab
    page = _page(window, "connect", ConnectPage)

    async def scenario() -> None:
        _fill(page, lab.host, lab.port, lab.user, lab.password)
        page.connect_button.click()
        await until(lambda: _host_key_dialog(window), 20, "the host-key dialog")
        dialog = _host_key_dialog(window)
        assert dialog is not None
        assert dialog.refuse.isDefault(), "Enter must not trust a key"
        dialog.refuse.click()
        await until(page.problem.isVisible, 30, "the error")

    drive(scenario(), timeout=60)
    assert f"first connection to {lab.host}" in _problem_text(page)
    assert _fingerprint(lab) in _problem_text(page)
    assert window.state.session is None


def test_changed_host_key_is_a_hard_stop(
    module_lab: LabInfo, window: MainWindow, drive: Drive, tmp_path: Path
) -> None:
    lab = module_lab
    other = asyncssh.generate_private_key("ssh-ed25519").export_public_key("openssh").decode()
    (tmp_path / "known_hosts").write_text(
        f"{lab.host} {' '.join(other.split()[:2])}\n", encoding="utf-8"
    )
    page = _page(window, "connect", ConnectPage)

    async def scenario() -> None:
        _fill(page, lab.host, lab.port, lab.user, lab.password)
        page.connect_button.click()
        await until(page.problem.isVisible, 30, "the error")

    drive(scenario(), timeout=60)
    assert _host_key_dialog(window) is None, "a changed key is never offered for trust"
    assert "has CHANGED" in _problem_text(page)
    assert _fingerprint(lab) in _problem_text(page)
    assert window.state.session is None


def test_closed_port_says_ssh_is_not_enabled(window: MainWindow, drive: Drive) -> None:
    from tests.lab_support import free_port

    page = _page(window, "connect", ConnectPage)
    port = free_port("127.0.0.1")  # nothing listens there once the probe socket closed

    async def scenario() -> None:
        _fill(page, "127.0.0.1", port, "pi", "x")
        page.connect_button.click()
        await until(page.problem.isVisible, 30, "the error")

    drive(scenario(), timeout=60)
    assert f"refused the connection on port {port}" in _problem_text(page)
    assert "Is SSH enabled on the Pi?" in _problem_text(page)


def test_unanswered_lab_address_says_cannot_reach(
    module_lab: LabInfo, window: MainWindow, drive: Drive
) -> None:
    lab = module_lab
    # An address on the lab's link that no namespace owns: ARP gets no answer.
    prefix = lab.test_nic.pi_addr.rsplit(".", 1)[0]
    silent = f"{prefix}.77"
    page = _page(window, "connect", ConnectPage)

    async def scenario() -> None:
        _fill(page, silent, 22, "pi", "x")
        page.connect_button.click()
        await until(page.problem.isVisible, 40, "the error")

    drive(scenario(), timeout=60)
    text = _problem_text(page)
    assert f"Cannot reach {silent}" in text or f"No answer from {silent}" in text, text
    assert "powered on" in text or "may be off" in text
    assert page.connect_button.isEnabled(), "the form is usable again"


def _steps(window: MainWindow) -> list[tuple[str, str, str]]:
    seen: list[tuple[str, str, str]] = []
    window.flow.step.connect(lambda step, status, detail: seen.append((step, status, detail)))
    return seen


def _one_trial_plan(window: MainWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    """The Baseline page's pick, as the one click reads it, is a plan of one short trial."""
    monkeypatch.setattr(window.baseline_page, "chosen_plan", lambda: ONE_TRIAL)


def test_one_click_tune_and_measure(
    lab: LabInfo,
    window: MainWindow,
    drive: Drive,
    gui_app: QApplication,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _one_trial_plan(window, monkeypatch)
    # The A/A calibration as a user turns it on: Settings, "measure the baseline twice first".
    settings = _page(window, "settings", SettingsPage)
    settings.calibrate.setChecked(True)
    assert window.settings.calibrate_flow
    steps = _steps(window)
    pages: list[str] = []
    window.stack.currentChanged.connect(lambda _i: pages.append(window.current_key()))

    async def scenario() -> None:
        await connect_via_dialog(window, lab)
        await until(lambda: window.state.inventory is not None, 60, "the inventory")
        inspect = _page(window, "inspect", InspectPage)
        inspect.go.click()  # "Tune & Measure", the Baseline page's plan
        await until(lambda: not window.flow.running and steps, 240, "the one-click flow")
        await window.flow.wait()

    drive(scenario(), timeout=300)
    problems = [
        f"{key}: {p.problem.message.text()} {p.problem.hint.text()}"
        for key, p in window.pages.items()
        if getattr(p, "problem", None) is not None and not p.problem.isHidden()
    ]
    assert not problems, problems
    results = _page(window, "results", ResultsPage)
    assert not results.problem.isVisible(), results.problem.message.text()
    assert ("results", "done") in [(s, st) for s, st, _d in steps], steps
    # The window followed the flow: baseline, tune, measure again, results.
    order = [p for p in pages if p in ("baseline", "tune", "again", "results")]
    assert order[:1] == ["baseline"] and order[-1] == "results", order
    assert "tune" in order and "again" in order, order
    state = window.state
    assert state.baseline is not None and state.after is not None
    # The second baseline ran right after the first, was stored as this Pi's calibration, and
    # said its spread on the Baseline page; the "before" is still the first baseline.
    done = [s for s, st, _d in steps if st == "done"]
    assert done[:2] == ["baseline", "calibrate"], steps
    assert state.baseline.id is not None and state.baseline.device_id is not None
    cal = window.history.latest_calibration(state.baseline.device_id, state.baseline.nic)
    assert cal is not None and cal.run_a == state.baseline.id and cal.run_b > cal.run_a
    assert set(cal.spread_mbps) == {"pi_to_pc/half", "pc_to_pi/half"}
    baseline_page = _page(window, "baseline", MeasurePage)
    assert baseline_page.status.text().startswith(f"A/A calibration, run {cal.run_b}: Pi → PC")
    # One trial per direction gives no interval: the flow showed no gain, so it kept nothing,
    # reverted its tweaks, and Results says why.
    assert state.tuning is None and state.model.keep is not None
    assert state.model.keep.reason == NO_INTERVAL
    # The before/after table holds the two stored runs' figures.
    units = window.settings.units
    before = window.history.run(state.baseline.id or 0)
    after = window.history.run(state.after.id or 0)
    for row, (b, a) in enumerate(zip(before.tests, after.tests, strict=True)):
        b_item, a_item = results.table.item(row, 2), results.table.item(row, 3)
        assert b_item is not None and b_item.text() == rate(b.mean_mbps, units)
        assert a_item is not None and a_item.text() == rate(a.mean_mbps, units)
    assert not results.export_buttons["ansible"].isEnabled(), "nothing kept: no playbook"
    assert f"Tune & Measure: {NO_INTERVAL}" in results.tuning_text.text()
    assert results.tuning_card.isVisible() and not results.revert_button.isEnabled()
    drive(save_screens(window, gui_app, "flow"), timeout=120)

    # The Pi has no active tuning session afterwards.
    async def nothing_left() -> None:
        async with await connect_to_lab(lab, tmp_path) as second:
            from sbctune import tuning

            assert await tuning.find_leftover(second) is None

    drive(nothing_left(), timeout=90)


def test_cancelling_the_one_click_flow_reverts_the_tuning(
    lab: LabInfo,
    window: MainWindow,
    drive: Drive,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(window.baseline_page, "chosen_plan", lambda: SHORT)
    steps = _steps(window)

    async def scenario() -> None:
        await connect_via_dialog(window, lab)
        await until(lambda: window.state.inventory is not None, 60, "the inventory")
        _page(window, "inspect", InspectPage).go.click()
        await until(lambda: ("measure_again", "started") in [s[:2] for s in steps], 120, "tuning")
        again = _page(window, "again", MeasurePage)
        await until(lambda: again.live is not None and again.live.points >= 2, 60, "points")
        # The Cancel a user sees during the flow is the bar's under the page; the page's own
        # is hidden while the flow measures (walk27: one job, one Cancel).
        cancel = window.next_bar.cancel_button
        assert cancel.isVisibleTo(window) and cancel.isEnabled()
        assert not again.cancel_button.isVisibleTo(window)
        cancel.click()
        await until(lambda: not window.flow.running, 60, "the cancellation")
        await window.flow.wait()
        assert again.status.text().startswith("Stopped early: cancelled by the user")
        partial = again.partial
        assert partial is not None and partial.id is not None
        stored = window.history.run(partial.id)
        assert not stored.complete and stored.tests[0].intervals
        assert stored.tuning_state and stored.tuning_state["tweaks"], "measured while tuned"
        async with await connect_to_lab(lab, tmp_path) as second:
            from sbctune import tuning

            assert await tuning.find_leftover(second) is None, "the flow's tuning was reverted"
            found = await second.run(["pgrep", "-a", "iperf3"])
        ours = [
            line
            for line in found.stdout.splitlines()
            if f"-c {lab.test_nic.host_addr} " in line + " " and "<defunct>" not in line
        ]
        assert not ours, ours
        assert not _listening_on(lab.test_nic.host_addr)

    drive(scenario(), timeout=240)
