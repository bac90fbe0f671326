"""The first window's size: what the pages were laid out for, limited to the screen it opens on.

A fixed size put the title-bar buttons and the status bar off-screen on small or scaled screens
(800 x 600, or 1366 x 768 at 150 %); there the window opens maximized instead.
"""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize
from PySide6.QtWidgets import QWidget

PREFERRED = QSize(1100, 780)  # logical px: every page without scrolling
FRAME = QSize(16, 40)  # room for the window manager's frame and title bar, roughly


def fits(size: QSize, available: QRect) -> bool:
    """Whether a window of `size` (its frame added) fits the screen's free area."""
    return (
        size.width() + FRAME.width() <= available.width()
        and size.height() + FRAME.height() <= available.height()
    )


def first_geometry(available: QRect) -> tuple[QRect, bool]:
    """The window's geometry on a screen whose free area (no taskbar) is `available`, and
    whether to open maximized because the preferred size does not fit."""
    if fits(PREFERRED, available):
        rect = QRect(0, 0, PREFERRED.width(), PREFERRED.height())
        rect.moveCenter(available.center())
        return rect, False
    width = max(1, available.width() - FRAME.width())
    height = max(1, available.height() - FRAME.height())
    return QRect(available.left(), available.top(), width, height), True


def show_fitted(window: QWidget, restored: bool) -> None:
    """Show `window` within its screen: a restored geometry is kept only while it still fits
    (the screen may have changed since); otherwise the preferred size, or maximized."""
    screen = window.screen()
    available = screen.availableGeometry() if screen is not None else QRect(0, 0, 1100, 780)
    if restored and window.isMaximized():
        window.showMaximized()
        return
    if restored and fits(window.size(), available):
        window.show()
        return
    rect, maximize = first_geometry(available)
    window.setGeometry(rect)
    if maximize:
        window.showMaximized()
    else:
        window.show()
