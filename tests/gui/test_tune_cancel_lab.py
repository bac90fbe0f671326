"""walk19, in the real window against the lab: Cancel on the Tune page while Tune & Measure
applies its tweaks (the guard armed, the writes begun) ends with the Pi as it was, read back
over SSH by the test itself, and the page says so in words."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from sbctune.lab.model import LabInfo
from sbctune.ui.main_window import MainWindow
from sbctune.ui.widgets.link_consent_question import LinkConsentQuestion
from tests.gui.conftest import until
from tests.gui.lab_steps import PiReads, connect_and_inspect, measuring_with
from tests.gui.test_baseline_in_force_lab import SHORT

pytestmark = [pytest.mark.lab, pytest.mark.slow]

AS_BEFORE = "Cancelled: the tuning was reverted; every value it touched reads back as before."


def test_cancel_while_tune_and_measure_applies_leaves_the_pi_as_it_was(
    lab: LabInfo,
    window: MainWindow,
    drive: Callable[..., Any],
    pi_reads: PiReads,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    measuring_with(window, "baseline", SHORT, monkeypatch)
    measuring_with(window, "again", SHORT, monkeypatch)
    seen: list[str] = []
    window.flow.step.connect(lambda step, status, _detail: seen.append(f"{step} {status}"))

    def cancel_mid_apply(message: str) -> None:
        seen.append(message)
        # The guard runs on the Pi and the writes start: the user's Cancel, on the Tune page.
        cancel = window.tune_page.cancel_button
        if message == "applying and verifying" and cancel.isVisibleTo(window):
            cancel.click()

    window.flow.tuning_event.connect(cancel_mid_apply)

    async def scenario() -> None:
        before, session = await pi_reads()
        assert session is None
        await connect_and_inspect(window, lab)
        window.tune_and_measure()
        await until(lambda: window.flow.running or window.consent_question is not None, 60,
                    "the flow, or the link question")  # fmt: skip
        consent = window.consent_question
        if isinstance(consent, LinkConsentQuestion):  # tweaks held back for the link: as is
            consent.start_button.click()
        await until(lambda: "tune started" in seen, 240, "the Tune step")
        assert window.current_key() == "tune"
        await until(lambda: not window.flow.running, 240, "the cancel")
        await window.flow.wait()
        assert "applying and verifying" in seen, " | ".join(seen)  # cancelled mid-apply, not before
        assert "tune done" not in seen, " | ".join(seen)
        assert await pi_reads() == (before, None)  # the Pi itself: as it was, no session left
        assert AS_BEFORE in window.tune_page.events.toPlainText()
        assert window.statusBar().currentMessage() == AS_BEFORE
        assert not window.tune_page.cancel_button.isVisibleTo(window)

    drive(scenario(), timeout=600)
