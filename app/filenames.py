"""File names sbctune makes, valid on Windows, macOS and Linux alike.

Windows is the strictest (Microsoft Learn, "Naming Files, Paths, and Namespaces"): no
``< > : " / \\ | ? *`` and no control characters; the device names CON, PRN, AUX, NUL,
COM1-9, LPT1-9 (also with the superscript digits ¹ ² ³) and CONIN$/CONOUT$ are taken whatever
extension follows ("NUL.txt", "nul.tar.gz"); a trailing dot or space is dropped by the
system, so "report." would not be the file asked for; a name is at most 255 UTF-16 units.
Wine accepts some of these, so only this rule and its unit test catch them. An IPv6 host
(``fe80::1``) in a default name is the case that started it.
"""

from __future__ import annotations

import re

# MAX_PATH (260) still binds Explorer and many programs for the whole path: a name of ours
# leaves room for the folder it goes in. NTFS's own limit is 255 UTF-16 units per name.
DEFAULT_MAX_LENGTH = 100
NTFS_MAX_LENGTH = 255

# A lone surrogate (an undecodable byte of a Pi's text) is no name on macOS (APFS: UTF-8).
_RESERVED_CHARACTERS = re.compile(r'[<>:"/\\|?*\x00-\x1f\x7f\ud800-\udfff]')
_RESERVED_NAMES = frozenset(
    ["CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$"]
    + [f"{device}{digit}" for device in ("COM", "LPT") for digit in "123456789¹²³"]
)
REPLACEMENT = "_"


def is_reserved_name(name: str) -> bool:
    """``name`` is a Windows device name, with or without an extension (``nul.tar.gz``)."""
    stem = name.split(".", 1)[0].rstrip(" ")
    return stem.upper() in _RESERVED_NAMES


def _utf16_units(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def _shorten(text: str, limit: int) -> str:
    """``text`` cut in its stem to ``limit`` UTF-16 units, keeping a short extension."""
    if _utf16_units(text) <= limit:
        return text
    stem, dot, extension = text.rpartition(".")
    if not dot or not stem or _utf16_units(extension) + 1 > limit // 2:
        stem, extension = text, ""
    suffix = f".{extension}" if extension else ""
    room = limit - _utf16_units(suffix)
    while _utf16_units(stem) > room:
        stem = stem[:-1]
    return (stem.rstrip(". ") or REPLACEMENT) + suffix


def safe_file_name(name: str, max_length: int = DEFAULT_MAX_LENGTH) -> str:
    """``name`` made valid as one file name on every system; a valid name comes back as it is.

    Reserved characters become "_", trailing dots and spaces go, a long name is cut in its
    stem so the extension (".zip") stays, and a device name gets a "_" in front.
    """
    limit = min(max(max_length, 8), NTFS_MAX_LENGTH)
    text = _RESERVED_CHARACTERS.sub(REPLACEMENT, name).rstrip(". ") or REPLACEMENT
    text = _shorten(text, limit)
    if is_reserved_name(text):  # short by nature (CON.zip): a "_" in front, cut again if need be
        text = _shorten(REPLACEMENT + text, limit)
    return text
