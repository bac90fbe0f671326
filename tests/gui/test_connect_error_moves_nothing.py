"""An error on the Connect page appears without moving the fields: a click aimed at "Host or IP"
still lands there (walk 14, problem 8: at 1366 x 768, 150 %, the page scrolled ~80 px to show
the error and the host was typed into the User field). The error is in view all the same."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect
from PySide6.QtWidgets import QApplication, QWidget

from sbctune.ui.main_window import MainWindow
from sbctune.ui.pages.connect_page import ConnectPage

# 1366 x 768 at 150 %: 911 x 512 device-independent pixels, less the desktop's panel.
SMALL = (900, 480)


def _on_window(widget: QWidget, window: MainWindow) -> QRect:
    return QRect(widget.mapTo(window, QPoint(0, 0)), widget.size())


def test_an_error_moves_no_field(window: MainWindow, gui_app: QApplication) -> None:
    window.resize(*SMALL)
    window.show()
    window.go("connect")
    page = window.page("connect")
    assert isinstance(page, ConnectPage)
    for _ in range(5):
        gui_app.processEvents()
    fields = (page.host, page.port, page.user)
    before = [_on_window(field, window) for field in fields]
    page.problem.show_problem(
        "The Pi refused the login: wrong user name or password.",
        "Check the user name and the password, then connect again. A Pi set up with Raspberry "
        "Pi Imager has the user and password chosen there.",
    )
    for _ in range(5):
        gui_app.processEvents()
    after = [_on_window(field, window) for field in fields]
    for field, old, new in zip(fields, before, after, strict=True):
        # where the user aimed (a scroll bar may now take a few pixels on the right)
        assert new.topLeft() == old.topLeft(), field.accessibleName()
        assert new.contains(old.center()), field.accessibleName()
    # ... and the error is seen whole, inside the page
    shown = _on_window(page.problem, window)
    assert page.problem.isVisible()
    assert _on_window(page, window).contains(shown)
    assert page.problem.message.height() > 0 and page.problem.hint.height() > 0
    # its words use the panel's width (on X they once wrapped at a quarter of it) and fit
    for words in (page.problem.message, page.problem.hint):
        assert words.width() >= page.problem.width() - 40, (words.width(), page.problem.width())
        assert words.height() >= words.heightForWidth(words.width())
    window.close()


def test_the_connect_button_stays_in_view_with_the_error(
    window: MainWindow, gui_app: QApplication
) -> None:
    """Walk 15, problem 4: at 150 % the pinned error sat where the Connect button was; the
    button was reached only by scrolling."""
    window.resize(*SMALL)
    window.show()
    window.go("connect")
    page = window.page("connect")
    assert isinstance(page, ConnectPage)
    page.problem.show_problem(
        "198.18.4.2 did not accept the password for user “pi”.",
        "Type the password again (mind Caps Lock) and check the user name: on Raspberry Pi OS "
        "it is the one you created in Raspberry Pi Imager (older images: “pi”).",
    )
    for _ in range(5):
        gui_app.processEvents()
    button = _on_window(page.connect_button, window)
    assert page.connect_button.isVisible()
    assert _on_window(page, window).contains(button), button
    assert not button.intersects(_on_window(page.problem, window))
    # not hidden under the view's bottom edge (inside the page, outside what scrolls, or in
    # the scrolled view's visible part)
    view = _on_window(page.viewport(), window)
    assert view.contains(button) or not view.intersects(button), (view, button)
    window.close()


def test_the_error_follows_the_window_when_it_shrinks(
    window: MainWindow, gui_app: QApplication
) -> None:
    """Walk 18: an error shown at 1366 x 768, then the window made 800 x 600: the panel kept
    its old width, ran past the window's right edge and its hint was cut ("… and that the
    addre"). The pinned panel was placed on the scroll area's resize, before its view had
    taken the new width."""
    window.resize(1300, 700)
    window.show()
    window.go("connect")
    page = window.page("connect")
    assert isinstance(page, ConnectPage)
    page.problem.show_problem(
        "Cannot reach 198.18.0.99: no route to host.",
        "Check that the Pi is powered on and on the same network as this computer, and that "
        "the address is right (try “ping” from this computer).",
    )
    for _ in range(5):
        gui_app.processEvents()
    window.resize(800, 600)
    for _ in range(5):
        gui_app.processEvents()
    shown = _on_window(page.problem, window)
    assert _on_window(page, window).contains(shown), (shown, _on_window(page, window))
    for words in (page.problem.message, page.problem.hint):
        assert words.width() <= page.problem.width()
        assert words.height() >= words.heightForWidth(words.width())
    window.close()


def test_the_connect_button_does_not_move_for_an_error(
    window: MainWindow, gui_app: QApplication
) -> None:
    """walk19: at 800 x 600 a longer connect error moved the Connect button up ~28 px (the
    error sat under it in the footer pinned to the bottom, which grew upwards)."""
    window.resize(800, 600)
    window.show()
    window.go("connect")
    page = window.page("connect")
    assert isinstance(page, ConnectPage)
    for _ in range(5):
        gui_app.processEvents()
    places = [_on_window(page.connect_button, window)]
    for hint in ("Check the address.",
                 "Check that the Pi is powered on and on the same network as this computer, "
                 "that the address is right (try “ping” from this computer), that SSH is "
                 "enabled on the Pi (Raspberry Pi Imager's settings, or raspi-config), and "
                 "that no firewall between them drops port 22."):  # fmt: skip
        page.problem.show_problem("Cannot reach 198.18.0.99: no route to host.", hint)
        for _ in range(5):
            gui_app.processEvents()
        places.append(_on_window(page.connect_button, window))
    page.problem.clear()
    for _ in range(5):
        gui_app.processEvents()
    places.append(_on_window(page.connect_button, window))
    assert all(place == places[0] for place in places), places
    window.close()
