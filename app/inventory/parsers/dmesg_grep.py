"""A kernel log pasted as `dmesg | grep <PCI address>`: which device it was filtered by.

Every line a driver prints about a PCI device through dev_printk() names it by that address
(drivers/base/core.c __dev_printk(): "%s %s: " of the driver and dev_name(), 6.1 and 6.12),
so a log grepped by it keeps every such line, however late after boot the device's first line
came. With the device's own enumeration line in it ("pci 0001:01:00.0: [14c3:0717] type 00
..."), such a paste shows the device's whole story, as a log from boot does (inventory/nics.py
_no_driver).
The prompt is matched by this module's pattern only; the paste's text is never a pattern.
"""

from __future__ import annotations

import re

from sbctune.inventory.sightings import pci_address

# "$ dmesg | grep 0000:01:00.0", "> $ sudo dmesg | grep -i '01:00.0'" (a quoted issue form)
_PROMPT = re.compile(
    r"""^(?:>\s*)*(?:\S{0,64}[$#]\s*)?(?:sudo\s+)?dmesg(?:\s+-{1,2}[\w-]+)*\s*\|\s*"""
    r"""grep(?:\s+-[A-Za-z]+)*\s+(["']?)((?:[0-9a-fA-F]{4}:)?[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7])"""
    r"""\1\s*$"""
)
_HEAD_LINES = 3  # the prompt heads the paste


def grepped_address(text: str) -> str | None:
    """The PCI address (full form) the paste says it was grepped by, or None."""
    for line in text[:1000].splitlines()[:_HEAD_LINES]:
        if match := _PROMPT.match(line.strip()[:200]):
            return pci_address(match.group(2))
    return None
