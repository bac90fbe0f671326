"""Reading the Pi sampler's stream: cutting it into framed blocks and parsing each block with
the inventory's /proc parsers into a ``RawSample`` (a parser: garbage gives warnings, never a
crash). ``sampler`` re-exports the public names."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from sbctune.inventory.parsers.common import ParseWarning
from sbctune.inventory.parsers.procfs import (
    Interrupts,
    parse_interrupts,
    parse_proc_stat,
    parse_softirqs,
)
from sbctune.measure.sampler_data import LabCpu, PowerReading, RawSample

SOURCE = "Pi sampler"
MARK = "@@sbctune-"  # no line of /proc/stat, /proc/softirqs or /proc/interrupts starts with "@"
_CPU_HEADER = re.compile(r"^\s*CPU\d")
_MAX_BLOCK_LINES = 2000  # a real block is tens of lines; more means garbage, not a sample


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


_LAB_CPU = re.compile(r"^host_cpus=([0-9]{1,4})(?: pi_cpus=([0-9]{1,4}))?$")


def parse_lab_cpu(fields: Sequence[str]) -> LabCpu | None:
    """``@@sbctune-labcpu host_cpus=2 pi_cpus=4``: the lab's marker (sampler_data.LabCpu).
    Anything else is no marker (the CPU chart then says "the Pi's", as for any Pi)."""
    match = _LAB_CPU.match(" ".join(fields[:3]))
    if not match or int(match.group(1)) < 1:
        return None
    pi = int(match.group(2)) if match.group(2) else None
    return LabCpu(int(match.group(1)), pi if pi else None)


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
    parts = _sections(lines[1:])
    warnings: list[ParseWarning] = []
    stat, w = parse_proc_stat("\n".join(parts.sections.get("stat", [])))
    warnings += w
    softirqs, w = parse_softirqs("\n".join(parts.sections.get("softirqs", [])))
    warnings += w
    interrupts, w = _interrupts(parts.sections.get("interrupts", []))
    warnings += w
    if not stat.cpus:
        return None, warnings or [ParseWarning(SOURCE, "a sample has no per-CPU times")]
    net = parts.net_fields
    rx = _to_int(net[0]) if len(net) >= 1 else None
    tx = _to_int(net[1]) if len(net) >= 2 else None
    if rx is None or tx is None:
        warnings.append(
            ParseWarning(SOURCE, f"the Pi has no byte counters for {iface} (is the name right?)")
        )
    power = PowerReading()
    if parts.power_fields is not None:
        power, w = parse_power(parts.power_fields)
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
        tuning=_watched(parts.sections["tuning"]) if "tuning" in parts.sections else None,
        lab_cpu=parts.lab_cpu,
    )
    return sample, warnings


@dataclass
class _Parts:
    """A block's lines after its header, by marker."""

    sections: dict[str, list[str]] = field(default_factory=dict)  # stat, softirqs, tuning ...
    net_fields: list[str] = field(default_factory=list)
    power_fields: list[str] | None = None  # None: a sampler without the power line
    lab_cpu: LabCpu | None = None


def _sections(lines: Sequence[str]) -> _Parts:
    """The one-line markers (net, power, labcpu) and the sections of lines under the others."""
    parts = _Parts()
    current: list[str] | None = None
    for line in lines:
        if line.startswith(MARK):
            words = line[len(MARK) :].split()
            name = words[0] if words else ""
            current = None
            if name == "net":
                parts.net_fields = words[1:]
            elif name == "power":
                parts.power_fields = words[1:]
            elif name == "labcpu":
                parts.lab_cpu = parse_lab_cpu(words[1:])
            else:
                current = parts.sections.setdefault(name, [])
            continue
        if current is not None:
            current.append(line)
    return parts


def _interrupts(lines: list[str]) -> tuple[Interrupts, list[ParseWarning]]:
    """/proc/interrupts' lines kept by the Pi's grep. Only the CPU header is normal: the NIC
    may have no line of its own (nic_irqs is None)."""
    if any(line.strip() and not _CPU_HEADER.match(line) for line in lines):
        return parse_interrupts("\n".join(lines))
    return Interrupts(), []


MAX_WATCHED = 64  # values read from the Pi are bounded in count and length


def _watched(lines: Sequence[str]) -> tuple[str, ...]:
    """The `@@sbctune-tuning` section: one `v VALUE` line per watched file ("-": unreadable)."""
    return tuple(line[2:202] for line in lines[:MAX_WATCHED] if line[:2] in ("v ", "v"))
