"""The SoC in a MIPS "system type" (resources/kernel_source/mips_system_types.json, generated from
the 6.1 and 6.12 source by scripts/regen_mips_system_types.py).

MIPS platform code writes one sentence for its SoC (arch/mips/ralink/mt7620.c "MediaTek %s
ver:%u eco:%u", arch/mips/ath79/setup.c "Qualcomm Atheros QCA%s ver %u rev %u"), printed in the
log ("SoC Type: ...", "SoC: ...") and as /proc/cpuinfo's "system type". The word that holds the
format's %s is the SoC: "MediaTek MT7628AN ver:1 eco:2" is an MT7628AN."""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass

_MAX_TEXT = 120  # a system type is written into a 32- to 64-byte buffer


@dataclass(frozen=True)
class SystemType:
    soc: str  # "MT7628AN"
    file: str  # the source file whose format matched ("arch/mips/ralink/mt7620.c")


def _regex(fmt: str) -> re.Pattern[str]:
    """A format as a pattern: %s is the SoC's part of its word, %u a number, the rest literal."""
    parts = re.split(r"(%s|%u)", fmt)
    out = []
    for part in parts:
        if part == "%s":
            out.append(r"(?P<name>[A-Za-z0-9]{1,16})")
        elif part == "%u":
            out.append(r"\d{1,10}")
        else:
            out.append(re.escape(part))
    return re.compile("".join(out))


@functools.cache
def _formats() -> list[tuple[re.Pattern[str], str, str]]:
    """(pattern, format, first source file) for every format in the table."""
    from sbctune.resources import resource_root

    try:
        path = resource_root().joinpath("kernel_source", "mips_system_types.json")
        rows = json.loads(path.read_text(encoding="utf-8"))["formats"]
        return [(_regex(str(fmt)), str(fmt), str(row["files"][0])) for fmt, row in rows.items()]
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        return []


def system_type_soc(text: str | None) -> SystemType | None:
    """The SoC a MIPS system-type string names, None when no known format writes it."""
    text = (text or "").strip()
    if not 0 < len(text) <= _MAX_TEXT:
        return None
    for pattern, fmt, file in _formats():
        m = pattern.fullmatch(text)
        if m is not None:
            word = next(w for w in fmt.split() if "%s" in w)
            return SystemType(word.replace("%s", m.group("name")), file)
    return None
