"""At 150 % on a 1366 x 768 screen the Connect page shows every field with an error under it,
without a scroll bar (walk ux30, screens 02/04/08: the error pinned under the page left the
view 44-58 px too short, and the keyring row and Key file were cut at the fold)."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect
from PySide6.QtWidgets import QApplication, QWidget

from sbctune.remote.errors import AuthFailed, ConnectionRefused, ConnectTimeout
from sbctune.ui.main_window import MainWindow
from sbctune.ui.pages.connect_page import ConnectPage
from sbctune.workflow.problems import problem_from

# 1366 x 768 at QT_SCALE_FACTOR 1.5, maximized under openbox: 911 x 498 (the walk's window).
AT_150 = (911, 498)


def _on_window(widget: QWidget, window: MainWindow) -> QRect:
    return QRect(widget.mapTo(window, QPoint(0, 0)), widget.size())


def test_every_field_is_seen_with_an_error_at_150(
    window: MainWindow, gui_app: QApplication
) -> None:
    window.resize(*AT_150)
    window.show()
    window.go("connect")
    page = window.page("connect")
    assert isinstance(page, ConnectPage)
    for _ in range(5):
        gui_app.processEvents()
    fields = (page.host, page.port, page.user, page.password, page.remember, page.key_file)
    before = [_on_window(field, window) for field in fields]
    for error in (
        ConnectionRefused("198.18.0.2", 2222),
        ConnectTimeout("198.18.0.77", 20),
        AuthFailed("pi", "198.18.0.2", password=True),
    ):
        problem = problem_from(error)
        page.problem.show_problem(problem.message, problem.hint)
        for _ in range(5):
            gui_app.processEvents()
        bar = page.verticalScrollBar()
        assert bar.maximum() == 0 and not bar.isVisible(), (problem.message, bar.maximum())
        view = _on_window(page.viewport(), window)
        for field, old in zip(fields, before, strict=True):
            now = _on_window(field, window)
            assert view.contains(now), (field.accessibleName(), now, view)
            assert now.topLeft() == old.topLeft(), field.accessibleName()
        assert page.problem.isVisible()
        assert _on_window(page, window).contains(_on_window(page.problem, window))
    window.close()
