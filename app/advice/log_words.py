"""The words of the log findings (split from logs.py): what a NIC is called in them, how long
and how often, where the kernel prints a message, and what an errno in a line means."""

from __future__ import annotations

import re

from sbctune.catalog.kernel_messages import (
    errno_bare,
    errno_hint,
    errno_in,
    explain,
    load_messages,
)
from sbctune.inventory.model import Nic
from sbctune.wording import counted


def watchdog(lines: list[str]) -> str:
    """ "NETDEV WATCHDOG, " when the kernel's watchdog said so; a driver's own "transmit timed
    out" (its ndo_tx_timeout handler) is not the watchdog's line."""
    return "NETDEV WATCHDOG, " if any("WATCHDOG" in line for line in lines) else ""


def label(nic: Nic) -> str:
    if nic.name:
        return nic.name
    what = nic.chip or (f"the {nic.driver} NIC" if nic.driver else "NIC")
    return f"{what} at {nic.bus_path}" if nic.bus_path else what


def span(seconds: float | None) -> str:
    if seconds is None:
        return ""
    if seconds < 120:
        return f" within {seconds:.0f} s"
    if seconds < 7200:
        return f" within {seconds / 60:.0f} min"
    return f" within {seconds / 3600:.1f} h"


def times(nic: Nic, kind: str) -> str:
    count = nic.log_counts.get(kind, 0)
    return "once" if count == 1 else counted(count, "time")


def cite(kind: str) -> str:
    """Where the kernel prints this message: " (net/sched/sch_generic.c dev_watchdog())"."""
    explanation = explain(kind)
    return f" (printed by {explanation.source})" if explanation else ""


# the errors a USB NIC's lines report (dmesg_patterns_bus "usb_error"), after a space or ":"
_USB_ERRNO = re.compile(r"(?<![\w.-])-(71|110|32|19|108|62|5)\b")


def usb_errnos(lines: list[str]) -> str:
    """ "-71 EPROTO, -110 ETIMEDOUT": the errors these lines report, by the kernel's names,
    in the order they first appear."""
    seen = dict.fromkeys(m for line in lines for m in _USB_ERRNO.findall(line))
    named = []
    for value in seen:
        known = load_messages().errno(int(value))
        named.append(f"-{value} {known.name}" if known else f"-{value}")
    return ", ".join(named)


def errno_words(lines: list[str]) -> str:
    """ "-110 = ETIMEDOUT, Connection timed out: the device did not answer ..." for the first
    line that reports an errno; the kernel's own numbering, whatever machine reads the log."""
    for line in lines:
        value = errno_in(line)
        known = load_messages().errno(value)
        if value is None or known is None:
            continue
        bare = errno_bare(value)
        if bare:
            return (
                f" Error {value} would be {known.name} ({known.meaning}) as an errno, but {bare}."
            )
        hint = errno_hint(value)
        return f" Error {value} is {known.name} ({known.meaning})" + (f": {hint}." if hint else ".")
    return ""
