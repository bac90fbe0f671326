"""A problem shown at the foot of a page is scrolled into sight (seen on a real X server at
1366 × 768, 150 %: after refusing a host key the message was below the fold)."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

from sbctune.ui.main_window import MainWindow
from sbctune.ui.pages.connect_page import ConnectPage


def test_a_problem_below_the_fold_is_scrolled_into_sight(
    window: MainWindow, gui_app: QApplication
) -> None:
    window.resize(911, 512)  # 1366 x 768 at 150 %
    window.go("connect")
    page = window.page("connect")
    assert isinstance(page, ConnectPage)
    gui_app.processEvents()
    page.verticalScrollBar().setValue(0)
    page.problem.show_problem(
        "This is the first connection to 198.18.0.2. Its key was not trusted, so sbctune did "
        "not log in.",
        "Connect again and compare the fingerprint before you trust it. " * 4,
    )
    for _ in range(3):
        gui_app.processEvents()
    # Pinned under the scrolled view (walk 14: scrolling to it moved the fields), inside the page.
    top = page.problem.mapTo(page, page.problem.rect().topLeft())
    bottom = top.y() + page.problem.height()
    assert top.y() >= page.viewport().geometry().bottom(), (top.y(), page.viewport().geometry())
    assert bottom <= page.height(), (top.y(), bottom)
    assert page.problem.hint.height() >= page.problem.hint.heightForWidth(
        page.problem.hint.width()
    ), "the hint is not cut"
