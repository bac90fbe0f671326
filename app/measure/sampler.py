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
from dataclasses import asdict, dataclass, field
from types import TracebackType
from typing import Any

import asyncssh

from sbctune.errors import UserError
from sbctune.inventory.parsers.common import ParseWarning
from sbctune.inventory.parsers.procfs import (
    CpuTimes,
    Interrupts,
    parse_interrupts,
    parse_proc_stat,
    parse_softirqs,
)
from sbctune.inventory.parsers.vcgencmd import throttle_events
from sbctune.remote import Disconnected, RemoteError, RemoteProcess, Session, snippets

log = logging.getLogger(__name__)

SOURCE = "Pi sampler"
MARK = "@@sbctune-"  # no line of /proc/stat, /proc/softirqs or /proc/interrupts starts with "@"
IFACE_RE = re.compile(r"^[A-Za-z0-9_.:@-]{1,15}$")
MIN_INTERVAL = 0.1
MAX_INTERVAL = 1.0  # the design asks for at least one sample a second
_CPU_HEADER = re.compile(r"^\s*CPU\d")
_MAX_BLOCK_LINES = 2000  # a real block is tens of lines; more means garbage, not a sample

SCRIPT = snippets.SAMPLER_LOOP  # the loop run on the Pi (one module of remote snippets)


class SamplerError(UserError):
    """The sampler was asked for something it cannot do."""


# --------------------------------------------------------------------------- data


@dataclass(frozen=True)
class PowerReading:
    """One reading of the Pi's power and thermal state; None: the kernel does not show it."""

    throttled: int | None = None  # get_throttled's bits (see throttle_events)
    temp_c: float | None = None  # thermal_zone0 (the SoC)
    cpu_mhz: float | None = None  # cpu0's scaling_cur_freq


@dataclass(frozen=True)
class RawSample:
    """One block as the Pi printed it, parsed: counters since boot, not rates yet."""

    seq: int
    uptime: float
    cpus: dict[int, CpuTimes]
    net_rx: list[int]  # NET_RX softirqs per CPU
    net_tx: list[int]
    nic_irqs: list[int] | None  # per CPU, summed over the NIC's lines; None: no line found
    rx_bytes: int | None  # None: the Pi has no counters for the interface
    tx_bytes: int | None
    power: PowerReading = field(default_factory=PowerReading)


@dataclass(frozen=True)
class CpuLoad:
    """Shares (percent) of one core's time over one sample interval."""

    cpu: int
    user: float
    nice: float
    system: float
    irq: float
    softirq: float
    iowait: float
    steal: float
    idle: float
    busy: float  # everything but idle and iowait

    @property
    def irq_softirq(self) -> float:
        return self.irq + self.softirq


@dataclass(frozen=True)
class PiSample:
    """What happened on the Pi between two raw samples.

    `t` is on this computer's `time.monotonic()` clock (so it lines up with iperf3 intervals
    received here): the first sample's arrival plus the Pi's own uptime since then, which keeps
    the Pi's precise spacing. The sample covers (`t - interval`, `t`].
    """

    t: float
    interval: float
    uptime: float
    cpus: list[CpuLoad]
    net_rx_softirq_per_s: list[float]
    net_tx_softirq_per_s: list[float]
    nic_irqs_per_s: list[float]  # empty when no interrupt line matched the NIC
    rx_mbps: float | None
    tx_mbps: float | None
    power: PowerReading = field(default_factory=PowerReading)  # at the end (`t`)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class CoreSummary:
    cpu: int
    mean_busy: float
    max_busy: float
    mean_irq_softirq: float
    max_irq_softirq: float
    mean_net_rx_softirq_per_s: float
    mean_net_tx_softirq_per_s: float
    mean_nic_irqs_per_s: float


@dataclass(frozen=True)
class SamplerSummary:
    """Time-weighted means and maxima over a window of samples."""

    samples: int
    duration: float
    cores: list[CoreSummary] = field(default_factory=list)
    busiest_core: int | None = None  # highest mean busy share
    busiest_irq_core: int | None = None  # highest mean irq+softirq share (network bottleneck)
    mean_rx_mbps: float | None = None
    mean_tx_mbps: float | None = None
    max_rx_mbps: float | None = None
    max_tx_mbps: float | None = None
    power: PowerSummary | None = None  # None: no sample had any power reading

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


# get_throttled bits (Raspberry Pi documentation, `vcgencmd get_throttled`): 0-3 hold now, 16-19
# "has occurred" (see throttle_events). The firmware clears the "occurred" bits when the kernel
# asks with 0xffff, which raspberrypi/linux's hwmon driver does every 2 s
# (drivers/hwmon/raspberrypi-hwmon.c, get_values_poll), so in the sysfs value they mean "within
# the last poll", not "since boot": any bit seen during a window happened around that window.


@dataclass(frozen=True)
class PowerSummary:
    """The Pi's power and thermal state over a window (e.g. one test)."""

    samples: int  # samples with a get_throttled reading
    throttled_any: int | None = None  # every bit seen set (OR of all readings)
    events: list[str] = field(default_factory=list)  # throttle_events(throttled_any)
    first_event_s: float | None = None  # seconds from the window's start to the first flag
    flagged_samples: int = 0  # readings with any flag set
    first_flags: int | None = None  # the first flagged reading, as the Pi printed it
    max_temp_c: float | None = None
    min_cpu_mhz: float | None = None
    max_cpu_mhz: float | None = None

    @property
    def under_voltage(self) -> bool:
        return "under-voltage" in self.events


def summarize_power(samples: Sequence[PiSample], start: float | None = None) -> PowerSummary | None:
    readings = [s for s in samples if s.power != PowerReading()]
    if not readings:
        return None
    flags = [s for s in readings if s.power.throttled is not None]
    flagged = [s for s in flags if s.power.throttled]
    any_bits = 0
    for s in flags:
        any_bits |= s.power.throttled or 0
    origin = start if start is not None else samples[0].t - samples[0].interval
    temps = [s.power.temp_c for s in readings if s.power.temp_c is not None]
    clocks = [s.power.cpu_mhz for s in readings if s.power.cpu_mhz is not None]
    return PowerSummary(
        samples=len(flags),
        throttled_any=any_bits if flags else None,
        events=throttle_events(any_bits),
        first_event_s=max(0.0, flagged[0].t - origin) if flagged else None,
        flagged_samples=len(flagged),
        first_flags=flagged[0].power.throttled if flagged else None,
        max_temp_c=max(temps) if temps else None,
        min_cpu_mhz=min(clocks) if clocks else None,
        max_cpu_mhz=max(clocks) if clocks else None,
    )


# --------------------------------------------------------------------------- framing


def interrupts_pattern(iface: str, irqs: Iterable[int]) -> str:
    """The ERE the Pi's grep uses to keep only the lines we need (deliberately loose)."""
    alts = ["^ *CPU[0-9]", "[ ,]" + iface.replace(".", "[.]") + "([^A-Za-z0-9]|$)"]
    numbers = sorted({int(n) for n in irqs})
    if numbers:
        alts.append("^ *(" + "|".join(str(n) for n in numbers) + "):")
    return "|".join(alts)


class SampleFramer:
    """Cuts the loop's stdout into one list of lines per sample (marker to end marker)."""

    def __init__(self) -> None:
        self._block: list[str] | None = None

    def feed(self, line: str) -> tuple[list[str] | None, list[ParseWarning]]:
        """Take one line; returns a complete block when this line ends one."""
        if line.startswith(MARK + "sample "):
            warnings = []
            if self._block is not None:
                warnings.append(ParseWarning(SOURCE, "a sample was cut short"))
            self._block = [line]
            return None, warnings
        if self._block is None:
            return None, [ParseWarning(SOURCE, f"unexpected output: {line[:80]!r}")]
        if line.startswith(MARK + "end"):
            block, self._block = self._block, None
            return block, []
        self._block.append(line)
        if len(self._block) > _MAX_BLOCK_LINES:
            self._block = None
            return None, [ParseWarning(SOURCE, "a sample was too long to be real; dropped")]
        return None, []


def _matches_iface(name: str, iface: str) -> bool:
    """Names like eth1, eth1-rx-0 or eth1:0 belong to eth1; eth10 does not."""
    return name == iface or (
        name.startswith(iface) and not name[len(iface)].isalnum() and name[len(iface)] != "_"
    )


def nic_irq_counts(interrupts: Interrupts, iface: str, irqs: Iterable[int]) -> list[int] | None:
    """Per-CPU interrupt counts of the NIC's lines (by name or IRQ number), summed."""
    wanted = {str(int(n)) for n in irqs}
    lines = [
        irq
        for irq in interrupts.irqs
        if irq.irq in wanted or any(_matches_iface(n, iface) for n in irq.names)
    ]
    if not lines:
        return None
    width = max(len(irq.counts) for irq in lines)
    return [sum(irq.counts[i] for irq in lines if i < len(irq.counts)) for i in range(width)]


def _to_int(text: str) -> int | None:
    # isascii: str.isdigit() also accepts digits int() refuses ("¹").
    return int(text) if text.isascii() and text.isdigit() else None


_HEX = re.compile(r"^(?:0x)?([0-9a-f]{1,8})$")
_MILLI = re.compile(r"^-?[0-9]{1,7}$")
_KHZ = re.compile(r"^[0-9]{1,9}$")


def parse_power(fields: Sequence[str]) -> tuple[PowerReading, list[ParseWarning]]:
    """``@@sbctune-power THROTTLED TEMP KHZ``: get_throttled's hex (``50005``), millidegrees
    (``48312``) and kHz (``1500000``); ``-`` for a file the kernel lacks. Bad fields -> None."""
    warnings: list[ParseWarning] = []
    words = list(fields[:3]) + ["-"] * (3 - len(fields[:3]))
    throttled = temp = mhz = None
    hex_match = _HEX.match(words[0].lower())
    if hex_match:
        throttled = int(hex_match.group(1), 16)
    elif words[0] != "-":
        warnings.append(ParseWarning(SOURCE, f"unreadable get_throttled: {words[0][:40]!r}"))
    if _MILLI.match(words[1]):
        temp = int(words[1]) / 1000
    elif words[1] != "-":
        warnings.append(ParseWarning(SOURCE, f"unreadable SoC temperature: {words[1][:40]!r}"))
    if _KHZ.match(words[2]) and int(words[2]) > 0:
        mhz = int(words[2]) / 1000
    elif words[2] != "-":
        warnings.append(ParseWarning(SOURCE, f"unreadable CPU clock: {words[2][:40]!r}"))
    return PowerReading(throttled, temp, mhz), warnings


def parse_block(
    lines: Sequence[str], iface: str, irqs: Iterable[int] = ()
) -> tuple[RawSample | None, list[ParseWarning]]:
    """One framed block -> a RawSample. Never raises: garbage gives None and a warning."""
    try:
        return _parse_block(lines, iface, irqs)
    except Exception as exc:  # the Pi's text is data; a surprise in it must not stop sampling
        return None, [ParseWarning(SOURCE, f"a sample could not be read ({exc!r})")]


def _parse_block(
    lines: Sequence[str], iface: str, irqs: Iterable[int]
) -> tuple[RawSample | None, list[ParseWarning]]:
    head = lines[0].split() if lines else []
    if len(head) != 3 or head[0] != MARK + "sample" or _to_int(head[1]) is None:
        return None, [ParseWarning(SOURCE, "a sample has no valid header")]
    try:
        uptime = float(head[2])
    except ValueError:
        uptime = math.nan
    if not math.isfinite(uptime) or uptime < 0:
        return None, [ParseWarning(SOURCE, f"a sample has no valid time: {head[2][:40]!r}")]

    sections: dict[str, list[str]] = {}
    net_fields: list[str] = []
    power_fields: list[str] | None = None  # None: a sampler without the power line
    current: list[str] | None = None
    for line in lines[1:]:
        if line.startswith(MARK):
            words = line[len(MARK) :].split()
            name = words[0] if words else ""
            if name == "net":
                net_fields = words[1:]
                current = None
            elif name == "power":
                power_fields = words[1:]
                current = None
            else:
                current = sections.setdefault(name, [])
            continue
        if current is not None:
            current.append(line)

    warnings: list[ParseWarning] = []
    stat, w = parse_proc_stat("\n".join(sections.get("stat", [])))
    warnings += w
    softirqs, w = parse_softirqs("\n".join(sections.get("softirqs", [])))
    warnings += w
    irq_lines = sections.get("interrupts", [])
    interrupts = Interrupts()
    # Only the CPU header is normal: the NIC may have no line of its own (nic_irqs is None).
    if any(line.strip() and not _CPU_HEADER.match(line) for line in irq_lines):
        interrupts, w = parse_interrupts("\n".join(irq_lines))
        warnings += w
    if not stat.cpus:
        return None, warnings or [ParseWarning(SOURCE, "a sample has no per-CPU times")]

    rx = _to_int(net_fields[0]) if len(net_fields) >= 1 else None
    tx = _to_int(net_fields[1]) if len(net_fields) >= 2 else None
    if rx is None or tx is None:
        warnings.append(
            ParseWarning(SOURCE, f"the Pi has no byte counters for {iface} (is the name right?)")
        )
    power = PowerReading()
    if power_fields is not None:
        power, w = parse_power(power_fields)
        warnings += w
    sample = RawSample(
        seq=int(head[1]),
        uptime=uptime,
        cpus=dict(stat.cpus),
        net_rx=list(softirqs.net_rx),
        net_tx=list(softirqs.net_tx),
        nic_irqs=nic_irq_counts(interrupts, iface, irqs),
        rx_bytes=rx,
        tx_bytes=tx,
        power=power,
    )
    return sample, warnings


# --------------------------------------------------------------------------- delta math

_LOAD_FIELDS = ("user", "nice", "system", "irq", "softirq", "iowait", "steal", "idle")


def cpu_load(cpu: int, before: CpuTimes, after: CpuTimes) -> CpuLoad:
    """Shares of each state between two readings. Counters that go backwards (iowait does on
    some kernels) count as zero rather than as negative time."""
    ticks = {f: max(0, getattr(after, f) - getattr(before, f)) for f in _LOAD_FIELDS}
    total = sum(ticks.values())
    if total == 0:  # both readings within one clock tick: nothing measurable happened
        return CpuLoad(cpu, 0, 0, 0, 0, 0, 0, 0, 100.0, 0)
    pct = {f: 100.0 * n / total for f, n in ticks.items()}
    busy = 100.0 * (total - ticks["idle"] - ticks["iowait"]) / total
    return CpuLoad(cpu=cpu, busy=busy, **pct)


def _rates(before: Sequence[int], after: Sequence[int], seconds: float) -> list[float]:
    # A counter lower than before (CPU hot-plug, reset) gives 0, not a negative rate.
    return [max(0, b - a) / seconds for a, b in zip(before, after, strict=False)]


def _mbps(before: int | None, after: int | None, seconds: float) -> float | None:
    if before is None or after is None or after < before:
        return None
    return (after - before) * 8 / seconds / 1e6


def delta(
    before: RawSample, after: RawSample, t: float
) -> tuple[PiSample | None, list[ParseWarning]]:
    """The rates between two raw samples; `t` is the time to stamp the result with."""
    seconds = after.uptime - before.uptime
    if not seconds > 0:
        return None, [ParseWarning(SOURCE, "two samples with the same time; skipped")]
    warnings: list[ParseWarning] = []
    cpus = [
        cpu_load(n, before.cpus[n], after.cpus[n]) for n in sorted(after.cpus) if n in before.cpus
    ]
    rx = _mbps(before.rx_bytes, after.rx_bytes, seconds)
    tx = _mbps(before.tx_bytes, after.tx_bytes, seconds)
    counters_known = None not in (before.rx_bytes, after.rx_bytes, before.tx_bytes, after.tx_bytes)
    if counters_known and (rx is None or tx is None):
        warnings.append(ParseWarning(SOURCE, "the NIC's byte counters went backwards (reset?)"))
    irqs = (
        _rates(before.nic_irqs, after.nic_irqs, seconds)
        if before.nic_irqs is not None and after.nic_irqs is not None
        else []
    )
    sample = PiSample(
        t=t,
        interval=seconds,
        uptime=after.uptime,
        cpus=cpus,
        net_rx_softirq_per_s=_rates(before.net_rx, after.net_rx, seconds),
        net_tx_softirq_per_s=_rates(before.net_tx, after.net_tx, seconds),
        nic_irqs_per_s=irqs,
        rx_mbps=rx,
        tx_mbps=tx,
        power=after.power,
    )
    return sample, warnings


# --------------------------------------------------------------------------- summary


def _weighted_mean(pairs: Sequence[tuple[float, float]]) -> float:
    weight = sum(w for _, w in pairs)
    return sum(v * w for v, w in pairs) / weight if weight > 0 else 0.0


def _at(values: Sequence[float], i: int) -> float:
    return values[i] if i < len(values) else 0.0


def summarize(
    samples: Sequence[PiSample], start: float | None = None, end: float | None = None
) -> SamplerSummary:
    """Means (weighted by each sample's interval) and maxima of the samples whose interval's
    midpoint lies in [start, end]: e.g. the non-omitted part of a test."""
    chosen = [
        s
        for s in samples
        if (start is None or s.t - s.interval / 2 >= start)
        and (end is None or s.t - s.interval / 2 <= end)
    ]
    if not chosen:
        return SamplerSummary(samples=0, duration=0.0)
    cores: list[CoreSummary] = []
    for cpu in sorted({c.cpu for s in chosen for c in s.cpus}):
        loads = [(s, c) for s in chosen for c in s.cpus if c.cpu == cpu]
        # /proc/softirqs and /proc/interrupts have one column per CPU number, in order.
        cores.append(
            CoreSummary(
                cpu=cpu,
                mean_busy=_weighted_mean([(c.busy, s.interval) for s, c in loads]),
                max_busy=max(c.busy for _, c in loads),
                mean_irq_softirq=_weighted_mean([(c.irq_softirq, s.interval) for s, c in loads]),
                max_irq_softirq=max(c.irq_softirq for _, c in loads),
                mean_net_rx_softirq_per_s=_weighted_mean(
                    [(_at(s.net_rx_softirq_per_s, cpu), s.interval) for s, _ in loads]
                ),
                mean_net_tx_softirq_per_s=_weighted_mean(
                    [(_at(s.net_tx_softirq_per_s, cpu), s.interval) for s, _ in loads]
                ),
                mean_nic_irqs_per_s=_weighted_mean(
                    [(_at(s.nic_irqs_per_s, cpu), s.interval) for s, _ in loads]
                ),
            )
        )
    rx = [(s.rx_mbps, s.interval) for s in chosen if s.rx_mbps is not None]
    tx = [(s.tx_mbps, s.interval) for s in chosen if s.tx_mbps is not None]
    return SamplerSummary(
        samples=len(chosen),
        duration=sum(s.interval for s in chosen),
        cores=cores,
        busiest_core=max(cores, key=lambda c: c.mean_busy).cpu if cores else None,
        busiest_irq_core=max(cores, key=lambda c: c.mean_irq_softirq).cpu if cores else None,
        mean_rx_mbps=_weighted_mean(rx) if rx else None,
        mean_tx_mbps=_weighted_mean(tx) if tx else None,
        max_rx_mbps=max(v for v, _ in rx) if rx else None,
        max_tx_mbps=max(v for v, _ in tx) if tx else None,
        power=summarize_power(chosen, start),
    )


# --------------------------------------------------------------------------- the runner

SampleCallback = Callable[[PiSample], None]


def validate_iface(iface: str) -> str:
    if not IFACE_RE.fullmatch(iface):
        raise SamplerError(
            f"'{iface}' is not a valid network interface name.",
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
                stderr = await asyncio.wait_for(self._stderr, 5)
                for line in stderr.splitlines()[:5]:
                    self._warn(ParseWarning(SOURCE, "the Pi said: " + line[:200]))
            self._stderr = None

    async def wait(self) -> None:
        """Until the loop ends by itself (its sample or time limit) or fails."""
        if self._reader is not None:
            await asyncio.shield(self._reader)

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
