"""How long a batch of commands (one `sh -s` round trip) may run on the Pi: by what it does.

A fixed 30 s was wrong on a slow Pi: a Pi Zero or Pi 1 under load, an emulated (TCG) VM, a
Pi whose PC runs sbctune under Wine, a machine busy with other work (the CI rehearsal's live
GUI demo stopped while listing the tuning sessions, which take a few processes per session).
So a batch is allowed:

- a start-up allowance (`START_SECONDS`): sudo, the shell, its temporary folder, and sending
  every output back;
- plus each step's own limit: its `timeout` (which the Pi also enforces per step with
  `timeout`, `batch.build_script`), or `STEP_SECONDS` for a step without one;
- capped at `MAX_SECONDS`, so a Pi that truly hangs is given up on with a clear message
  (`errors.ScriptTimeout`: what was being done and what to try).

The limit grows with the number of steps (the writes of a big tuning session) and never
shrinks below what one slow step may need.
"""

from __future__ import annotations

from collections.abc import Sequence

from sbctune.remote.batch import Step

START_SECONDS = 60.0
STEP_SECONDS = 20.0
MAX_SECONDS = 900.0
# One command run on its own (not a batch): the same start-up allowance plus one step.
COMMAND_SECONDS = START_SECONDS + STEP_SECONDS


def step_seconds(step: Step) -> float:
    """One step's share: its own limit on the Pi, or the default for a step without one."""
    return float(step.timeout) if step.timeout is not None else STEP_SECONDS


def script_seconds(steps: Sequence[Step]) -> float:
    """The time limit of a batch of `steps` run in one round trip."""
    return min(MAX_SECONDS, START_SECONDS + sum(step_seconds(s) for s in steps))
