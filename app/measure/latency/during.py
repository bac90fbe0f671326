"""The runner's hook: probe the latency around each TCP test of a measurement.

`LatencyMonitor.around(index, spec)` starts the responder on this PC and the probe on the Pi,
lets it run `IDLE_S` seconds on an idle link, then yields while the test runs; probes sent
during the test's omitted (ramp-up) seconds count neither as idle nor as loaded. Latency never
fails a throughput run: whatever goes wrong becomes a note in the run's record.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import statistics
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from sbctune.inventory.parsers.common import ParseWarning
from sbctune.measure.latency.parse import parse_line
from sbctune.measure.latency.program import INTERVAL_S, ProbeConfig, new_token, program
from sbctune.measure.latency.responder import Responder
from sbctune.measure.latency.stats import KEYS, MIN_SAMPLES, group_key
from sbctune.measure.plans import TestSpec
from sbctune.remote import RemoteError

if TYPE_CHECKING:  # SSH (asyncssh) loads where a session is opened (issue 22)
    from sbctune.remote.session import RemoteProcess, Session

log = logging.getLogger(__name__)

IDLE_S = 2.0  # idle probing before each test: 20 probes at 10 a second
HEADER_WAIT_S = 10.0  # python3's start on a Pi 1 under load takes a few seconds at worst
Phase = Literal["idle", "ramp", "loaded"]
PROBE_ARGV = ("python3", "-")  # the program arrives on stdin: nothing of it is shell text
NO_PYTHON = (
    "Latency under load was not measured: the Pi has no python3 to run the probe "
    "(Raspberry Pi OS has it; `sudo apt install python3-minimal` adds it elsewhere)."
)


@dataclass(frozen=True)
class LiveLatency:
    """One probe's round trip (None: lost), `t` seconds from the test's start (negative: the
    idle seconds before it), on the same axis as LiveInterval's."""

    test_index: int
    spec: TestSpec
    t: float
    rtt_ms: float | None
    phase: Phase


TURNED_OFF = "Latency under load was not measured: it was turned off for this run (--no-latency)."


class _Window:
    """When this test's phases begin, on this PC's clock."""

    def __init__(self) -> None:
        self.anchor: float | None = None  # the probe's t=0 (its header's arrival)
        self.load_start = float("inf")
        self.loaded_from = float("inf")
        self.end = float("inf")

    def start_load_at(self, when: float, omit: float) -> None:
        self.load_start = when
        self.loaded_from = when + omit

    def phase(self, sent: float) -> Phase | None:
        if sent >= self.end:
            return None
        if sent < self.load_start:
            return "idle"
        return "loaded" if sent >= self.loaded_from else "ramp"


class LatencyMonitor:
    """One per run; `record` is what the run stores (`MeasureRun.latency`)."""

    def __init__(
        self,
        session: Session,
        pc_address: str,
        pi_address: str | None,
        emit: Callable[[LiveLatency], None],
        *,
        enabled: bool = True,
        idle_s: float = IDLE_S,
    ) -> None:
        self.session = session
        self.pc_address = pc_address
        self.pi_address = pi_address
        self.emit = emit
        self.enabled = enabled
        self.idle_s = idle_s
        self.token = new_token()
        self._exit: int | None = None  # the probe's exit status, once it ended
        self._has_python: bool | None = None
        self.warnings: list[ParseWarning] = []
        self.record: dict[str, Any] = {"version": 1, "interval_s": INTERVAL_S, "groups": {}}
        self._before_last: tuple[str, tuple[int, int, int, int, int]] | None = None
        if not enabled:
            self._note(TURNED_OFF)

    def _note(self, text: str) -> None:
        notes = self.record.setdefault("notes", [])
        if text not in notes and len(notes) < 5:
            notes.append(text)

    def _not_measured(self, why: str) -> None:
        """Note why, and stop trying for the rest of the run (each try would wait again)."""
        self.enabled = False
        if why == NO_PYTHON:
            self._note(NO_PYTHON)
        else:
            self._note(f"Latency under load was not measured: {why[:200]}.")

    def _group(self, key: str) -> dict[str, Any]:
        empty: dict[str, Any] = {"idle_ms": [], "loaded_ms": [], "idle_lost": 0, "loaded_lost": 0}
        group: dict[str, Any] = self.record["groups"].setdefault(key, empty)
        return group

    @contextlib.asynccontextmanager
    async def around(self, index: int, spec: TestSpec) -> AsyncIterator[None]:
        import asyncssh  # loaded by the session already; not at import (issue 22)

        key = group_key(spec.mode, spec.directions)
        self._before_last = None  # a test without probes has none to forget
        if not self.enabled or key not in KEYS or spec.protocol != "tcp":  # TCP tests only
            yield
            return
        if self._has_python is None:  # once per run: is there a python3 to run the probe?
            self._has_python = await self._python_found()
        if not self._has_python:
            self._not_measured(NO_PYTHON)
            yield
            return
        window = _Window()
        marks = self._marks(key)
        self._before_last = (key, self._counts(key))
        responder = Responder(self.pc_address, self.token)
        process: RemoteProcess | None = None
        reader: asyncio.Task[None] | None = None
        header = asyncio.Event()
        try:
            try:
                await responder.start()
                config = ProbeConfig(
                    self.pc_address, responder.port, self.token,
                    seconds=self.idle_s + spec.omit + spec.duration + 15, bind=self.pi_address,
                )  # fmt: skip
                process = await self.session.start(list(PROBE_ARGV), stdin=program(config))
                reader = asyncio.create_task(self._read(process, index, spec, key, window, header))
                waiter = asyncio.create_task(header.wait())
                try:
                    await asyncio.wait(
                        {waiter, reader}, timeout=HEADER_WAIT_S, return_when="FIRST_COMPLETED"
                    )
                finally:
                    waiter.cancel()  # also when cancelled here: no task left pending
                if header.is_set():
                    # The load starts idle_s after the probe's header (the reader set when, as
                    # the header came): what is sent before is idle, after it the ramp-up
                    # (omitted seconds), then loaded.
                    await asyncio.sleep(max(0.0, window.load_start - time.monotonic()))
                else:
                    self._not_measured(
                        NO_PYTHON if self._exit == 127 else "the probe did not start on the Pi"
                    )
            except (OSError, RemoteError, asyncssh.Error, ValueError) as exc:
                self._not_measured(str(exc) or type(exc).__name__)
            if window.load_start == float("inf"):  # the probe did not start
                window.start_load_at(time.monotonic(), spec.omit)
            yield
        finally:
            window.end = time.monotonic()
            await asyncio.shield(self._stop(process, reader, responder))
            self._check_answers(key, responder)
            self._trial(key, marks)

    def _counts(self, key: str) -> tuple[int, int, int, int, int]:
        group = self.record["groups"].get(key) or self._group(key)
        return (len(group["idle_ms"]), len(group["loaded_ms"]), group["idle_lost"],
                group["loaded_lost"], len(group.get("trial_added_ms", [])))  # fmt: skip

    def forget_last_trial(self) -> None:
        """The last test stopped (its link was lost): the probes sent meanwhile went unanswered
        because of that, not because of a queue, so that trial's probes are left out (walk19:
        a link down 4 s read "98 % of the probes got no answer: bufferbloat", grade F)."""
        if self._before_last is None:
            return
        key, (idle, loaded, idle_lost, loaded_lost, trials) = self._before_last
        self._before_last = None
        group = self.record["groups"].get(key)
        if group is not None:
            del group["idle_ms"][idle:], group["loaded_ms"][loaded:]
            group["idle_lost"], group["loaded_lost"] = idle_lost, loaded_lost
            del group.setdefault("trial_added_ms", [])[trials:]
            if not group["trial_added_ms"]:
                del group["trial_added_ms"]
            if not (group["idle_ms"] or group["loaded_ms"] or idle_lost or loaded_lost):
                del self.record["groups"][key]
        # Why it stopped is the run's own note; said once there, not again here.
        self._note("The latency probes of the test whose link was lost are left out.")

    def _marks(self, key: str) -> tuple[int, int]:
        group = self.record["groups"].get(key)
        return (len(group["idle_ms"]), len(group["loaded_ms"])) if group else (0, 0)

    def _trial(self, key: str, marks: tuple[int, int]) -> None:
        """This trial's own added latency (loaded median minus idle median), kept per trial:
        a comparison gives latency under load an interval from them (compare.latency)."""
        group = self.record["groups"].get(key)
        if not group:
            return
        idle, loaded = group["idle_ms"][marks[0] :], group["loaded_ms"][marks[1] :]
        if len(idle) >= MIN_SAMPLES and len(loaded) >= MIN_SAMPLES:
            added = max(0.0, statistics.median(loaded) - statistics.median(idle))
            group.setdefault("trial_added_ms", []).append(round(added, 3))

    async def _python_found(self) -> bool:
        """`command -v` on the Pi (the name is an argument, not shell text); a failed check
        counts as found, so the probe's own start says what went wrong."""
        import asyncssh  # loaded by the session already; not at import (issue 22)

        try:
            found = await self.session.run(
                ["sh", "-c", 'command -v "$1"', "sh", PROBE_ARGV[0]], timeout=20
            )
        except (OSError, RemoteError, asyncssh.Error, asyncio.TimeoutError):
            return True
        return found.ok

    async def _stop(
        self,
        process: RemoteProcess | None,
        reader: asyncio.Task[None] | None,
        responder: Responder,
    ) -> None:
        import asyncssh  # loaded by the session already; not at import (issue 22)

        if reader is not None:
            reader.cancel()
            await asyncio.wait([reader])
        if process is not None:
            with contextlib.suppress(OSError, RemoteError, asyncssh.Error):
                await process.cancel()
        responder.stop()

    def _check_answers(self, key: str, responder: Responder) -> None:
        group = self.record["groups"].get(key)
        if group and not (group["idle_ms"] or group["loaded_ms"] or group["idle_lost"]):
            del self.record["groups"][key]  # the probe never ran: nothing to report but a note
        elif group and not group["idle_ms"] and group["idle_lost"]:
            self._note(
                "No latency probe was answered: a firewall on this PC may block UDP from the "
                "Pi (the probes go to a random UDP port on this PC)."
            )

    async def _read(
        self,
        process: RemoteProcess,
        index: int,
        spec: TestSpec,
        key: str,
        window: _Window,
        header: asyncio.Event,
    ) -> None:
        import asyncssh  # loaded by the session already; not at import (issue 22)

        group = self._group(key)
        lines = 0
        try:
            async for line in process.lines():
                lines += 1
                if lines > 25000:  # the probe's own bound is 20000 probes
                    break
                if not header.is_set():
                    if line.startswith("sbctune-latency "):
                        window.anchor = time.monotonic()
                        # When the load starts is known before the first probe's line is read
                        # (it may come in the same read as the header): a probe's time is
                        # never counted from an unknown start (-inf on the plot's axis).
                        window.start_load_at(window.anchor + self.idle_s, spec.omit)
                        header.set()
                    continue
                self._take(line, index, spec, group, window)
            if not header.is_set():
                self._exit = await process.wait()  # 127: `exec python3` found no python3
        except (RemoteError, asyncssh.Error, OSError) as exc:
            log.debug("the latency probe's channel failed: %s", exc)

    def _take(
        self, line: str, index: int, spec: TestSpec, group: dict[str, Any], window: _Window
    ) -> None:
        probe, warning = parse_line(line)
        if warning is not None and len(self.warnings) < 20:
            self.warnings.append(warning)
        if probe is None or window.anchor is None:
            return
        sent = window.anchor + probe.t_ms / 1000
        phase = window.phase(sent)
        if phase is None:
            return
        if phase != "ramp":
            if probe.rtt_ms is None:
                group[f"{phase}_lost"] += 1
            else:
                group[f"{phase}_ms"].append(round(probe.rtt_ms, 3))
        event = LiveLatency(index, spec, round(sent - window.load_start, 3), probe.rtt_ms, phase)
        try:
            self.emit(event)
        except Exception:  # a broken display must not stop the measurement
            log.exception("the latency event's callback failed")
