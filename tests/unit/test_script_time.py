"""The time a batch of commands may run on the Pi is set by what it does (issue: the live GUI
demo stopped at a fixed 30 s while listing the sessions on a loaded machine), and running
out of it says what was being done and what to try, never "sh -s"."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from sbctune.remote import batch
from sbctune.remote.errors import RemoteTimeout, ScriptTimeout
from sbctune.remote.script_time import (
    MAX_SECONDS,
    START_SECONDS,
    STEP_SECONDS,
    script_seconds,
)
from sbctune.remote.session import Session
from sbctune.remote.target import Target
from sbctune.tuning.applying import stopped_error
from sbctune.tuning.changes import read_back, run_changes
from sbctune.tuning.model import Change
from sbctune.tuning.remote_state import list_sessions

OLD_FIXED_LIMIT = 30


def _steps(count: int, timeout: float | None = None) -> list[batch.Step]:
    return [batch.Step(("true",), f"s{i}", timeout=timeout) for i in range(count)]


@pytest.mark.parametrize("count", [1, 2, 5, 20])
def test_the_limit_grows_with_the_number_of_steps(count: int) -> None:
    assert script_seconds(_steps(count)) == START_SECONDS + count * STEP_SECONDS
    assert script_seconds(_steps(count + 1)) > script_seconds(_steps(count))


def test_a_step_with_its_own_limit_counts_that_limit() -> None:
    assert script_seconds(_steps(4, timeout=30)) == START_SECONDS + 4 * 30
    mixed = [*_steps(1, timeout=45), *_steps(2)]
    assert script_seconds(mixed) == START_SECONDS + 45 + 2 * STEP_SECONDS


def test_a_pi_that_truly_hangs_is_still_given_up_on() -> None:
    assert script_seconds(_steps(500, timeout=30)) == MAX_SECONDS


class _Recorder:
    """Stands in for the Session: records each batch's limit and answers every step."""

    def __init__(self, stdout: bytes = b"") -> None:
        self.calls: list[tuple[int, float | None, str]] = []
        self.stdout = stdout
        self.target = Target("pi.example", 22, "pi")

    async def run_script(
        self, steps: Sequence[batch.Step], **kwargs: Any
    ) -> list[batch.StepResult]:
        self.calls.append((len(steps), kwargs.get("timeout"), str(kwargs.get("what", ""))))
        return [batch.StepResult(s, 0, self.stdout, b"") for s in steps]


def _knob(i: int) -> Change:
    return Change("sysctl", f"net.core.knob{i}", "1", "2", f"/proc/sys/net/core/knob{i}")


async def test_listing_the_sessions_is_no_longer_held_to_30_s() -> None:
    fake = _Recorder(b"net:[1]\x001700000000\x00")
    await list_sessions(fake)  # type: ignore[arg-type]
    ((count, limit, what),) = fake.calls
    assert count == 1 and limit == script_seconds(_steps(1)) and limit > OLD_FIXED_LIMIT
    assert what == "the list of tuning sessions"


@pytest.mark.parametrize("changes", [1, 8, 30])
async def test_the_writes_limit_is_every_step_s_own_limit_plus_start_up(changes: int) -> None:
    fake = _Recorder(b"2")
    await run_changes(fake, [_knob(i) for i in range(changes)], "/tmp/x")  # type: ignore[arg-type]
    ((count, limit, what),) = fake.calls
    assert count == 2 * changes  # a write and its read-back each
    assert limit == min(MAX_SECONDS, START_SECONDS + count * 30)  # each step's own 30 s
    assert what == "the tuning's writes and their read-back"


async def test_reading_back_scales_with_the_number_of_values() -> None:
    fake = _Recorder(b"2")
    await read_back(fake, [_knob(i) for i in range(12)])  # type: ignore[arg-type]
    ((count, limit, _what),) = fake.calls
    assert count == 12 and limit == START_SECONDS + 12 * 20  # each read's own 20 s


async def test_running_out_of_time_names_what_was_being_done() -> None:
    session = Session(Target("pi.example", 22, "pi"), conn=None)  # type: ignore[arg-type]

    async def too_slow(argv: Sequence[str], **kwargs: Any) -> tuple[bytes, bytes, int]:
        raise RemoteTimeout(" ".join(argv), kwargs["timeout"])

    session.run_bytes = too_slow  # type: ignore[method-assign]
    steps = _steps(3)
    with pytest.raises(ScriptTimeout) as stopped:
        await session.run_script(steps, timeout=script_seconds(steps), what="arming the guard")
    text = str(stopped.value)
    assert "The Pi did not finish arming the guard (3 commands) within 120 s" in text
    assert "sh -s" not in text and "uptime" in text
    assert isinstance(stopped.value, RemoteTimeout)  # callers that catch timeouts still do


def test_a_timeout_after_the_guard_is_armed_says_the_guard_puts_it_back() -> None:
    cause = ScriptTimeout("the tuning's writes and their read-back", 9, 330)
    error = stopped_error("20261129T103844Z-35ac55", cause, armed=True)
    assert error.message.startswith("Applying stopped: The Pi did not finish the tuning's")
    assert "the auto-revert guard on the Pi puts back every value" in error.hint
    assert "tuning applied at 10:38" in error.hint  # the session in plain words, not its id
    assert "20261129T103844Z" not in error.message + error.hint
    assert "tune status" in error.hint


def test_a_timeout_while_arming_says_nothing_was_changed_and_how_to_clear_it() -> None:
    cause = ScriptTimeout("arming the auto-revert guard", 4, 140)
    error = stopped_error("20261129T103844Z-35ac55", cause, armed=False)
    assert "Nothing was changed yet" in error.hint
    assert "tune revert" in error.hint
