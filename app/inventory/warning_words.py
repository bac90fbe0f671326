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
    "-l": "queue counts",
    "-c": "interrupt coalescing",
    "-S": "driver counters",
    "-a": "pause frames",
    "--show-eee": "energy-efficient Ethernet",
}
# As a ParseWarning prints itself: “source”: message
_WARNING = re.compile(r"“(ethtool(?: (-[a-zA-Z]|--show-eee))? ([\w.@-]{1,32}))”: (.*)", re.S)


def warning_words(warning: str) -> str:
    """What could not be read, then why; the command stays in brackets for those who know it."""
    found = _WARNING.fullmatch(warning)
    if found is None:
        return warning
    command, option, iface, why = found.groups()
    what = ETHTOOL_WHAT.get(option or "")
    if what is None:
        return warning
    return f"{iface}'s {what} ({command}): {why}"
