"""The chip a Wi-Fi driver names on its wiphy (``resources/kernel_source/wiphy_chips.json``,
generated from Debian's linux-source-6.1 and 6.12 by ``scripts/regen_wiphy_chips.py``):
"ieee80211 phy0: rt2x00_set_rt: Info - RT chipset 3070, rev 0201 detected" names the RT3070
(rt2x00.h rt2x00_set_rt()); "ieee80211 phy0: Atheros AR9271 Rev:1" the AR9271 (ath9k's
ath9k_hw_name()); and mt76's "ASIC revision: 79220010" the MT7922 (its top 16 bits, mt76.h
mt76_chip()). The formats are constants from the kernel's source; a line is only matched
against them, never made a regex.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass

_SPEC_RE = re.compile(r"%[-+ #0]*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|z|t|j|L)?([a-zA-Z%])")
_CONVERSION = {"d": r"-?\d+", "x": r"[0-9a-fA-F]+", "X": r"[0-9a-fA-F]+", "p": r"\S+"}
# what a chip's conversion may print: "3070", "9271"; "????" (ath9k's unknown) is not a chip
_CHIP_VALUE = re.compile(r"^[0-9A-Za-z]{2,8}$")


@dataclass(frozen=True)
class WiphyChip:
    chip: str  # "RT3070"
    family: str  # the driver's directory: "rt2x00", "ath9k"
    source: str  # "drivers/net/wireless/ralink/rt2x00/rt2x00.h"
    format: str


@dataclass(frozen=True)
class _Format:
    regex: re.Pattern[str]
    prefix: str
    chips: frozenset[str] | None
    family: str
    source: str
    format: str


def _regex(fmt: str, chip_index: int) -> re.Pattern[str]:
    out: list[str] = []
    pos = 0
    for i, m in enumerate(_SPEC_RE.finditer(fmt)):
        out.append(re.escape(fmt[pos : m.start()]))
        pattern = _CONVERSION.get(m.group(1), ".*?")
        out.append(f"({pattern})" if i == chip_index else pattern)
        pos = m.end()
    out.append(re.escape(fmt[pos:]))
    return re.compile("".join(out) + r"\s*")


@functools.cache
def _formats() -> tuple[_Format, ...]:
    from sbctune.resources import resource_root

    try:
        path = resource_root().joinpath("kernel_source", "wiphy_chips.json")
        rows = json.loads(path.read_text(encoding="utf-8")).get("formats", [])
        found = []
        for row in rows:
            files = [f for series in sorted(row["files"]) for f in row["files"][series]]
            chips = row.get("chips")
            found.append(
                _Format(
                    _regex(str(row["format"]), int(row["conversion"])),
                    str(row["prefix"]),
                    frozenset(chips) if chips else None,
                    str(row["family"]),
                    files[0],
                    str(row["format"]),
                )
            )
    except (OSError, ValueError, AttributeError, KeyError, TypeError, IndexError):
        return ()
    return tuple(found)


@functools.lru_cache(maxsize=512)
def wiphy_chip(message: str) -> WiphyChip | None:
    """The chip a wiphy line's message (after "ieee80211 phyN: ") names, or None."""
    message = message[:300]
    for fmt in _formats():
        found = fmt.regex.fullmatch(message)
        if found is None or not _CHIP_VALUE.match(found.group(1)):
            continue
        chip = f"{fmt.prefix}{found.group(1).upper()}"
        if fmt.chips is not None and chip not in fmt.chips:
            continue  # a number the driver does not know as a chip: not named
        return WiphyChip(chip, fmt.family, fmt.source, fmt.format)
    return None


def is_wiphy_format(message: str) -> bool:
    """The message is one of the formats a Wi-Fi driver prints on its wiphy (this table's,
    from wiphy_info()/wiphy_notice() calls and their wrappers), whatever number it shows."""
    message = message[:300]
    return any(fmt.regex.fullmatch(message) for fmt in _formats())


_REVISION_RE = re.compile(r": ASIC revision: ([0-9a-f]{5,8})\b")


@functools.cache
def _revisions() -> tuple[dict[str, str], dict[str, str]]:
    """mt76's chip numbers -> names over both series, and where each name's rule comes from: a
    number only a newer kernel's mt76 tests (mt76_revisions_newer: 7.2's is_mt7902()) says
    which source names it, as the older tables do not."""
    from sbctune.resources import resource_root

    chips: dict[str, str] = {}
    sources: dict[str, str] = {}
    try:
        path = resource_root().joinpath("kernel_source", "wiphy_chips.json")
        table = json.loads(path.read_text(encoding="utf-8"))
        for key in ("mt76_revisions", "mt76_revisions_newer"):
            by_series = table.get(key) or {}
            for series in sorted(by_series):
                if not isinstance(row := by_series[series], dict):
                    continue
                source = str(row["chip_of_rev"])
                if key == "mt76_revisions_newer":
                    source = f"{source} in {row.get('package', 'linux-source-' + series)}"
                for number, name in row["chips"].items():
                    if key == "mt76_revisions" or str(number) not in chips:
                        # the later series' name, as before; a newer tree only adds numbers
                        chips[str(number)], sources[str(number)] = str(name), source
    except (OSError, ValueError, AttributeError, KeyError, TypeError):
        return {}, {}
    return chips, sources


@functools.cache
def _driver_revisions() -> dict[str, dict[str, str]]:
    """driver -> its own source's reading of the ASIC revision (mt7601u's probe accepts 0x7601
    only), over both series: wiphy_chips.json driver_revisions."""
    from sbctune.resources import resource_root

    try:
        path = resource_root().joinpath("kernel_source", "wiphy_chips.json")
        by_series = json.loads(path.read_text(encoding="utf-8")).get("driver_revisions") or {}
        out: dict[str, dict[str, str]] = {}
        for series in sorted(by_series):
            for driver, row in (by_series[series] or {}).items():
                out[str(driver)] = {str(k): str(v) for k, v in row.items()}
    except (OSError, ValueError, AttributeError, TypeError):
        return {}
    return out


def _other_chip(shown: str, driver: str, text: str) -> tuple[str, str] | None:
    """A driver that drives one chip and tests the revision's top 16 bits against that chip's
    model number (mt7601u: 0x7601) reads another number as another chip's model: "76100002"
    is an MT7610's, which it refuses. Its own number names nothing new; a number with hex
    letters ("ffff", a failed read) or a leading zero is no model, and the driver prints the
    register whole ("%08x"): fewer digits are not its line."""
    row = _driver_revisions().get(driver)
    number = shown[:4]
    if row is None or len(shown) != 8 or number == row.get("accepts"):
        return None
    if not (number.isascii() and number.isdigit()) or number.startswith("0"):
        return None
    why = (
        f"{text[:200]} (the revision's top 16 bits are the chip's model number, 0x{number}: "
        f"{row.get('file')} {row.get('function')} accepts 0x{row.get('accepts')} only and "
        f"returns -{row.get('otherwise')} for any other)"
    )
    return f"MT{number}", why


def _named_for(number: str, driver: str, text: str) -> tuple[str, str] | None:
    """A driver no table knows (built out of tree: hmtheboy154's mt7902e) that prints mt76's
    "ASIC revision" and is named for the very chip number the revision's top 16 bits give
    ("mt7902e", 0x7902), which an mt76 test names: that chip. A name that spells another
    number, or a number no test lists, names none."""
    chips, sources = _revisions()
    chip = chips.get(number)
    if chip is None or not re.fullmatch(rf"mt{number}[a-z]{{0,2}}", driver):
        return None
    why = (
        f"{text[:200]} (the chip is the revision's top 16 bits, {sources[number]}; the driver, "
        f"unknown to the kernel's tables, is named for that chip)"
    )
    return chip, why


def revision_chip(text: str, driver: str | None) -> tuple[str, str] | None:
    """(chip, why) for mt76's "mt7921e 0000:01:00.0: ASIC revision: 79220010": the revision's
    top 16 bits are the chip (0x7922: MT7922), when the driver is one of mt76's and the
    number is one its source tests for ("ffffffff", a failed read, names none); for another
    driver that prints the register, what its own source says of it (_other_chip)."""
    if "ASIC revision" not in text or not driver:
        return None
    from sbctune.catalog.kernel_drivers import load_kernel_drivers

    found = _REVISION_RE.search(text[:300])
    if found is None:
        return None
    number = f"{int(found.group(1), 16) >> 16:04x}"
    known = load_kernel_drivers().get(driver)
    if known is None and driver not in _driver_revisions():
        return _named_for(number, driver, text)
    if known is None or "/mediatek/mt76/" not in (known.file or ""):
        return _other_chip(found.group(1), driver, text)
    chips, sources = _revisions()
    chip = chips.get(number)
    if chip is None:
        return None
    return chip, f"{text[:200]} (the chip is the revision's top 16 bits, {sources[number]})"
