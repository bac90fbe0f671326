"""A chip named by the revision id its driver's probe banner prints: tg3 names no chip in words
("tg3 0004:01:00.1 eth1: Tigon3 [partno(BCM95719) rev 5719001] (PCI Express) MAC address ...",
tg3.c tg3_init_one()); the id shifted right by 12 is the ASIC revision (tg3.h tg3_asic_rev()),
which tg3.h names (ASIC_REV_5719 0x5719): the BCM5719. resources/kernel_source/tg3_asic_revs.json
by scripts/regen_tg3_asic_revs.py from 6.1's and 6.12's tg3.h and tg3.c. The part number beside
it is the board's (an OEM's FRU number), never read as the chip."""

from __future__ import annotations

import functools
import json

_HEX = frozenset("0123456789abcdefABCDEF")
_MAX_ID = 8  # %04x of a u32: at most 8 digits


@functools.cache
def _table() -> tuple[str, str, str, int, dict[str, dict[str, str]]]:
    from sbctune.resources import resource_root

    try:
        path = resource_root().joinpath("kernel_source", "tg3_asic_revs.json")
        data = json.loads(path.read_text(encoding="utf-8"))
        return (
            str(data["driver"]), str(data["message"]), str(data["rev_marker"]),
            int(data["shift"]), dict(data["revs"]),
        )  # fmt: skip
    except (OSError, ValueError, KeyError, TypeError):
        return "", "", "", 0, {}


def asic_rev_chip(text: str, driver: str | None) -> tuple[str, str] | None:
    """(chip, why) for the revision id the driver's banner prints; an ASIC revision is a
    family's (the BCM5788 is ASIC_REV_5705), so it names the chip only when no listing does
    (read as chip_by_revision, below a listing's and the IDs' names)."""
    tg3, message, marker, shift, revs = _table()
    if not tg3 or driver != tg3:
        return None
    text = text[:300]
    if (at := text.find(message)) < 0 or (rev_at := text.find(marker, at)) < 0:
        return None
    start = rev_at + len(marker)
    digits = text[start : start + _MAX_ID + 1].partition("]")[0]
    if not digits or len(digits) > _MAX_ID or not set(digits) <= _HEX:
        return None
    row = revs.get(f"0x{int(digits, 16) >> shift:02x}")
    if row is None:
        return None
    why = (
        f"{text[:200]} (tg3.h: revision id 0x{digits.lower()} >> {shift} is "
        f"ASIC_REV_{row['asic']}; kernels {', '.join(row['series'])})"
    )
    return str(row["chip"]), why
