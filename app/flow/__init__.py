"""The one-click flow: baseline, tune under the guard, measure again, results."""

from sbctune.flow.one_click import (
    STEP_TITLE,
    STEPS,
    FlowEvent,
    FlowOptions,
    FlowResult,
    FlowStep,
    Step,
    TuningEvent,
    one_click,
)

__all__ = [
    "STEPS",
    "STEP_TITLE",
    "FlowEvent",
    "FlowOptions",
    "FlowResult",
    "FlowStep",
    "Step",
    "TuningEvent",
    "one_click",
]
