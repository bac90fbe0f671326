"""``iperf3 --version``."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .common import Parsed, finish, guarded, is_noise, split_lines


@dataclass
class Iperf3Version:
    version: str | None = None
    cjson: str | None = None
    system: str | None = None
    features: list[str] = field(default_factory=list)

    @property
    def version_tuple(self) -> tuple[int, ...] | None:
        if not self.version:
            return None
        parts = re.findall(r"\d+", self.version)
        return tuple(int(p) for p in parts) if parts else None

    @property
    def supports_json_stream(self) -> bool | None:
        vt = self.version_tuple
        return None if vt is None else vt >= (3, 17)


def parse_iperf3_version(text: str) -> Parsed[Iperf3Version]:
    """``iperf 3.12 (cJSON 1.7.15)`` + system line + optional features."""
    return guarded("iperf3 --version", _parse, text, Iperf3Version)


def _parse(text: str) -> Parsed[Iperf3Version]:
    res = Iperf3Version()
    found = bad = 0
    for line in split_lines(text):
        if is_noise(line):
            continue
        m = re.match(r"^\s*iperf (\d+\.\d+(?:\.\d+)?\S*)(?:\s+\(cJSON ([\w.]+)\))?", line)
        if m:
            res.version, res.cjson = m.group(1), m.group(2)
            found += 1
            continue
        m = re.match(r"^\s*Optional features available:\s*(.*)$", line)
        if m:
            res.features = [f.strip() for f in m.group(1).split(",") if f.strip()]
            found += 1
            continue
        if re.match(r"^\s*(?:Linux|Darwin|FreeBSD|CYGWIN|MINGW|MSYS)\S*\s", line):
            res.system = line.strip()
            found += 1
            continue
        bad += 1
    if res.version is None:
        found = 0
    return res, finish("iperf3 --version", text, found, bad)
