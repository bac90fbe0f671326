"""The probe's output: untrusted text from the Pi, read line by line with bounds.

Lines: "sbctune-latency 1" (header), "r SEQ T_MS RTT_MS" (an answer), "l SEQ T_MS [why]" (no
answer in time), "end SENT". Anything else is a warning, never an exception.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from sbctune.inventory.parsers.common import ParseWarning
from sbctune.measure.latency.program import MAX_PROBES
from sbctune.wording import counted

SOURCE = "latency probe"
MAX_LINE = 200
MAX_T_MS = 3_600_000.0
MAX_RTT_MS = 10_000.0


@dataclass(frozen=True)
class Probe:
    seq: int
    t_ms: float  # when the Pi sent it, since the probe started
    rtt_ms: float | None  # None: lost


def _number(text: str, top: float) -> float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) and 0 <= value <= top else None


def _seq(text: str) -> int | None:
    if not (text.isascii() and text.isdigit()) or len(text) > 6:
        return None
    value = int(text)
    return value if value <= MAX_PROBES else None


def parse_line(line: str) -> tuple[Probe | None, ParseWarning | None]:
    """One line: a probe, or a warning, or (None, None) for the header and end lines."""
    if len(line) > MAX_LINE:
        return None, ParseWarning(
            SOURCE, f"a line of {counted(len(line), 'character')} was skipped"
        )
    words = line.split()
    if not words:
        return None, None
    kind = words[0]
    if kind in ("sbctune-latency", "end") and len(words) == 2:
        return None, None
    if kind == "r" and len(words) == 4:
        seq, t, rtt = _seq(words[1]), _number(words[2], MAX_T_MS), _number(words[3], MAX_RTT_MS)
        if seq is not None and t is not None and rtt is not None:
            return Probe(seq, t, rtt), None
    elif kind == "l" and len(words) in (3, 4):
        seq, t = _seq(words[1]), _number(words[2], MAX_T_MS)
        if seq is not None and t is not None:
            return Probe(seq, t, None), None
    shown = "".join(c if c.isprintable() else "?" for c in line[:60])
    return None, ParseWarning(SOURCE, f"an unexpected line was skipped: {shown!r}")


def parse(text: str, max_lines: int = MAX_PROBES + 10) -> tuple[list[Probe], list[ParseWarning]]:
    """Every line of a whole output (at most `max_lines`; the rest is reported, not read)."""
    probes: list[Probe] = []
    warnings: list[ParseWarning] = []
    lines = text.splitlines()
    if len(lines) > max_lines:
        warnings.append(
            ParseWarning(SOURCE, f"only the first {counted(max_lines, 'line')} were read")
        )
    for line in lines[:max_lines]:
        probe, warning = parse_line(line)
        if probe is not None:
            probes.append(probe)
        if warning is not None and len(warnings) < 20:
            warnings.append(warning)
    return probes, warnings
