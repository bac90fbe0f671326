"""An error under the Connect page leaves the page without a scroll bar at 800 x 600 (walk
ux29/ux30 on X: a refused connection's error, pinned under the page, made the view 7 px too
short for its cards, and a scroll bar appeared beside the fields for nothing)."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

from sbctune.remote.errors import AuthFailed, ConnectionRefused, ConnectTimeout
from sbctune.ui.main_window import MainWindow
from sbctune.ui.pages.connect_page import ConnectPage
from sbctune.workflow.problems import problem_from

# An 800 x 600 screen maximized under openbox: the window's size as Qt gave it on Xvfb.
ON_X = (800, 581)


def test_connect_errors_give_no_scroll_bar(window: MainWindow, gui_app: QApplication) -> None:
    window.resize(*ON_X)
    window.show()
    window.go("connect")
    page = window.page("connect")
    assert isinstance(page, ConnectPage)
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
        assert page.problem.isVisible()
    window.close()
