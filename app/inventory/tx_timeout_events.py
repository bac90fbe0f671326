"""How many transmit timeouts a NIC's log lines show: one event per call of the driver's
timeout handler, not one per line.

net/sched/sch_generic.c dev_watchdog() (6.1 and 6.12) prints "NETDEV WATCHDOG: CPU: %d:
transmit queue %u timed out %u ms" and then calls the driver's ``ndo_tx_timeout``; whatever that
handler prints (bnxt.c bnxt_tx_timeout(): "TX timeout detected, starting reset task!") is the
same event in the driver's words. Kernels before 6.1 printed the watchdog's line once
(WARN_ONCE), so a handler line that repeats a format already seen since the last watchdog line
is the handler called again: another event. No text from a Pi becomes a pattern here.
"""

from __future__ import annotations

from collections.abc import Iterable

from sbctune.catalog.tx_timeout_formats import tx_timeout_message

_OWN_WORDS = "own words"  # a driver's "eth0: transmit timed out" that no table row names


def _is_watchdog(line: str) -> bool:
    return "NETDEV WATCHDOG" in line


def timeout_events(lines: Iterable[str], driver: object) -> int:
    """The timeouts these tx-timeout lines (in log order) stand for."""
    events = 0
    seen: set[str] | None = None  # the handler's formats since the last watchdog line
    for line in lines:
        if _is_watchdog(line):
            events, seen = events + 1, set()
            continue
        message = tx_timeout_message(line, driver)
        key = message.format if message else _OWN_WORDS
        if seen is None or key in seen:
            events, seen = events + 1, {key}
        else:
            seen.add(key)
    return events
