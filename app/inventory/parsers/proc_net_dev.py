"""``/proc/net/dev``: every interface the kernel has, with its counters.

The format is net/core/net-procfs.c (dev_seq_show() and dev_seq_printf_stats()): two header
lines ("Inter-|   Receive ... |  Transmit", " face |bytes packets errs drop fifo frame
compressed multicast|bytes packets errs drop fifo colls carrier compressed"), then one line per
interface, "%6s:%8llu %7llu ..." (the name right-aligned in six columns, so a longer one such as
"gretap0:" starts at column 0 and its first number may touch the colon). Old kernels printed the
same sixteen numbers; nothing else is on an interface's line."""

from __future__ import annotations

import re

from sbctune.limits import MAX_INTERFACES

from .common import Parsed, ParseWarning, finish, guarded, is_noise, split_lines
from .netif_model import NetInterface, NetInterfaces

# dev_valid_name(): up to 15 characters, no "/", ":" or whitespace; then ":" and 16 counters
_ROW = re.compile(r"^\s*([^\s/:]{1,15}):\s*((?:\d+\s+){15}\d+)\s*$")
_HEADER = re.compile(r"^\s*(?:Inter-\|\s*Receive|face\s*\|\s*bytes)")


def parse_proc_net_dev(text: str) -> Parsed[NetInterfaces]:
    """The interfaces of ``cat /proc/net/dev`` with their receive and transmit counters."""
    return guarded("/proc/net/dev", _parse, text, NetInterfaces)


def _parse(text: str) -> Parsed[NetInterfaces]:
    res = NetInterfaces()
    seen: set[str] = set()
    bad = 0
    warnings: list[ParseWarning] = []
    for line in split_lines(text):
        if not line.strip() or is_noise(line) or _HEADER.match(line):
            continue
        m = _ROW.match(line)
        if m is None:
            bad += 1  # a script's own banner, a prompt, a row cut short
            continue
        name = m.group(1)
        if name in seen:
            continue  # a second dump of the same table: the first is kept
        if len(res.interfaces) >= MAX_INTERFACES:
            warnings.append(ParseWarning("/proc/net/dev", "too many interfaces; the rest left"))
            break
        seen.add(name)
        v = [int(x) for x in m.group(2).split()]
        res.interfaces.append(
            NetInterface(
                name=name,
                rx_bytes=v[0],
                rx_packets=v[1],
                rx_errors=v[2],
                rx_dropped=v[3],
                tx_bytes=v[8],
                tx_packets=v[9],
                tx_errors=v[10],
                tx_dropped=v[11],
            )
        )
    return res, finish("/proc/net/dev", text, len(res.interfaces), bad, warnings)
