"""The Connect page's errors quote as the rest of the app does, with typographic marks (the
app's rule, `app/wording.py`: a command in a message is shown in “ ”). Walk ux29 on X: the
wrong password read "did not accept the password for user 'pi'" and "(older images: 'pi')"
in straight quotes. Every connection error of the core (each `RemoteError`, the host field's
own), as the page shows it, is checked, not only the one seen."""

from __future__ import annotations

import inspect
import re

import pytest
from PySide6.QtWidgets import QApplication

from sbctune.errors import UserError
from sbctune.remote import errors as remote_errors
from sbctune.remote.target import parse_target
from sbctune.ui.main_window import MainWindow
from sbctune.ui.pages.connect_page import ConnectPage
from sbctune.workflow.problems import problem_from

# An opening straight quote: not after a letter (so not the Pi's apostrophe) and before a word.
STRAIGHT = re.compile(r"(?<![\w])'(?=\S)")
SAMPLE: dict[str, object] = {"str": "pi", "int": 22, "float": 5.0}  # annotations as written


def _remote_errors() -> list[UserError]:
    made: list[UserError] = []
    classes = [remote_errors.RemoteError]
    while classes:
        cls = classes.pop()
        classes.extend(cls.__subclasses__())
        if cls is remote_errors.RemoteError:
            continue
        params = list(inspect.signature(cls.__init__).parameters.values())[1:]
        needed = [p for p in params if p.kind is p.POSITIONAL_OR_KEYWORD and p.default is p.empty]
        made.append(cls(*[SAMPLE.get(str(p.annotation), "pi") for p in needed]))
    return made


def _host_field_errors() -> list[UserError]:
    made = []
    for typed in ("pi@host:22x", "pi@a b", "pi@" + "x" * 70 + ".local"):
        with pytest.raises(UserError) as caught:
            parse_target(typed)
        made.append(caught.value)
    return made


def _shown(page: ConnectPage) -> str:
    return f"{page.problem.message.text()}\n{page.problem.hint.text()}"


def test_wrong_password_quotes_the_user_typographically(
    window: MainWindow, gui_app: QApplication
) -> None:
    window.go("connect")
    page = window.page("connect")
    assert isinstance(page, ConnectPage)
    page.controller.failed.emit(
        problem_from(remote_errors.AuthFailed("pi", "198.18.0.2", password=True))
    )
    gui_app.processEvents()
    shown = _shown(page)
    assert "did not accept the password for user “pi”." in shown
    assert "(older images: “pi”)" in shown
    assert not STRAIGHT.search(shown), shown
    errors = _remote_errors() + _host_field_errors()
    assert len(errors) > 15
    for error in errors:
        page.controller.failed.emit(problem_from(error))
        gui_app.processEvents()
        shown = _shown(page)
        assert not STRAIGHT.search(shown), (type(error).__name__, shown)
    window.close()
