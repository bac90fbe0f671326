"""wireless-tools' errors pasted inside another output (a kernel log, a session): iwconfig.c's
ERR_SET_EXT / get errors print ``Error for wireless request "Set Mode" (8B06) :`` then
``    SET failed on device wlan0 ; Device or resource busy.`` to stderr, which a forum paste
puts beside the driver's kernel line. Such lines are iwconfig's output: they go to its parser
(wireless_tools.parse_iwconfig), which tells from the error whether the device is Wi-Fi.

Cheap on a long log: one substring search per hit, and a long text (paste_split.LONG_TEXT
characters or more) is not searched: such errors are in a short paste, not a 100 000-line log."""

from __future__ import annotations

from .paste_split import LONG_TEXT

_NEEDLE = " failed on device "
MAX_HITS = 64


def wext_parts(text: str) -> list[tuple[str, str]]:
    """("iwconfig", the error lines) when ``text`` holds wireless-tools' device errors."""
    if len(text) >= LONG_TEXT or _NEEDLE not in text:
        return []
    lines: list[str] = []
    start = text.find(_NEEDLE)
    while start != -1 and len(lines) < MAX_HITS:
        head = text.rfind("\n", 0, start) + 1
        end = text.find("\n", start)
        end = len(text) if end == -1 else end
        lines.append(text[head:end])
        start = text.find(_NEEDLE, end)
    return [("iwconfig", "\n".join(lines) + "\n")]
