"""Measuring while a tuning session is armed holds its guard for the whole run.

Without this, a guard shorter than the run (90 s against the thorough plan) reverted the
tuning mid-run and the run was still called tuned. When the run starts, the guard on the Pi is
extended for the run's planned time plus a margin (`sbctune.tuning.rearm`: the new guard
starts before the old one stops); a heartbeat re-arms it every third of the session's guard
time for what is then left of that (never less than the guard time itself), and extra trials
move the planned end, so the next beat comes at once. NetworkManager's checkpoint, when the
session took one, is adjusted with it. So a lost link or a killed app still reverts by the
deadline the user is shown (`GuardHold.pi_deadline`); after the run the guard starts afresh,
so the user has the whole guard time to keep or revert what was measured. Whether it held is
read back from the Pi at the run's end (`sbctune.workflow.tuning_read`), never assumed.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sbctune import aio
from sbctune.errors import UserError
from sbctune.measure.plans import Plan
from sbctune.measure.steady import TrialsAdded
from sbctune.tuning import nm_checkpoint, rearm, scripts
from sbctune.workflow.tuning_read import TuningReading

if TYPE_CHECKING:  # SSH (asyncssh) loads where a session is opened (issue 22)
    from sbctune.remote.session import Session

log = logging.getLogger(__name__)

MIN_BEAT_SECONDS = 2.0
# On top of the planned time (which allows for each test's switch): a slow start, the end
# reading of the run.
MARGIN_SECONDS = 20
PER_TEST_SECONDS = 5  # each test's switch (endpoint restart, iperf3 start on the Pi)
MAX_HOLD_SECONDS = 6 * 3600  # a bound on what one beat asks of the Pi
# `sh -c PROBE sh DIR`: "systemd" when the guard is a systemd timer, then NM's checkpoint path.
_PROBE = 'test -f "$1/guard.unit" && echo systemd; cat "$1/nm_checkpoint" 2>/dev/null; exit 0'


@dataclass
class GuardHold:
    """The guard being held: how many beats re-armed it, when it fires if no beat comes."""

    session_id: str
    guard_seconds: int
    beats: int = 0
    failed_beats: int = 0
    deadline: float | None = None  # epoch seconds (this computer) once the run ended
    held_until: float = 0.0  # time.monotonic(): the run's planned end plus the margin
    # Epoch seconds (this computer): when the Pi's guard reverts if no further beat comes,
    # as the last beat set it (what the user is shown while measuring).
    pi_deadline: float | None = None
    longest: int = 0  # the longest guard a beat set (seconds)
    _wake: asyncio.Event = field(default_factory=asyncio.Event, repr=False)

    def seconds_now(self) -> int:
        """What a beat arms the guard for now: what is left of the planned run and its
        margin, never less than the session's guard time."""
        left = math.ceil(self.held_until - time.monotonic())
        return int(min(MAX_HOLD_SECONDS, max(self.guard_seconds, left)))

    def extend(self, seconds: float) -> None:
        """The run was planned longer (extra trials): hold it that much longer, at once."""
        self.held_until += max(0.0, seconds)
        self._wake.set()


def planned_seconds(plan: Plan) -> int:
    """A plan's time as the guard allows for it: its tests, each with its switch."""
    return plan.seconds + PER_TEST_SECONDS * len(plan.tests)


def extra_seconds(event: TrialsAdded) -> int:
    """The time extra trials add to the run."""
    return sum(e.spec.duration + e.spec.omit + PER_TEST_SECONDS for e in event.extra)


def beat_seconds(guard_seconds: int) -> float:
    """Every third of the guard time: two beats can be lost before the guard fires."""
    return max(MIN_BEAT_SECONDS, guard_seconds / 3)


async def _probe(session: Session, session_id: str) -> tuple[bool, str | None]:
    result = await session.run(["sh", "-c", _PROBE, "sh", scripts.session_dir(session_id)],
                               timeout=20)  # fmt: skip
    lines = [line.strip() for line in result.stdout.splitlines()[:3] if line.strip()]
    systemd = bool(lines) and lines[0] == "systemd"
    rest = lines[1:] if systemd else lines
    return systemd, rest[0][:200] if rest else None


async def _beat(session: Session, hold: GuardHold, systemd: bool, checkpoint: str | None,
                seconds: int) -> bool:  # fmt: skip
    # A unit name per beat: the transient timer of the previous beat is stopped by this one.
    round_no = int(time.time() * 10) % 10**9
    sent = time.time()
    ok = bool(await rearm.rearm(session, hold.session_id, seconds, systemd, round_no))
    if ok:
        hold.pi_deadline = sent + seconds  # it was armed after `sent`: at the latest then
        hold.longest = max(hold.longest, seconds)
        if checkpoint:
            await nm_checkpoint.adjust(session, checkpoint, seconds)
    return ok


async def _heartbeat(session: Session, hold: GuardHold, systemd: bool,
                     checkpoint: str | None, every: float) -> None:  # fmt: skip
    """A beat every `every` seconds from the start of the last (a slow beat on a busy Pi must
    not push the next one past the guard's time), at once when the run was extended; a failed
    beat is tried again soon."""
    loop = asyncio.get_running_loop()
    due = loop.time() + every
    while True:
        with suppress(asyncio.TimeoutError):  # not TimeoutError on Python 3.10
            await aio.wait_for(hold._wake.wait(), max(0.0, due - loop.time()))
        hold._wake.clear()
        started = loop.time()
        try:
            ok = await _beat(session, hold, systemd, checkpoint, hold.seconds_now())
        except (UserError, OSError, ValueError) as exc:
            log.warning("guard heartbeat failed: %s", exc)
            ok = False
        hold.beats += ok
        hold.failed_beats += not ok
        due = started + (every if ok else MIN_BEAT_SECONDS)


@asynccontextmanager
async def holding_guard(
    session: Session, reading: TuningReading, *, heartbeat: bool = True, planned: float = 0.0
) -> AsyncIterator[GuardHold | None]:
    """Hold the armed session of `reading` (the run's start reading) while the body runs,
    for `planned` seconds plus a margin, then as long as the heartbeat goes on; None when no
    session is armed. `heartbeat=False` only re-arms it at the end (a test uses it to let the
    guard fire mid-run)."""
    if reading.state != "armed" or reading.session is None or not reading.guard_seconds:
        yield None
        return
    hold = GuardHold(reading.session, reading.guard_seconds)
    hold.held_until = time.monotonic() + max(0.0, planned) + MARGIN_SECONDS
    systemd, checkpoint = await _probe(session, hold.session_id)
    task = None
    if heartbeat:
        # The first beat now: for the planned run (it may be longer than the guard).
        hold.beats += await _beat(session, hold, systemd, checkpoint, hold.seconds_now())
        every = beat_seconds(hold.guard_seconds)
        task = asyncio.create_task(_heartbeat(session, hold, systemd, checkpoint, every))
    try:
        yield hold
    finally:
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
        if heartbeat:
            # The full guard time again from the run's end: time to keep or revert.
            try:
                beat = _beat(session, hold, systemd, checkpoint, hold.guard_seconds)
                if await asyncio.shield(beat):
                    hold.deadline = time.time() + hold.guard_seconds
            except (UserError, OSError, ValueError) as exc:
                log.warning("the guard could not be re-armed after the run: %s", exc)


HELD = "Tuning held while measuring"  # while the Pi's deadline is not known yet


def held_words(hold: GuardHold, now: float | None = None) -> str:
    """What the user is told while a run holds the guard (both front ends)."""
    if hold.pi_deadline is None:
        return HELD
    left = max(0, math.ceil(hold.pi_deadline - (time.time() if now is None else now)))
    return held_words_in(left)


def held_words_in(seconds: int) -> str:
    """The same, with the seconds left worked out by the caller (the app's one figure)."""
    # Short: the app's status bar holds it beside the connection at 800 px wide.
    return f"Tuning held: if this app stops, the Pi reverts it by itself within {seconds} s"
