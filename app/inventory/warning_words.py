"""An output that could not be read, named by what it tells (for the app's Inspect page):
"eth0's ring buffer sizes (ethtool -g)" rather than the bare command line."""

from __future__ import annotations

import re

# ethtool's option → what it reports (man ethtool).
ETHTOOL_WHAT = {
    "": "link settings",
    "-i": "driver details",
    "-k": "offload settings",
    "-g": "ring buffer sizes",
    # The limits and settings of its channels; not "queue counts": Inspect shows the queues
    # sysfs lists, and "Queues 1 rx / 1 tx" above "not shown: queue counts" contradicted it.
    "-l": "queue count limits",
    "-c": "interrupt coalescing",
    "-S": "driver counters",
    "-a": "pause frames",
    "--show-eee": "energy-efficient Ethernet",
}
# As a ParseWarning prints itself: “source”: message
_WARNING = re.compile(r"“(ethtool(?: (-[a-zA-Z]|--show-eee))? ([\w.@-]{1,32}))”: (.*)", re.S)


# A file of the Pi's → what it tells, and what its absence means for the user (walk 14: a bare
# `"/proc/cpuinfo": the output is empty`, with no word of whether to act).
FILE_WHAT = {
    "/proc/cpuinfo": (
        "the processor's description",
        "the board's model and processor show as unknown; measuring and tuning do not need them",
    ),
    "/proc/device-tree/model": (
        "the board's model name",
        "the board's model shows as unknown; measuring and tuning do not need it",
    ),
    "/proc/interrupts": (
        "the interrupt counts",
        "which CPU handles the network's interrupts is not shown",
    ),
}
_FILE_WARNING = re.compile(r"“(/[\w./-]{1,64})”: (.*)", re.S)
_WHY_WORDS = {"the output is empty": "the Pi gave nothing"}


def warning_words(warning: str) -> str:
    """What could not be read, then why; the command stays in brackets for those who know it."""
    in_file = _FILE_WARNING.fullmatch(warning)
    if in_file is not None and in_file.group(1) in FILE_WHAT:
        path, reason = in_file.groups()
        told, meaning = FILE_WHAT[path]
        return f"{told} ({path}): {_WHY_WORDS.get(reason, reason)}. So {meaning}."
    found = _WARNING.fullmatch(warning)
    if found is None:
        return warning
    command, option, iface, why = found.groups()
    what = ETHTOOL_WHAT.get(option or "")
    if what is None:
        return warning
    return f"{iface}'s {what} ({command}): {why}"


_NOT_OFFERED = "the driver does not offer this"
# where the answer depends on the kernel (advice.unsure_offers): this Pi's kernel said no, which
# is the truth for this Pi, but not for the driver (another kernel may carry it)
MAY_NOT_OFFER = "this Pi's kernel does not offer this for the driver"
DEPENDS = "other kernels may"


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def not_offered_line(warnings: list[str]) -> tuple[str, list[str]]:
    """The outputs a driver does not offer, as one sentence ("Not offered by the driver, so not
    shown: eth0's ring buffer sizes and queue count limits; eth1's ..."), then those it may not
    offer by the kernel ("eth0: this Pi's kernel does not offer interrupt coalescing for its
    driver (other kernels may): not shown."), and the other warnings.
    Listed one by one with their commands and netlink errors they read as five faults to a
    first-time user (s10 walk); what the driver does not offer is not a fault."""
    by_iface: dict[str, list[str]] = {}
    maybe: dict[str, list[str]] = {}
    rest: list[str] = []
    for warning in warnings:
        found = _WARNING.fullmatch(warning)
        what = ETHTOOL_WHAT.get(found.group(2) or "") if found else None
        why = found.group(4) if found else ""
        if found is None or what is None or not why.startswith((_NOT_OFFERED, MAY_NOT_OFFER)):
            rest.append(warning)
            continue
        into = maybe if why.startswith(MAY_NOT_OFFER) else by_iface
        whats = into.setdefault(found.group(3), [])
        if what not in whats:
            whats.append(what)
    lines = []
    if by_iface:
        parts = [f"{iface}'s {_and(whats)}" for iface, whats in by_iface.items()]
        lines.append("Not offered by the driver, so not shown: " + "; ".join(parts) + ".")
    for iface, whats in maybe.items():
        lines.append(
            f"{iface}: this Pi's kernel does not offer {_and(whats)} for its driver "
            f"({DEPENDS}): not shown."
        )
    return " ".join(lines), rest
