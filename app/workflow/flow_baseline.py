"""Before the one-click flow's baseline ("Tune & Measure", "Find what helps"): is tuning in
force on the Pi? Its first step measures the "before"; with tuning in force that figure is the
tuned speed, and the comparison then says "no change" (walk 14, problem 2, in the flow).

The same check as the Baseline page (`baseline_check.tuning_in_force`, from what the session
read back), and the same words (`TuningInForce.notice`). The flow never measures a tuned
"before": with tuning in force it either asks first, or, when asked to, puts the tuning back,
reads the Pi back untuned (`revert_for_baseline`), and only then runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from sbctune.errors import UserError
from sbctune.workflow.baseline_check import TuningInForce, revert_for_baseline, tuning_in_force

if TYPE_CHECKING:
    from sbctune.history import History
    from sbctune.remote.session import Session
    from sbctune.workflow.state import WorkflowState

Decision = Literal["start", "ask", "revert"]


@dataclass(frozen=True)
class FlowBaselineCheck:
    """What the window does when the flow is asked for: start it, ask first, or revert first."""

    decision: Decision
    found: TuningInForce | None = None

    def question(self, what: str = "Tune & Measure") -> tuple[str, str]:
        """The question's text and its detail, in the Baseline page's words."""
        assert self.found is not None
        return (
            f"Tuning is in force on the Pi. {self.found.notice()}",
            f"{what} starts by measuring the speed before any change. Revert the tuning first "
            "(the Pi is read back to check nothing is in force), then run it; or cancel.",
        )


def revert_choice(what: str = "Tune & Measure") -> str:
    """The button that reverts, then runs the flow (its plain words, no mnemonic)."""
    return f"Revert it first, then {what}"


def check_before_flow(state: WorkflowState, revert_first: bool = False) -> FlowBaselineCheck:
    """`revert_first`: the user chose to put the tuning back first."""
    found = tuning_in_force(state)
    if found is None:
        return FlowBaselineCheck("start")
    return FlowBaselineCheck("revert" if revert_first else "ask", found)


async def settle_before_flow(
    session: Session, history: History | None, state: WorkflowState, revert_first: bool
) -> bool:
    """Run before the flow's first step: True when the tuning was put back (and read back
    untuned). A UserError, nothing measured, when tuning is in force and the user was not
    asked, or when the Pi still reads back tuned after the revert."""
    check = check_before_flow(state, revert_first)
    if check.decision == "start":
        return False
    if check.decision == "ask":
        raise UserError(
            "Tuning is in force on the Pi: its first measurement would be the tuned speed, "
            "not the speed before any change.",
            "Start Tune & Measure again and choose to revert the tuning first.",
        )
    await revert_for_baseline(session, history)
    state.reverted_for_baseline()
    return True
