"""The kinds of input device usb.ids names (``resources/ids/usb_input_kinds.json``, generated
by ``scripts/regen_usb_input_kinds.py`` from Debian's usb.ids: its HID usage table's Generic
Desktop device kinds and its HID class's protocols): Mouse, Keyboard, Gamepad ..."""

from __future__ import annotations

import functools
import json
import re


@functools.cache
def _pattern() -> re.Pattern[str] | None:
    from sbctune.resources import resource_root

    try:
        path = resource_root().joinpath("ids", "usb_input_kinds.json")
        kinds = json.loads(path.read_text(encoding="utf-8")).get("kinds", [])
    except (OSError, ValueError, AttributeError):
        return None
    words = [re.escape(str(k)) for k in kinds if isinstance(k, str) and k]
    return re.compile(rf"\b(?:{'|'.join(words)})\b", re.I) if words else None


def names_input_device(text: str) -> bool:
    """The name says an input device's kind as a word ("Wireless Optical Mouse",
    "2.4GHz Wireless Keyboard"): usb.ids' own words for what a HID device is."""
    pattern = _pattern()
    return pattern is not None and pattern.search(text[:300]) is not None
