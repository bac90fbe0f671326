#!/usr/bin/env python3
"""Regenerate resources/kernel_source/wiphy_chips.json: the info-level formats that Wi-Fi
drivers print on their wiphy ("ieee80211 phy0: ...") and that name the chip, with where the
chip's name is in the line.

    python scripts/regen_wiphy_chips.py    # obtains the source via kernel_source.py

Why: rt2x00 names its chip only in "ieee80211 phy0: rt2x00_set_rt: Info - RT chipset 3070, rev
0201 detected" (drivers/net/wireless/ralink/rt2x00/rt2x00.h rt2x00_set_rt(), through its
rt2x00_info() wrapper of wiphy_info()); ath9k in "ieee80211 phy0: Atheros AR9271 Rev:1"
(ath9k_hw_name()'s "Atheros AR%s Rev:%x", printed by htc_drv_init.c with wiphy_info("%s")).

Read from drivers/net/wireless/ of Debian's linux-source-6.1 and 6.12:
* the calls of wiphy_info/wiphy_notice and of a driver's own macros around them (their "%s: "
  prefix with __func__ included);
* a "%s" whose argument is a buffer a function of the same directory fills with scnprintf() or
  snprintf() (one level: ath9k_hw_name()), read as that function's format;
* a format names a chip where a conversion follows 2-4 capitals directly ("AR%s") or after
  "chipset " ("RT chipset %04x"). The second kind only where the directory's constants with
  that prefix are the chip's own number (rt2x00.h "#define RT3070 0x3070"), listed as the
  chips; "RF chipset %04x" is left out (rt2800.h "#define RF3020 0x0005": a code, not a name).
* mt76_revisions: mt76's dev_info "ASIC revision: %08x" (not a wiphy line), whose top 16 bits
  are the chip (mt76.h mt76_chip()), named by mt76's is_mtNNNN() tests (see revisions()).
* mt76_revisions_newer: the same reading of a newer kernel's mt76 (Debian's linux-source-7.2,
  trixie-backports, kernel_source.NEWER, at newer_drivers.json's version), only the chip numbers
  no 6.1/6.12 test lists: 7.x's mt76_connac.h is_mt7902() (0x7902) names the MT7902 that
  mt7921e drives since then, which the older tables leave unnamed.
* driver_revisions: the other drivers that print the same register (MT_ASIC_VERSION) and test
  its top 16 bits against the one chip they drive (mt7601u/usb.c mt7601u_probe(): "if
  ((asic_rev >> 16) != 0x7601) ret = -ENODEV"): per driver, what its own source says the
  register is, not mt76's table (see driver_revisions()).
"""

from __future__ import annotations

import functools
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KS = ROOT / "resources" / "kernel_source"
OUT = KS / "wiphy_chips.json"
sys.path.insert(0, str(Path(__file__).resolve().parent))

from kernel_source import NEWER, obtain, pinned_trees  # noqa: E402
from log_call_formats import format_after  # noqa: E402
from regen_tables import write_json  # noqa: E402

GLOBS = ("drivers/net/wireless/*",)
TOP = "drivers/net/wireless"
_LEVELS = ("info", "notice", "info_once")
# #define rt2x00_info(dev, fmt, ...) wiphy_info((dev)->hw->wiphy, "%s: Info - " fmt, __func__, ...)
_MACRO_RE = re.compile(
    r"#define\s+(\w+)\([^)]*\bfmt\b[^)]*\)[\s\\]*wiphy_(info|notice|info_once)\s*\([^\"\n]*?,"
    r"[\s\\]*\"([^\"]*)\"\s*fmt\s*,[\s\\]*(__func__)?"
)
_CALL = r"\bwiphy_(?:info|notice|info_once)\s*\("
_FILL_RE = re.compile(r"\b(?:scnprintf|snprintf)\s*\(\s*(\w+)\s*,")
_CHIP_RE = re.compile(r"(?<![A-Za-z])([A-Z]{2,4})(?: chipset )?(%[0-9]*(?:s|x|X))")
_SPEC_RE = re.compile(r"%[-+ #0]*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|z|t|j|L)?[a-zA-Z%]")


def _macros_in(text: str) -> list[tuple[str, str]]:
    """(name, format) of the file's wiphy_info() wrapper macros; a file without "wiphy_",
    which each one holds, is not scanned (C's substring search before the regex)."""
    if "wiphy_" not in text:
        return []
    return [(m.group(1), m.group(3)) for m in _MACRO_RE.finditer(text)]


@functools.cache
def _header_macros(path: Path, mtime_ns: int, size: int) -> tuple[tuple[str, str], ...]:
    """A header's wrapper macros, read once per run (each file of its folder asks again)."""
    return tuple(_macros_in(path.read_text(encoding="utf-8", errors="replace")))


def _calls(text: str, macros: dict[str, str]) -> list[tuple[str, int]]:
    """(format with its wrapper's prefix, position after the format) of each wiphy call."""
    if "wiphy_" not in text and not any(m in text for m in macros):
        return []  # every match holds "wiphy_" or a macro's name
    names = "|".join([_CALL, *(rf"\b{re.escape(m)}\s*\(" for m in macros)])
    found = []
    for m in re.finditer(names, text):
        got = format_after(text, m.end())
        if got is None:
            continue
        name = m.group(0).rstrip("( \t").strip()
        prefix = macros.get(name, "")
        end = text.find(got[0], m.end()) + len(got[0]) + 1
        found.append((prefix + got[0], end))
    return found


def _filled(directory: Path, buffer_fn: str) -> list[str]:
    """The literal formats a function of the directory writes into its buffer argument."""
    out = []
    for path in sorted(directory.glob("*.c")):
        text = path.read_text(encoding="utf-8", errors="replace")
        head = re.search(rf"^\w[\w \t*]*\b{re.escape(buffer_fn)}\(([^)]*)\)\s*\{{", text, re.M)
        if head is None:
            continue
        body = text[head.end() : text.find("\n}", head.end())]
        for fill in _FILL_RE.finditer(body):
            got = format_after(body, fill.end() + 0)
            if got is not None:
                out.append(got[0])
    return out


def _argument_function(text: str, end: int) -> str | None:
    """For wiphy_info(hw->wiphy, "%s\\n", hw_name): the function called with hw_name before."""
    arg = re.match(r"\s*,\s*(\w+)", text[end : end + 80])
    if arg is None:
        return None
    before = text[max(0, end - 600) : end]
    calls = re.findall(rf"\b(\w+)\s*\([^;]*\b{re.escape(arg.group(1))}\b[^;]*\)\s*;", before)
    return calls[-1] if calls else None


def _number_constants(directory: Path, prefix: str) -> list[str] | None:
    """The directory's #define PREFIXnnnn 0xnnnn constants, if every one is the chip's own
    number; None if any is a code (RF3020 0x0005)."""
    names = []
    for path in sorted(directory.glob("*.h")):
        text = path.read_text(encoding="utf-8", errors="replace")
        for name, value in re.findall(rf"#define\s+({prefix}[0-9A-F]{{4}})\s+0x(\w+)", text):
            if name[len(prefix) :].lower() != value.lower():
                return None
            names.append(name)
    return sorted(set(names)) or None


def scan(root: Path) -> list[dict[str, object]]:
    found: list[dict[str, object]] = []
    for path in sorted((root / TOP).rglob("*.[ch]")):
        text = path.read_text(encoding="utf-8", errors="replace")
        macros = {name: fmt for name, fmt in _macros_in(text) if "%s" in fmt[:3]}
        for other in sorted(path.parent.glob("*.h")):
            if other != path:
                stat = other.stat()
                macros |= dict(_header_macros(other, stat.st_mtime_ns, stat.st_size))
        for fmt, end in _calls(text, macros):
            formats = [fmt]
            if fmt.startswith("%s") and (fn := _argument_function(text, end)):
                formats = [f + fmt[2:] for f in _filled(path.parent, fn)] or formats
            for one in formats:
                if (entry := _entry(one, path, root)) is not None:
                    found.append(entry)
    return found


def _entry(fmt: str, path: Path, root: Path) -> dict[str, object] | None:
    fmt = fmt.replace("\\n", "").strip()
    chip = _CHIP_RE.search(fmt)
    if chip is None:
        return None
    chips = None
    if " chipset " in chip.group(0):
        chips = _number_constants(path.parent, chip.group(1))
        if chips is None:
            return None
    specs = list(_SPEC_RE.finditer(fmt))
    index = next(i for i, s in enumerate(specs) if s.start() == chip.start(2))
    rel = path.relative_to(root).as_posix()
    return {
        "format": fmt,
        "family": path.parent.name,
        "prefix": chip.group(1),
        "conversion": index,
        "chips": chips,
        "file": rel,
    }


def build(trees: dict[str, Path]) -> list[dict[str, object]]:
    by_format: dict[str, dict[str, object]] = {}
    for series, root in trees.items():
        for entry in scan(root):
            key = str(entry["format"])
            row = by_format.setdefault(key, {**entry, "files": {}})
            files = row["files"]
            assert isinstance(files, dict)
            files.setdefault(series, [])
            if entry["file"] not in files[series]:
                files[series].append(entry["file"])
    rows = []
    for row in by_format.values():
        row.pop("file", None)
        rows.append(row)
    return sorted(rows, key=lambda r: str(r["format"]))


MT76 = "drivers/net/wireless/mediatek/mt76"
# static inline u16 mt76_chip(struct mt76_dev *dev) { return dev->rev >> 16; }
_MT76_CHIP_RE = re.compile(r"u16 mt76_chip\(struct mt76_dev \*dev\)\s*\{\s*return dev->rev >> 16;")
# static inline bool is_mt7922(struct mt76_dev *dev) { return mt76_chip(dev) == 0x7922; }
_IS_RE = re.compile(r"\bbool is_mt(7[0-9a-z]{3})\([^)]*\)\s*\{([^}]*)\}")
_VALUE_RE = re.compile(r"mt76_chip\([^)]*\) == 0x([0-9a-f]{4})")
_REV_CALL_RE = re.compile(r"\bdev_info\s*\(\s*mdev->dev\s*,\s*\"(ASIC revision: %0\d?x)")


def revisions(root: Path) -> dict[str, object] | None:
    """mt76's "ASIC revision: %08x" (dev_info of mdev->rev): its top 16 bits are the chip
    (mt76.h mt76_chip()), named by the is_mtNNNN() test that compares it alone (mt76_connac.h
    is_mt7922(): 0x7922; is_mt7921(): 0x7961); a value only a family's test lists
    (is_mt76x2(): 0x7612, 0x7662 ...) names that family."""
    header = (root / MT76 / "mt76.h").read_text(encoding="utf-8", errors="replace")
    if not _MT76_CHIP_RE.search(header):
        return None
    chips: dict[str, tuple[int, str]] = {}
    formats: dict[str, str] = {}
    for path in sorted((root / MT76).rglob("*.[ch]")):
        text = path.read_text(encoding="utf-8", errors="replace")
        for name, body in _IS_RE.findall(text):
            values = _VALUE_RE.findall(body)
            for value in values:
                rank = (0 if name == value else len(values), f"MT{name.upper().replace('X', 'x')}")
                chips[value] = min(chips.get(value, rank), rank)
        for fmt in _REV_CALL_RE.findall(text):
            formats.setdefault(fmt, path.relative_to(root).as_posix())
    return {
        "formats": dict(sorted(formats.items())),
        "chips": {v: name for v, (_rank, name) in sorted(chips.items())},
        "chip_of_rev": f"{MT76}/mt76.h mt76_chip()",
    }


# asic_rev = mt7601u_rr(dev, MT_ASIC_VERSION); ... dev_info(dev->dev, "ASIC revision: %08x
# MAC revision: %08x\n", asic_rev, mac_rev); if ((asic_rev >> 16) != 0x7601) { ret = -ENODEV;
_READ_RE = re.compile(r"\b(\w+)\s*=\s*\w+\(\s*\w+\s*,\s*(MT_ASIC_VERSION)\s*\)\s*;")
_FUNC_RE = re.compile(r"^(?:static\s+)?\w+\s+\*?(\w+)\(", re.M)


def driver_revisions(root: Path, drivers: dict[str, dict[str, object]]) -> dict[str, object]:
    """driver -> what its own source says of the ASIC revision it prints: the register, the
    format, the top-16-bit chip number it accepts and the errno of any other, with the file
    and function; mt76's own files are revisions()'s."""
    by_file = {str(info["file"]): name for name, info in drivers.items()}
    out: dict[str, object] = {}
    for path in sorted((root / TOP).rglob("*.c")):
        rel = path.relative_to(root).as_posix()
        if rel.startswith(MT76 + "/") or rel not in by_file:
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        for read in _READ_RE.finditer(text):
            var, register = read.group(1), read.group(2)
            rest = text[read.end() : read.end() + 600]
            fmt = re.search(
                rf'dev_info\s*\([^,]+,\s*"(ASIC revision: [^"\\]*)(?:\\n)?"\s*,\s*{var}\b', rest
            )
            test = re.search(
                rf"\(\s*{var}\s*>>\s*16\s*\)\s*!=\s*0x([0-9a-fA-F]{{4}})\s*\)\s*\{{"
                r"\s*ret\s*=\s*-(E[A-Z]+)\s*;",
                rest,
            )
            if fmt is None or test is None:
                continue
            funcs = _FUNC_RE.findall(text[: read.start()])
            out[by_file[rel]] = {
                "file": rel,
                "function": f"{funcs[-1]}()" if funcs else "",
                "register": register,
                "format": fmt.group(1),
                "accepts": test.group(1).lower(),
                "otherwise": test.group(2),
            }
    return out


def newer_revisions(
    older: dict[str, object], pins: dict[str, str] | None = None
) -> dict[str, object]:
    """series -> revisions() of each newer tree (NEWER), its chips cut to the numbers no older
    series lists, with the package version read: `pins` maps `linux-source-<series>` to a
    version (default newer_drivers.json's, the newer tree the other tables were read from)."""
    if pins is None:
        pins = json.loads((KS / "newer_drivers.json").read_text(encoding="utf-8"))["packages"]
    known = {str(v) for row in older.values() if isinstance(row, dict) for v in row["chips"]}
    out: dict[str, object] = {}
    for series in NEWER:
        source = obtain(series, GLOBS, version=pins.get(f"linux-source-{series}"))
        row = revisions(source.root)
        if row is None:
            continue
        chips = row["chips"]
        assert isinstance(chips, dict)
        row["chips"] = {v: name for v, name in chips.items() if v not in known}
        out[series] = {**row, "package": f"linux-source-{series} {source.version}"}
    return out


def main() -> int:
    trees, used = pinned_trees(GLOBS, KS / "VERSION.json")
    rows = build(trees)
    drivers = json.loads((KS / "drivers.json").read_text(encoding="utf-8"))["drivers"]
    data = {
        "about": (
            "Info-level formats Wi-Fi drivers print on their wiphy (ieee80211 phyN) that name "
            "the chip: the capitals before the chip's conversion (its prefix), which conversion "
            "it is, the chips the driver's constants list (where the format prints a number); "
            "and mt76's ASIC revision, whose top 16 bits are the chip (mt76_revisions); other "
            "drivers' reading of that register, from their own source (driver_revisions). "
            "Generated by scripts/regen_wiphy_chips.py; checked by tests/unit/test_wiphy_chips.py."
        ),
        "linux-source": used,
        "formats": rows,
        "mt76_revisions": (older := {series: revisions(root) for series, root in trees.items()}),
        "mt76_revisions_newer": newer_revisions(older),
        "driver_revisions": {
            series: driver_revisions(root, drivers) for series, root in trees.items()
        },
    }
    write_json(OUT, data)
    print(f"{len(rows)} wiphy formats name a chip -> {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
