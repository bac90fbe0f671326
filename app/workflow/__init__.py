"""The user's path as one typed layer: Connect → Inspect → Baseline → Tune → Measure again →
Results. The CLI commands and the GUI controllers are thin adapters over it.

- `state`: what the path knows so far (`WorkflowState`), changed by named transitions.
- `rules`: which tweaks are in force, keeping a cancelled run, install iperf3 then retry.
- `problems`: from an error to what the user is told (`problem_from`).
- `finding` (imported on use: it loads zeroconf), `connecting`, `measuring`: the steps a
  front end runs one at a time.
- `steps`, `one_click`: the one-click flow, its steps declared once in `FLOW_STEPS`.
"""

from sbctune.workflow.flow_types import FlowEvent, FlowResult, FlowStep, PartialKept, TuningEvent
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
