"""iperf3 missing on the Pi, in the window: the offer shows the exact command, declining changes
nothing, accepting installs it and the measurement goes on.

The Pi without iperf3 is the lab seen through a PATH without it (as in
tests/integration/test_measure_errors.py). The lab has no package mirror, so for the accepted
install the PATH holds a stand-in `apt-get` that "installs" iperf3 by linking the lab's real
one into that PATH; sudo, SSH and iperf3 are real. The real apt-get's failure path is tested in
tests/integration/test_measure_errors.py.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from sbctune.lab.model import LabInfo
from sbctune.ui.main_window import MainWindow
from sbctune.ui.pages.measure_page import MeasurePage
from sbctune.ui.widgets.dialogs import InstallIperf3Dialog
from tests.gui.conftest import until
from tests.gui.test_wizard_lab import ONE_TRIAL, connect_via_dialog
from tests.integration.test_measure_errors import APT_COMMAND, PathSession

pytestmark = [pytest.mark.lab, pytest.mark.slow]
Drive = Callable[..., Any]
_BIN_DIRS = ("/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin")


@pytest.fixture
def pi_without_iperf3() -> Iterator[Path]:
    """A PATH folder: links to every program except iperf3, and a stand-in apt-get."""
    real = shutil.which("iperf3")
    assert real, "the lab needs iperf3"
    folder = Path(tempfile.mkdtemp(prefix="sbctune-gui-noiperf3-", dir="/tmp"))
    os.chmod(folder, 0o755)
    try:
        for source in _BIN_DIRS:
            if os.path.isdir(source):
                for name in os.listdir(source):
                    link = folder / name
                    if name not in ("iperf3", "apt-get") and not os.path.lexists(link):
                        link.symlink_to(os.path.join(source, name))
        apt = folder / "apt-get"
        apt.write_text(
            "#!/bin/sh\n"
            "# Stand-in for the Pi's apt-get: installing iperf3 links the lab's real one.\n"
            f'case " $* " in *" install "*) ln -sf {real} {folder}/iperf3 ;; esac\n'
            "exit 0\n",
            encoding="utf-8",
        )
        apt.chmod(0o755)
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _install_dialog(window: MainWindow) -> InstallIperf3Dialog | None:
    found = [d for d in window.findChildren(InstallIperf3Dialog) if d.isVisible()]
    return found[0] if found else None


async def _connected_without_iperf3(window: MainWindow, lab: LabInfo, folder: Path) -> None:
    await connect_via_dialog(window, lab)
    await until(lambda: window.state.inventory is not None, 60, "the inventory")
    real = window.state.session
    assert real is not None
    window.state.session = PathSession(real, str(folder))


def test_declining_the_install_changes_nothing(
    module_lab: LabInfo, window: MainWindow, drive: Drive, pi_without_iperf3: Path
) -> None:
    lab = module_lab
    page = window.page("baseline")
    assert isinstance(page, MeasurePage)

    async def scenario() -> None:
        await _connected_without_iperf3(window, lab, pi_without_iperf3)
        window.go("baseline")
        page.start_button.click()
        await until(lambda: _install_dialog(window), 30, "the install offer")
        dialog = _install_dialog(window)
        assert dialog is not None
        assert dialog.command.text() == APT_COMMAND, "the exact command, before any change"
        assert dialog.decline.isDefault(), "Enter must not install software"
        QTest.keyClick(dialog, Qt.Key.Key_Return)  # the default button: Not now
        await until(page.problem.isVisible, 30, "the error")
        await window.baseline.wait()

    drive(scenario(), timeout=120)
    assert page.problem.message.text().startswith("iperf3 is not installed on the Pi (")
    assert APT_COMMAND in page.problem.hint.text()
    assert "--install-iperf3" not in page.problem.hint.text(), "the GUI's words, not the CLI's"
    assert not (pi_without_iperf3 / "iperf3").exists(), "nothing was installed"
    assert window.state.baseline is None
    assert window.state.device_id is not None
    assert window.history.runs_for_device(window.state.device_id) == []


def test_accepting_the_install_installs_and_measures(
    module_lab: LabInfo, window: MainWindow, drive: Drive, pi_without_iperf3: Path
) -> None:
    lab = module_lab
    page = window.page("baseline")
    assert isinstance(page, MeasurePage)
    said: list[str] = []

    async def scenario() -> None:
        await _connected_without_iperf3(window, lab, pi_without_iperf3)
        window.go("baseline")
        window.baseline.start(ONE_TRIAL)
        await until(lambda: _install_dialog(window), 30, "the install offer")
        dialog = _install_dialog(window)
        assert dialog is not None
        dialog.install.click()
        while window.baseline.running:
            if not said or said[-1] != page.status.text():
                said.append(page.status.text())
            await asyncio.sleep(0.02)
        await window.baseline.wait()

    drive(scenario(), timeout=180)
    assert not page.problem.isVisible(), page.problem.message.text()
    assert f"Installing iperf3 on the Pi: {APT_COMMAND}" in said, said
    assert (pi_without_iperf3 / "iperf3").is_symlink(), "installed through the Pi's sudo"
    record = window.state.baseline
    assert record is not None and record.complete
    assert [t.direction for t in record.tests] == ["pi_to_pc", "pc_to_pi"]
    assert all(t.mean_mbps for t in record.tests)
