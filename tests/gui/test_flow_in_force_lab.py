"""Tune & Measure after Apply → Keep, in the real window against the lab: the flow does not
start silently with its "before" tuned. The window asks; "Revert it first, then Tune & Measure"
puts the tuning back, the Pi reads back untuned, and only then is the baseline measured (its
run a baseline: no tuning read back at its start or end)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from sbctune.lab.model import LabInfo
from sbctune.ui.main_window import MainWindow
from sbctune.ui.widgets.flow_in_force_question import FlowInForceQuestion
from sbctune.ui.widgets.link_consent_question import LinkConsentQuestion
from sbctune.workflow.baseline_check import is_fair_baseline
from tests.gui.conftest import until
from tests.gui.lab_steps import PiReads, apply_and_keep, connect_and_inspect, measuring_with
from tests.gui.test_baseline_in_force_lab import SHORT

pytestmark = [pytest.mark.lab, pytest.mark.slow]


def test_tune_and_measure_with_tuning_kept_asks_and_reverts_before_its_baseline(
    lab: LabInfo,
    window: MainWindow,
    drive: Callable[..., Any],
    pi_reads: PiReads,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    baseline = measuring_with(window, "baseline", SHORT, monkeypatch)
    seen: list[str] = []  # what the flow said, in order: the revert, then its steps
    window.flow.tuning_event.connect(seen.append)
    window.flow.step.connect(lambda step, status, _detail: seen.append(f"{step} {status}"))
    pi_at_baseline: list[tuple[str, str | None]] = []

    async def scenario() -> None:
        before, _ = await pi_reads()
        await connect_and_inspect(window, lab)
        await apply_and_keep(window, pi_reads)

        window.tune_and_measure()
        await until(lambda: window.in_force_question is not None, 10, "the question")
        question = window.in_force_question
        assert isinstance(question, FlowInForceQuestion) and question.isVisible()
        assert not window.flow.running, "the flow started with the tuning in force"
        assert "CPU frequency governor: performance" in question.text()
        assert "not a baseline" in question.text()

        def read_at_baseline(step: str, status: str, _detail: str) -> None:
            if step == "baseline" and status == "started":
                window.runner.start(_record_pi(), name="test-read-pi")

        async def _record_pi() -> None:
            pi_at_baseline.append(await pi_reads())

        window.flow.step.connect(read_at_baseline)
        question.revert_button.click()
        await until(lambda: window.flow.running or window.consent_question is not None, 60,
                    "the flow, or the link question")  # fmt: skip
        consent = window.consent_question
        if isinstance(consent, LinkConsentQuestion):  # tweaks held back for the link: as is
            consent.start_button.click()
        await until(lambda: "baseline done" in seen, 240, "the baseline")
        record = window.state.baseline
        assert record is not None and record.id is not None
        window.flow.cancel()  # the rest of the flow is not what this test is about
        await window.flow.wait()
        assert not baseline.problem.isVisible(), baseline.problem.message.text()
        assert pi_at_baseline and pi_at_baseline[0] == (before, None), pi_at_baseline
        reverted = "The tuning was put back and the Pi reads back untuned: measuring the baseline."
        assert seen.index(reverted) < seen.index("baseline started"), seen
        stored = window.history.run(record.id)
        assert stored.tuning_state is None, stored.tuning_state  # read back: untuned
        assert is_fair_baseline(stored)

    drive(scenario(), timeout=600)
