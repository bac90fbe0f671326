"""The text after a kernel line's clock: its own message, and the kernel lines a mail archive
joined after it on the same line (parsers/dmesg.py; a long log repeats such texts under new
clocks, so dmesg remembers what this made of each)."""

from __future__ import annotations

import re
from collections.abc import Callable

from .lazy_pattern import later

KERNEL_TAG_RE = later(r"(?:^|\s)kernel(?:\[\d+\])?:\s*")
# another kernel line's clock inside a line ("... xhci_hcd [31048.667617] cdc_ether ..."): the
# six decimals of printk's own clock, so "[0] 0" or "[drm]" in a message are not split at
_JOINED_RE = later(r" (?=\[ *\d{1,7}\.\d{6}\] \S)")


def message_head(
    msg: str, ts_match: Callable[[str], re.Match[str] | None]
) -> tuple[str, tuple[tuple[float, str], ...]]:
    """The text after a line's clock → its message, and the kernel lines joined after it on
    the same line, each with its own clock."""
    if "kernel" in msg and (tag := KERNEL_TAG_RE.search(msg)):
        msg = msg[tag.end() :]  # journal -o short-monotonic
    if " [" not in msg or (joined := _JOINED_RE.search(msg)) is None:
        return msg, ()
    # "[31048.49] usb 3-13: ... xhci_hcd [31048.66] cdc_ether ...": kernel lines a mail
    # archive joined; each is read on its own (same line number)
    parts = []
    for part in _JOINED_RE.split(msg[joined.start() :])[1:]:
        if (m_part := ts_match(part)) is not None:
            parts.append((float(m_part.group(1)), part[m_part.end() :]))
    return msg[: joined.start()], tuple(parts)
