"""A/A calibration: measure twice with nothing changed, keep both runs, and record how far
apart they came out (the run-to-run spread of this Pi and network). compare and advice use the
newest calibration of a device as the floor a change must clear (sbctune.compare.calibration).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sbctune.compare.calibration import calibrate, report_lines
from sbctune.history import History
from sbctune.history.proof import Calibration
from sbctune.measure import runner
from sbctune.workflow import rules
from sbctune.workflow.measuring import Measured, MeasureRequest, measure_and_keep
from sbctune.workflow.rules import InstallAsker

if TYPE_CHECKING:  # SSH (asyncssh) loads where a session is opened (issue 22)
    from sbctune.remote.session import Session


@dataclass(frozen=True)
class Calibrated:
    first: Measured
    second: Measured
    calibration: Calibration
    lines: list[str]  # per direction and mode: both figures, the spread, the verdict


def calibration_of(history: History, first: Measured, second: Measured) -> Calibrated:
    cal = calibrate(history, first.record, second.record)
    return Calibrated(first, second, cal, report_lines(first.record, second.record))


async def measure_twice(
    session: Session,
    history: History,
    request: MeasureRequest,
    *,
    on_event: Callable[[runner.Event], None] | None = None,
    ask_install: InstallAsker = rules.never_install,
    report: Callable[[str], None] = lambda text: None,
    on_partial: Callable[[Measured], None] | None = None,
) -> Calibrated:
    """Two runs of the same plan back to back, both stored, then the calibration."""
    runs = []
    for _ in range(2):
        measured = await measure_and_keep(
            session,
            history,
            request,
            on_event=on_event,
            ask_install=ask_install,
            report=report,
            on_partial=on_partial,
        )
        runs.append(measured)
    return calibration_of(history, runs[0], runs[1])
