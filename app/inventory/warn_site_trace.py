"""A kernel message told only by its call trace: the WARNING's own line cut from the paste.

Before 6.1's netdev_crit(), the core's transmit watchdog warned with WARN_ONCE (net/sched/
sch_generic.c dev_watchdog(), resources/kernel_source/warn_sites.json), so its trace runs
``warn_slowpath_fmt`` then ``dev_watchdog``: the frame right after the WARN machinery is the
function that warned, and a function whose only WARN is a known message is that message. The
trace names no device; dev_watchdog runs for every interface, so it is the NIC's only when the
inventory has one NIC (corpus x86_p8h77i_mintdrivers_3: an r8169 in lspci, the trace in syslog).
Cheap: one pass over the parsed trace frames only.
"""

from __future__ import annotations

import functools
import json
import re

from sbctune.inventory.model import Inventory
from sbctune.inventory.raw import Parsed

# lib/bug.c and kernel/panic.c: the frames a WARN runs before reaching its caller's
_WARN_FRAMES = frozenset(
    {"warn_slowpath_fmt", "warn_slowpath_common", "warn_slowpath_null", "__warn"}
)
_FUNC = re.compile(
    r"(?<![\w.])([A-Za-z_]\w{1,80})(?:\.(?:constprop|isra|part)\.\d+)*\+0x[0-9a-f]+/"
)
_NEAR = 3  # lines between the WARN machinery's last frame and its caller's


@functools.cache
def _sites() -> dict[str, str]:
    from sbctune.resources import resource_root  # as the catalog's tables load theirs

    text = resource_root().joinpath("kernel_source", "warn_sites.json").read_text(encoding="utf-8")
    return {row["function"]: row["kind"] for row in json.loads(text)["sites"]}


def _warned(parsed: Parsed) -> dict[str, list[str]]:
    """Each known message kind a trace's warning frame stands for, with that frame's line."""
    found: dict[str, list[str]] = {}
    if parsed.dmesg is None:
        return found
    warn_line: int | None = None
    for event in parsed.dmesg.of_kind("trace_frame"):
        frame = event.fields.get("frame", event.text)
        m = _FUNC.search(frame)
        if m is None or frame[max(m.start() - 2, 0) : m.start()] == "? ":
            continue  # "? fn+0x..": a stale address on the stack, not a frame that ran
        function = m.group(1)
        if function in _WARN_FRAMES:
            warn_line = event.line
        elif warn_line is not None and 0 < event.line - warn_line <= _NEAR:
            if kind := _sites().get(function):
                found.setdefault(kind, []).append(event.text)
            warn_line = None
    return found


def tie_warn_sites(inventory: Inventory, parsed: Parsed) -> None:
    """The lone NIC keeps a trace's warning frame as that message's line (nic.log)."""
    if len(inventory.nics) != 1:
        return
    (nic,) = inventory.nics
    for kind, lines in _warned(parsed).items():
        if not nic.log.get(kind):
            nic.log[kind] = lines[:3]
            nic.log_counts[kind] = len(lines)
