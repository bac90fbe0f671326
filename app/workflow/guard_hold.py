"""Measuring while a tuning session is armed holds its guard for the whole run.

Without this, a guard shorter than the run (90 s against the thorough plan) reverted the
tuning mid-run and the run was still called tuned. While the run measures, a heartbeat re-arms
the guard on the Pi for its full guard time every third of it (`sbctune.tuning.rearm`: the new
guard starts before the old one stops), and NetworkManager's checkpoint, when the session took
one, is adjusted with it. So a lost link or a killed app still reverts within the guard time
the user was shown; after the run the guard starts afresh, so the user has the whole guard
time to keep or revert what was measured. Whether it held is read back from the Pi at the run's
end (`sbctune.workflow.tuning_read`), never assumed.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

from sbctune.errors import UserError
from sbctune.remote import Session
from sbctune.tuning import nm_checkpoint, rearm, scripts
from sbctune.workflow.tuning_read import TuningReading

log = logging.getLogger(__name__)

MIN_BEAT_SECONDS = 2.0
# `sh -c PROBE sh DIR`: "systemd" when the guard is a systemd timer, then NM's checkpoint path.
_PROBE = 'test -f "$1/guard.unit" && echo systemd; cat "$1/nm_checkpoint" 2>/dev/null; exit 0'


@dataclass
class GuardHold:
    """The guard being held: how many beats re-armed it, and the deadline after the run."""

    session_id: str
    guard_seconds: int
    beats: int = 0
    failed_beats: int = 0
    deadline: float | None = None  # epoch seconds (this computer) once the run ended


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


async def _beat(session: Session, hold: GuardHold, systemd: bool, checkpoint: str | None) -> bool:
    # A unit name per beat: the transient timer of the previous beat is stopped by this one.
    round_no = int(time.time() * 10) % 10**9
    ok = bool(await rearm.rearm(session, hold.session_id, hold.guard_seconds, systemd, round_no))
    if ok and checkpoint:
        await nm_checkpoint.adjust(session, checkpoint, hold.guard_seconds)
    return ok


async def _heartbeat(session: Session, hold: GuardHold, systemd: bool,
                     checkpoint: str | None, every: float) -> None:  # fmt: skip
    """A beat every `every` seconds from the start of the last (a slow beat on a busy Pi must
    not push the next one past the guard's time); a failed beat is tried again at once."""
    loop = asyncio.get_running_loop()
    due = loop.time() + every
    while True:
        await asyncio.sleep(max(0.0, due - loop.time()))
        started = loop.time()
        try:
            ok = await _beat(session, hold, systemd, checkpoint)
        except (UserError, OSError, ValueError) as exc:
            log.warning("guard heartbeat failed: %s", exc)
            ok = False
        hold.beats += ok
        hold.failed_beats += not ok
        due = started + (every if ok else MIN_BEAT_SECONDS)


@asynccontextmanager
async def holding_guard(
    session: Session, reading: TuningReading, *, heartbeat: bool = True
) -> AsyncIterator[GuardHold | None]:
    """Hold the armed session of `reading` (the run's start reading) while the body runs;
    None when no session is armed. `heartbeat=False` only re-arms it at the end (a test
    uses it to let the guard fire mid-run)."""
    if reading.state != "armed" or reading.session is None or not reading.guard_seconds:
        yield None
        return
    hold = GuardHold(reading.session, reading.guard_seconds)
    systemd, checkpoint = await _probe(session, hold.session_id)
    task = None
    if heartbeat:
        # The first beat now: the run may be longer than what is left of the guard.
        hold.beats += await _beat(session, hold, systemd, checkpoint)
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
                if await asyncio.shield(_beat(session, hold, systemd, checkpoint)):
                    hold.deadline = time.time() + hold.guard_seconds
            except (UserError, OSError, ValueError) as exc:
                log.warning("the guard could not be re-armed after the run: %s", exc)
