"""Every string the app shows (every page with the self-test's sample data, and the dialogs)
reads in plain words: no tweak ids, raw statuses, seed numbers or file names, shell one-liners
or backticks (tests/plain_words.py). The tweaks' commands are shown only when asked for
("Show commands"), so those previews are left out."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import (
    QAbstractButton,
    QComboBox,
    QLabel,
    QListWidget,
    QPlainTextEdit,
    QTableWidget,
    QTextEdit,
    QWidget,
)

from sbctune.measure.install import plan_iperf3_install
from sbctune.ui.main_window import EXTRA, MainWindow
from sbctune.ui.selftest import SAMPLE_KEY, load_sample_data
from sbctune.ui.widgets.dialogs import HostKeyDialog, InstallIperf3Dialog
from tests.plain_words import jargon

CAPTURES = Path(__file__).resolve().parents[1] / "captures"
ASKED_FOR = {"commands", "fingerprintCommand", "installCommand"}  # objectNames of command previews


def _asked_for(widget: QWidget) -> bool:
    while widget is not None:
        if widget.objectName() in ASKED_FOR:
            return True
        widget = widget.parentWidget()  # type: ignore[assignment]
    return False


def texts(root: QWidget) -> list[str]:
    """Every text a user can read under `root`: labels, buttons, tooltips, tables, lists."""
    found = []
    for widget in [root, *root.findChildren(QWidget)]:
        if _asked_for(widget):
            continue
        found.append(widget.toolTip())
        found.append(widget.accessibleName())
        if isinstance(widget, (QLabel, QAbstractButton)):
            found.append(widget.text())
        elif isinstance(widget, (QPlainTextEdit, QTextEdit)):
            found.append(widget.toPlainText())
        elif isinstance(widget, QTableWidget):
            for row in range(widget.rowCount()):
                for col in range(widget.columnCount()):
                    item = widget.item(row, col)
                    if item is not None:
                        found += [item.text(), item.toolTip()]
        elif isinstance(widget, QListWidget):
            found += [widget.item(i).text() for i in range(widget.count())]
        elif isinstance(widget, QComboBox):  # every choice, not only the one shown
            found += [widget.itemText(i) for i in range(widget.count())]
    return [t for t in found if t]


def test_the_app_speaks_plainly(window: MainWindow) -> None:
    load_sample_data(window)
    found = {}
    for key in (*window.path, *EXTRA):
        window.go(key)
        page = window.page(key)
        if hits := [h for t in texts(page) for h in jargon(t)]:
            found[key] = hits
    os_release = CAPTURES / "os_release" / "pi4_bullseye_64bit_214.txt"  # a real Pi's
    plan = plan_iperf3_install(os_release.read_text(encoding="utf-8"), ["apt-get"])
    for name, dialog in (
        ("host-key dialog", HostKeyDialog(SAMPLE_KEY, window)),
        ("install dialog", InstallIperf3Dialog(plan, window)),
    ):
        if hits := [h for t in texts(dialog) for h in jargon(t)]:
            found[name] = hits
    assert not found, "\n".join(f"{k}: {h}" for k, hs in found.items() for h in hs)


def test_the_scan_sees_jargon() -> None:
    assert jargon("Tweaks: rps-rfs") and jargon("status not_possible")
    assert jargon("Seed 000's figures") and jargon("see 000_9ed8ab94a97b9137.txt")
    assert jargon("Thorough (the seed method: 10 streams)")
    assert jargon("run `ssh-keygen`") and jargon("sh -c 'printf \"%s\" | tee x'")
    assert jargon("receive work of eth1 on CPUs [0, 1, 2, 3]") and jargon("interrupts [46]")
    assert jargon("not possible — /proc/irq/46/smp_affinity: Invalid argument")
    assert jargon("writing session 20261128T180000Z-3fa9c1 and its revert script")
    assert jargon("to /var/lib/sbctune/tuning/x") and jargon("tuning session 20220108T101000Z-a1")
    assert not jargon("tuning applied at 18:00; kept on the Pi so it can be put back")
    assert not jargon("Receive packet steering spreads the work; RPS is on.")
    assert not jargon("receive work of eth1 on CPUs 0, 1; [ 12.3] a kernel line's stamp")
