"""The Pi sampler: per-core CPU, NET softirqs, the NIC's interrupts and byte counters, and the
firmware's throttle flags, SoC temperature and CPU clock, live.

One long-lived SSH channel runs a small POSIX sh loop on the Pi: an exec per sample would cost
a round trip and sshd work on the Pi each time, disturbing the very load being measured. The
loop prints one framed block per sample; this module cuts the stream into blocks, parses them
with the inventory's /proc parsers, and turns consecutive blocks into rates (`PiSample`).

Safety: the loop is bounded in samples and in time, dies of SIGPIPE when the channel goes away,
and `stop()` kills it (and its `sleep`) on the Pi. The interface name and IRQ numbers reach
the script as argv, never pasted into shell text; what the Pi prints is only ever parsed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import re
import time
from collections.abc import Callable, Iterable, Sequence
from types import TracebackType
from typing import TYPE_CHECKING, Any

from sbctune import aio
from sbctune.errors import UserError
from sbctune.inventory.parsers.common import ParseWarning

# The records, the parsing of a block and the arithmetic live in their own modules; their
# public names are kept here, where callers import them from.
from sbctune.measure.sampler_data import (
    CoreSummary,
    CpuLoad,
    PiSample,
    PowerReading,
    PowerSummary,
    RawSample,
    SamplerSummary,
)
from sbctune.measure.sampler_framing import (
    MARK,
    SOURCE,
    SampleFramer,
    interrupts_pattern,
    nic_irq_counts,
    parse_block,
    parse_power,
)
from sbctune.measure.sampler_math import cpu_load, delta, summarize, summarize_power
from sbctune.remote import Disconnected, RemoteError, snippets

if TYPE_CHECKING:  # SSH (asyncssh) loads where a session is opened (issue 22)
    from sbctune.remote.session import RemoteProcess, Session

log = logging.getLogger(__name__)

IFACE_RE = re.compile(r"^[A-Za-z0-9_.:@-]{1,15}$")
# Files the loop may watch: a tuning session's state and the sysfs/procfs knobs it set.
WATCH_RE = re.compile(r"^/(sys|proc/sys|proc/irq|var/lib/sbctune)/[A-Za-z0-9_.:,+@/-]{1,200}$")
MAX_WATCH = 32
MIN_INTERVAL = 0.1
MAX_INTERVAL = 1.0  # the design asks for at least one sample a second

SCRIPT = snippets.SAMPLER_LOOP  # the loop run on the Pi (one module of remote snippets)


class SamplerError(UserError):
    """The sampler was asked for something it cannot do."""


__all__ = [
    "MARK",
    "MAX_INTERVAL",
    "MIN_INTERVAL",
    "SCRIPT",
    "SOURCE",
    "CoreSummary",
    "CpuLoad",
    "PiSample",
    "PiSampler",
    "PowerReading",
    "PowerSummary",
    "RawSample",
    "SampleCallback",
    "SampleFramer",
    "SamplerError",
    "SamplerSummary",
    "cpu_load",
    "delta",
    "interrupts_pattern",
    "nic_irq_counts",
    "parse_block",
    "parse_power",
    "summarize",
    "summarize_power",
    "validate_iface",
]


# --------------------------------------------------------------------------- the runner

SampleCallback = Callable[[PiSample], None]


def validate_iface(iface: str) -> str:
    if not IFACE_RE.fullmatch(iface):
        raise SamplerError(
            f"“{iface}” is not a valid network interface name.",
            "Use the name the Pi shows in `ip link` (e.g. eth0, eth1, enp1s0).",
        )
    return iface


class PiSampler:
    """Samples the Pi every `interval` seconds until `stop()` (or `max_duration`).

    `samples` grows live and `on_sample` is called with each new PiSample. Use it as
    `async with PiSampler(...) as sampler:` or `await start()` / `await stop()`.
    """

    def __init__(
        self,
        session: Session,
        iface: str,
        irqs: Iterable[int] = (),
        interval: float = 0.5,
        on_sample: SampleCallback | None = None,
        *,
        max_duration: float = 3600.0,
        clock: Callable[[], float] = time.monotonic,
        watch: Sequence[str] = (),
    ) -> None:
        if not MIN_INTERVAL <= interval <= MAX_INTERVAL:
            raise SamplerError(
                f"The sampling interval must be {MIN_INTERVAL:g} to {MAX_INTERVAL:g} s, "
                f"not {interval:g} s.",
            )
        if not 0 < max_duration <= 86400:
            raise SamplerError(f"The sampler's maximum duration {max_duration:g} s is not valid.")
        self.session = session
        self.iface = validate_iface(iface)
        self.irqs = sorted({int(n) for n in irqs})
        if any(n < 0 for n in self.irqs):
            raise SamplerError(f"IRQ numbers cannot be negative: {self.irqs}.")
        self.interval = interval
        # Read with every sample on the same channel (no extra round trip), printed when one
        # changed: `watched` is the latest reading of each, `first_watched` the first.
        self.watch = [p for p in dict.fromkeys(watch) if WATCH_RE.fullmatch(p) and ".." not in p]
        self.watch = self.watch[:MAX_WATCH]
        self.watched: dict[str, str | None] = {}
        self.first_watched: dict[str, str | None] | None = None
        self.on_sample = on_sample
        self.max_duration = max_duration
        self._clock = clock
        self.samples: list[PiSample] = []
        self.warnings: list[ParseWarning] = []
        self.error: RemoteError | None = None  # set when the channel failed mid-way
        self._seen_warnings: set[str] = set()
        self._process: RemoteProcess | None = None
        self._reader: asyncio.Task[None] | None = None
        self._stderr: asyncio.Task[str] | None = None
        self._previous: RawSample | None = None
        self._anchor: tuple[float, float] | None = None  # (this computer's clock, Pi uptime)

    def argv(self) -> list[str]:
        max_samples = math.ceil(self.max_duration / self.interval) + 1
        return [
            "sh", "-c", SCRIPT, "sh",
            self.iface, f"{self.interval:.3f}", str(max_samples),
            str(math.ceil(self.max_duration)), interrupts_pattern(self.iface, self.irqs),
            *self.watch,
        ]  # fmt: skip

    @property
    def running(self) -> bool:
        return self._reader is not None and not self._reader.done()

    async def start(self) -> None:
        if self._process is not None:
            raise SamplerError("This sampler was already started; make a new one.")
        self._process = await self.session.start(self.argv())
        # stderr shares the channel's flow-control window with stdout: drain it, or a chatty
        # stderr could stall the samples.
        self._stderr = asyncio.create_task(self._process.read_stderr())
        self._reader = asyncio.create_task(self._read(self._process))

    async def stop(self) -> None:
        """Stop sampling and make sure the loop is gone from the Pi."""
        import asyncssh  # loaded by the session already; not at import (issue 22)

        if self._reader is not None:
            self._reader.cancel()
            # wait() neither re-raises the reader's CancelledError nor swallows our own.
            await asyncio.wait([self._reader])
        if self._process is not None:
            await self._process.cancel()  # a no-op when the loop already ended by itself
        if self._stderr is not None:
            with contextlib.suppress(
                asyncio.CancelledError, asyncio.TimeoutError, RemoteError, asyncssh.Error, OSError
            ):
                stderr = await aio.wait_for(self._stderr, 5)
                for line in stderr.splitlines()[:5]:
                    self._warn(ParseWarning(SOURCE, "the Pi said: " + line[:200]))
            self._stderr = None

    async def wait(self) -> None:
        """Until the loop ends by itself (its sample or time limit) or fails."""
        if self._reader is not None:
            await asyncio.shield(self._reader)

    def note_watched(self, into: dict[str, Any], index: int) -> None:
        """What the watched files read at the end of test `index` (and first, before any
        test), into a run's `tuning_watch`."""
        if not self.watch or self.first_watched is None:
            return
        into.setdefault("first", dict(self.first_watched))
        into.setdefault("tests", {})[str(index)] = dict(self.watched)

    def summary(self, start: float | None = None, end: float | None = None) -> SamplerSummary:
        """Per-core means and maxima over [start, end] (time.monotonic() of this computer)."""
        return summarize(self.samples, start, end)

    async def __aenter__(self) -> PiSampler:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await asyncio.shield(self.stop())

    # ------------------------------------------------------------------ internals
    async def _read(self, process: RemoteProcess) -> None:
        import asyncssh  # loaded by the session already; not at import (issue 22)

        framer = SampleFramer()
        try:
            async for line in process.lines():
                block, warnings = framer.feed(line)
                for warning in warnings:
                    self._warn(warning)
                if block is not None:
                    self._take(block)
            await process.wait()  # ended by itself: nothing left to kill
        except RemoteError as exc:
            self.error = exc
        except (asyncssh.Error, OSError) as exc:  # the link dropped mid-stream
            self.error = Disconnected(self.session.target.host, str(exc))

    def _take(self, block: list[str]) -> None:
        raw, warnings = parse_block(block, self.iface, self.irqs)
        for warning in warnings:
            self._warn(warning)
        if raw is None:
            return
        if raw.tuning is not None and len(raw.tuning) == len(self.watch):
            pairs = zip(self.watch, raw.tuning, strict=True)
            self.watched = {p: (None if v == "-" else v) for p, v in pairs}
            if self.first_watched is None:
                self.first_watched = dict(self.watched)
        now = self._clock()
        if self._anchor is None:
            self._anchor = (now, raw.uptime)
        previous, self._previous = self._previous, raw
        if previous is None:
            return
        t = self._anchor[0] + (raw.uptime - self._anchor[1])
        sample, warnings = delta(previous, raw, t)
        for warning in warnings:
            self._warn(warning)
        if sample is None:
            return
        self.samples.append(sample)
        if self.on_sample is not None:
            try:
                self.on_sample(sample)
            except Exception:  # a broken display must not stop the measurement
                log.exception("the sampler's on_sample callback failed")

    def _warn(self, warning: ParseWarning) -> None:
        # The same problem repeats in every sample; keep each message once.
        if warning.message not in self._seen_warnings:
            self._seen_warnings.add(warning.message)
            self.warnings.append(warning)
