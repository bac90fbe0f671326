"""The user's path as one typed layer: Connect → Inspect → Baseline → Tune → Measure again →
Results. The CLI commands and the GUI controllers are thin adapters over it.

- `state`: what the path knows so far (`WorkflowState`), changed by named transitions.
- `rules`: which tweaks are in force, keeping a cancelled run, install iperf3 then retry.
- `problems`: from an error to what the user is told (`problem_from`).
- `finding` (imported on use: it loads zeroconf), `connecting`, `measuring`: the steps a
  front end runs one at a time.
- `steps`, `one_click`: the one-click flow, its steps declared once in `FLOW_STEPS`.

The names below are loaded on first use (PEP 562 `__getattr__`), so a command that needs one
light submodule (`sbctune.workflow.rules`) does not load the one-click flow, SSH and advice
with it (issue 22).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sbctune.lazy import exports, keep_names_over_submodules, names_in

if TYPE_CHECKING:
    from sbctune.workflow.flow_types import (
        FlowCancelled,
        FlowEvent,
        FlowResult,
        FlowStep,
        PartialKept,
        TuningEvent,
    )
    from sbctune.workflow.one_click import one_click, run_steps
    from sbctune.workflow.problems import Problem, declined_hint, problem_from
    from sbctune.workflow.state import Aspect, ConnectedInfo, Role, WorkflowState
    from sbctune.workflow.steps import (
        FLOW_STEPS,
        FlowContext,
        FlowOptions,
        StepOutcome,
        StepSpec,
    )

__all__ = [
    "FLOW_STEPS",
    "Aspect",
    "ConnectedInfo",
    "FlowCancelled",
    "FlowContext",
    "FlowEvent",
    "FlowOptions",
    "FlowResult",
    "FlowStep",
    "PartialKept",
    "Problem",
    "Role",
    "StepOutcome",
    "StepSpec",
    "TuningEvent",
    "WorkflowState",
    "declined_hint",
    "one_click",
    "problem_from",
    "run_steps",
]

if not TYPE_CHECKING:  # mypy sees the imports above, and a typo stays an error
    __getattr__, __dir__ = exports(
        __name__,
        names_in(
            "flow_types",
            ("FlowCancelled", "FlowEvent", "FlowResult", "FlowStep", "PartialKept", "TuningEvent"),
        )
        | names_in("one_click", ("one_click", "run_steps"))
        | names_in("problems", ("Problem", "declined_hint", "problem_from"))
        | names_in("state", ("Aspect", "ConnectedInfo", "Role", "WorkflowState"))
        | names_in(
            "steps", ("FLOW_STEPS", "FlowContext", "FlowOptions", "StepOutcome", "StepSpec")
        ),
    )
    keep_names_over_submodules(__name__, ("one_click",))
