"""Every control has a name a screen reader can say: inputs an accessible name (or the form
label whose buddy they are), buttons their text or an accessible name. Qt's own parts of a
control (a combo box's popup list, a table's headers and corner button) are left out: they
carry their own accessible roles.
"""

from __future__ import annotations

from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSpinBox,
    QComboBox,
    QLabel,
    QLineEdit,
    QMenu,
    QPlainTextEdit,
    QTextEdit,
    QWidget,
)

from sbctune.ui.main_window import EXTRA, MainWindow
from sbctune.ui.selftest import load_sample_data

INPUTS = (QLineEdit, QComboBox, QAbstractSpinBox, QAbstractItemView, QPlainTextEdit, QTextEdit)


def _inside_a_control(widget: QWidget) -> bool:
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, (QComboBox, QAbstractSpinBox, QAbstractItemView)):
            return True
        parent = parent.parentWidget()
    return False


def unnamed(root: QWidget) -> list[str]:
    buddies = {lab.buddy() for lab in root.window().findChildren(QLabel) if lab.buddy()}
    missing = []
    for widget in root.findChildren(QWidget):
        # a popup's own window (pyqtgraph's disabled "Plot Options" menu, parented to its plot
        # so that it goes with it) is not on the page: the user never reaches its widgets
        if _inside_a_control(widget) or widget.window() is not root.window():
            continue
        if isinstance(widget, INPUTS):
            named = widget.accessibleName() or widget in buddies or widget.focusProxy() in buddies
        elif isinstance(widget, QAbstractButton):
            named = widget.accessibleName() or widget.text().replace("&", "").strip()
        else:
            continue
        if not named:
            missing.append(f"{type(widget).__name__} {widget.objectName()!r}")
    return missing


def test_every_control_on_every_page_has_a_name(window: MainWindow) -> None:
    load_sample_data(window)
    missing = {key: found for key in (*window.path, *EXTRA) if (found := unnamed(window.page(key)))}
    assert not missing, missing


def test_the_check_sees_a_nameless_field(window: MainWindow) -> None:
    holder = QWidget(window)
    QLineEdit(holder)
    assert unnamed(holder) == ["QLineEdit ''"]


def test_the_check_passes_over_a_popup_only(window: MainWindow) -> None:
    """A nameless field in a popup window parented to the page is not on the page; one in a
    plain child widget is."""
    holder = QWidget(window)
    popup = QMenu(holder)
    QLineEdit(popup)
    assert unnamed(holder) == []
    QLineEdit(QWidget(holder))
    assert unnamed(holder) == ["QLineEdit ''"]
