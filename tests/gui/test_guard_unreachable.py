"""When the guard's countdown ends in the window and SSH is gone, the Tune page says so plainly
after its tries: the Pi could not be reached, its guard puts the settings back by itself at the
deadline, and connecting again reads back what it did (the s13 walk: the page kept saying
"reading back…" for ever). No Pi here: the window's connection ended; and an unreachable address
(pi@127.0.0.1:9) for the attempt to connect again."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

from sbctune.tuning import AppliedSession
from sbctune.ui.controllers import tuning as tuning_controller
from sbctune.ui.main_window import MainWindow
from sbctune.ui.pages.connect_page import ConnectPage
from tests.gui.conftest import until


def test_countdown_end_without_ssh_says_what_the_guard_does_and_what_to_do(
    window: MainWindow, drive: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tuning_controller, "GUARD_READ_PAUSE_S", 0.05)  # the tries, faster
    tune = window.tune_page
    page = window.page("connect")
    assert isinstance(page, ConnectPage)
    applied = AppliedSession("20261126T140000Z-abcdef", time.time() + 1, [], guard_seconds=1)
    window.state.model.tuning_applied(applied)
    tune.show_applied(applied)

    async def scenario() -> None:
        await until(lambda: "reading back" in tune.guard_text.text(), 10, "the countdown's end")
        await until(lambda: "reading back" not in tune.guard_text.text(), 10, "the tries")
        # Connecting again to a Pi that does not answer leaves the words as they are.
        window.go("connect")
        page.host.setEditText("pi@127.0.0.1:9")  # nothing listens on port 9 (the discard port)
        page.user.setText("pi")
        page.use_password.setChecked(True)
        page.password.setText("secret")
        page.connect_button.click()
        await until(page.problem.isVisible, 30, "the connect error")

    drive(scenario(), timeout=40)
    text = tune.guard_text.text()
    assert "could not be reached" in text
    assert "puts the settings back unless you kept them" in text  # the guard, on the Pi
    assert "Connect to the Pi again" in text and "reads back" in text
    assert tune.controller.unread_guard == applied.id
    assert window.state.tuning_state == "guarded"  # not called reverted unread
    assert not tune.confirm_button.isEnabled()
    assert "refused the connection on port 9" in page.problem.message.text()
