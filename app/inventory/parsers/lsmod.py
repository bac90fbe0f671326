"""``lsmod``: the modules loaded, each with the modules that use it.

kmod's lsmod prints a header ("Module                  Size  Used by") and one line per module:
its name, size, use count and the users, comma-separated ("ath9k_hw  437928  2
ath9k_common,ath9k"); BusyBox's has the same columns. A module built into the kernel is not
listed, so a name missing from the list is "not loaded as a module", not "absent".

``/proc/modules`` is what lsmod reads, as kernel/module/procfs.c m_show() prints it: the name,
size, use count ("-" without CONFIG_MODULE_UNLOAD), the users each followed by "," ("-" when
none, "[permanent]," for a module that cannot be unloaded), the state and the address
("ath9k_hw 437928 2 ath9k_common,ath9k, Live 0x0000000000000000"). `inspect` over SSH reads the
file, not lsmod: a plain user's PATH often lacks /sbin, where kmod's lsmod lives.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from sbctune.wording import counted

from .common import Parsed, ParseWarning, finish, guarded, is_noise, split_lines

MAX_LINES = 20_000  # a kernel has a few thousand modules at most
# name, size, use count (BusyBox may print "-"), then the users (and "[permanent]" or flags)
LINE_RE = re.compile(r"^([A-Za-z0-9_-]{1,64})\s+(\d{1,12})\s+(-?\d{1,6}|-)(?:\s+(\S.*))?$")
USER_RE = re.compile(r"^[A-Za-z0-9_-]{1,64}$")  # "-" alone: /proc/modules' "no users"


@dataclass
class LoadedModules:
    """Module name (with "_" for "-", as the kernel keeps it) → the loaded modules using it."""

    modules: dict[str, tuple[str, ...]] = field(default_factory=dict)
    source: str = "lsmod"  # or "/proc/modules": what the evidence names

    def loaded(self, name: str) -> bool:
        return name.replace("-", "_") in self.modules


def parse_lsmod(text: str) -> Parsed[LoadedModules]:
    return guarded("lsmod", _parse, text, LoadedModules)


def parse_proc_modules(text: str) -> Parsed[LoadedModules]:
    """/proc/modules; an empty one is a kernel with every driver built in, not a bad read."""
    return guarded("/proc/modules", _parse_proc, text, LoadedModules)


def _parse_proc(text: str) -> Parsed[LoadedModules]:
    if not text or text.isspace():
        return LoadedModules(), []
    out, warnings = _parse(text, "/proc/modules")
    out.source = "/proc/modules"
    return out, warnings


def _parse(text: str, source: str = "lsmod") -> Parsed[LoadedModules]:
    out = LoadedModules()
    unreadable = 0
    warnings: list[ParseWarning] = []
    lines = split_lines(text)
    if len(lines) > MAX_LINES:
        read = f"only the first {counted(MAX_LINES, 'line')} were read"
        warnings.append(ParseWarning(source, read))
        lines = lines[:MAX_LINES]
    for line in lines:
        if is_noise(line) or re.match(r"^\s*Module\s+Size\s+Used\s+by\s*$", line):
            continue
        m = LINE_RE.match(line.strip())
        if m is None:
            unreadable += 1
            continue
        users = tuple(
            u.replace("-", "_")
            for u in (m.group(4) or "").split(" ")[0].split(",")
            if USER_RE.match(u) and u != "-"
        )
        out.modules[m.group(1).replace("-", "_")] = users
    return out, finish(source, text, len(out.modules), unreadable, warnings)
