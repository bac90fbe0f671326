#!/usr/bin/env python3
"""Regenerate resources/kernel_source/id_formats.tsv: the kernel's log formats, at any level,
that print a USB/PCI vendor:product pair, and which two of the format's conversions it is.

    python scripts/regen_id_formats.py    # obtains the source via kernel_source.py

Why: a device's IDs are often printed only by its driver's own line (rtl8xxxu's dev_info
"This Realtek USB WiFi dongle (0x%04x:0x%04x) is untested!"). A line printed from one of these
formats gives the IDs of the device it is about, for any driver, by the format's shape: two
4-digit hex conversions as "%04x:%04x" (with "0x" or not, in brackets or not), or "idVendor=%04x,
idProduct=%04x" and the like. A pair named as a subsystem's (the card maker's "sub %04x:%04x")
is not the device's own and is left out. Read from the same parts of the kernel as
messages.tsv (scripts/regen_kernel_source.py), Debian's linux-source-6.1 and 6.12.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KS = ROOT / "resources" / "kernel_source"
OUT = KS / "id_formats.tsv"
sys.path.insert(0, str(Path(__file__).resolve().parent))

from kernel_source import asked, pinned_trees  # noqa: E402
from log_call_formats import format_after  # noqa: E402
from regen_kernel_source import _SCAN  # noqa: E402
from regen_tables import PINS  # noqa: E402

GLOBS = ("drivers/net/*", "drivers/usb/core/*", "drivers/mmc/*", "drivers/staging/*")
_LEVELS = ("emerg", "alert", "crit", "err", "warn", "notice", "info", "dbg")
# Every log call: dev_*/netdev_*/netif_*/pr_* of any level, printk, and drivers' own wrappers
# (rtw_info, ath10k_info, brcmf_err ... IWL_INFO).
_CALL_RE = re.compile(
    r"\b((?:dev|netdev|netif|pr|net)_(?:emerg|alert|crit|err|warn|warning|notice|info|dbg)"
    r"\w*|printk|dev_printk|[a-z][a-z0-9]*_(?:err|warn|info|notice|dbg)\w*"
    r"|[A-Z][A-Z0-9]*_(?:ERR|WARN|INFO|DEBUG)\w*)\s*\("
)
_SPEC = r"%[-+ #0]*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|z|t|j|L)?[a-zA-Z%]"
_SPEC_RE = re.compile(_SPEC)
_HEX4 = r"%0?4(?:h|hh|l)?[xX]"
# The pair's shapes: "%04x:%04x", "0x%04x:0x%04x", "[%04x:%04x]"; "idVendor=%04x, idProduct=
# %04x"; "vendor 0x%04x product 0x%04x", "VID:%04x PID:%04x". Not a subsystem's.
_PAIR_RE = re.compile(
    rf"(?<![\w:])(?:0x)?({_HEX4}):(?:0x)?({_HEX4})(?![\w:])"
    rf"|(?i:id_?vendor|vendor(?:[ _]id)?|vid)[ =:]*(?:0x)?({_HEX4})[ ,;/]*"
    rf"(?i:id_?product|product(?:[ _]id)?|device(?:[ _]id)?|pid)[ =:]*(?:0x)?({_HEX4})"
)
_SUBSYSTEM_RE = re.compile(r"(?i)\b(?:sub\w*|ss(?:vid|id)|svid|sdid)\W{0,3}$")
# A bare "%04x:%04x" is a device's IDs only where the words just before it say so ("USB WiFi
# dongle (0x%04x:0x%04x)", "Chip ID %04x:%04x", "pci probe %04x:%04x"); a segment:offset, a
# register pair or a PHY's ID ("buffer ... at 0x%04x:0x%04x", "PCI error [%04x:%04x]",
# "Found PHY %04x:%04x") is not.
_NAMED_BY = re.compile(r"(?i)^(?:ids?|vid|pid|vendor|device|dongle|usb|pci|sdio|model|chip|probe)$")
_NOT_IDS = re.compile(r"(?i)^(?:error|status|phy|buffer|at|register|reg)$")


# A bare hex pair whose arguments are the device's own ID fields is its IDs whatever the words
# (brcmfmac pcie.c: brcmf_dbg(PCIE, "Enter %x:%x\n", pdev->vendor, pdev->device)).
_HEX_ANY = r"%[-#0]*\d*(?:hh|h|l)?[xX]"
_BARE_RE = re.compile(rf"(?<![\w:%])(?:0x)?({_HEX_ANY}):(?:0x)?({_HEX_ANY})(?![\w:])")
_VENDOR_ARG = re.compile(r"(?:->|\.)(?:vendor|idVendor)\W*$")
_DEVICE_ARG = re.compile(r"(?:->|\.)(?:device|idProduct)\W*$")


def _call_args(text: str, start: int) -> list[str]:
    """The top-level arguments of the call whose '(' ends at `start` (strings kept whole)."""
    args: list[str] = []
    depth, begin, quoted = 0, start, False
    for i in range(start, min(len(text), start + 1500)):
        ch = text[i]
        if quoted:
            quoted = ch != '"' or text[i - 1] == "\\"
        elif ch == '"':
            quoted = True
        elif ch == "(":
            depth += 1
        elif ch == ")" and depth:
            depth -= 1
        elif ch in ",)" and not depth:
            args.append(text[begin:i].strip())
            if ch == ")":
                return args
            begin = i + 1
    return []


def pairs_by_args(fmt: str, args: list[str]) -> tuple[int, int] | None:
    """The indexes of a bare hex pair whose arguments are a vendor and a device ID field."""
    at = next((i for i, a in enumerate(args) if a.startswith('"')), None)
    m = _BARE_RE.search(fmt)
    if at is None or m is None:
        return None
    starts = [s.start() for s in _SPEC_RE.finditer(fmt) if s.group() != "%%"]
    if m.start(1) not in starts or m.start(2) not in starts:
        return None
    vendor_at, product_at = starts.index(m.start(1)), starts.index(m.start(2))
    given = args[at + 1 :]
    if product_at >= len(given) or len(given) != len(starts):
        return None
    if _VENDOR_ARG.search(given[vendor_at]) and _DEVICE_ARG.search(given[product_at]):
        return vendor_at, product_at
    return None


# A format that prints the device's PCI device number alone, its argument the matched device's
# own field (iwlwifi pcie/drv.c iwl_pci_probe(), 6.12: IWL_INFO(iwl_trans, "PCI dev %04x/%04x,
# rev=0x%x, rfid=0x%x\n", pdev->device, pdev->subsystem_device, ...)): the vendor is not
# printed, and is the one vendor of that number in the driver's own alias table (catalog.ids
# IdDatabase.driver_entry). Written with vendor index -1.
_PCI_DEVICE_ARG = re.compile(r"^(\w+)\s*->\s*device$")


def product_by_args(fmt: str, args: list[str], text: str) -> tuple[int, int] | None:
    """(-1, index) of a hex conversion whose argument is a pci_dev's own `->device` field (the
    variable declared `struct pci_dev *` in the file: not an SDIO function's or an ID entry's),
    in a call that passes no vendor field."""
    at = next((i for i, a in enumerate(args) if a.startswith('"')), None)
    if at is None:
        return None
    specs = [s for s in _SPEC_RE.finditer(fmt) if s.group() != "%%"]
    given = args[at + 1 :]
    if len(given) != len(specs) or any(_VENDOR_ARG.search(a) for a in given):
        return None
    for index, (spec, arg) in enumerate(zip(specs, given, strict=True)):
        m = _PCI_DEVICE_ARG.match(arg)
        if m and spec.group()[-1] in "xX" and f"struct pci_dev *{m.group(1)}" in text:
            return -1, index
    return None


def _level(call: str, fmt_kern: str | None) -> str:
    low = call.lower()
    for level in _LEVELS:
        if f"_{level}" in low:
            return level
    if low.endswith("_warning") or "warn" in low:
        return "warn"
    return fmt_kern or "info"


def pairs_in(fmt: str) -> tuple[int, int] | None:
    """The indexes (among the format's conversions) of its vendor and product IDs."""
    m = _PAIR_RE.search(fmt)
    if m is None or _SUBSYSTEM_RE.search(fmt[: m.start()]):
        return None
    if m.group(1):  # the bare shape: the words before it must name IDs
        words = re.findall(r"[A-Za-z]+", fmt[: m.start()])[-3:]
        if not any(_NAMED_BY.match(w) for w in words) or any(_NOT_IDS.match(w) for w in words):
            return None
    vendor_at = m.start(1) if m.group(1) else m.start(3)
    product_at = m.start(2) if m.group(2) else m.start(4)
    starts = [s.start() for s in _SPEC_RE.finditer(fmt) if s.group() != "%%"]
    if vendor_at not in starts or product_at not in starts:
        return None
    return starts.index(vendor_at), starts.index(product_at)


def formats(root: Path) -> dict[str, tuple[str, set[str], tuple[int, int]]]:
    found: dict[str, tuple[str, set[str], tuple[int, int]]] = {}
    for top in (*_SCAN, "drivers/staging"):
        if not asked(f"{top}/", GLOBS):  # a folder of regen_kernel_source's this does not ask for
            continue
        for path in sorted((root / top).rglob("*.c")):
            rel = path.relative_to(root).as_posix()
            # _SCAN is regen_kernel_source's (net/core, drivers/base ...): only what GLOBS
            # extract, or the table holds whatever other callers put in the shared cache
            if not asked(rel, GLOBS):
                continue
            text = path.read_text(encoding="utf-8", errors="replace")
            if "%04x" not in text and "%04X" not in text and "vendor" not in text:
                continue
            for m in _CALL_RE.finditer(text):
                got = format_after(text, m.end())
                if got is None:
                    continue
                fmt = got[0].strip().removesuffix("\\n").split("\\n")[0].strip()
                args = _call_args(text, m.end())
                where = (
                    pairs_in(fmt) or pairs_by_args(fmt, args) or product_by_args(fmt, args, text)
                )
                if where is None or "\t" in fmt:
                    continue
                found.setdefault(fmt, (_level(m.group(1), got[1]), set(), where))[1].add(rel)
    return found


def main() -> int:
    trees, used = pinned_trees(GLOBS, PINS)
    rows: dict[str, dict[str, object]] = {}
    for series, root in trees.items():
        for fmt, (level, files, where) in formats(root).items():
            row = rows.setdefault(fmt, {"level": level, "files": set(), "series": [], "at": where})
            row["files"] |= files  # type: ignore[operator]
            row["series"].append(series)  # type: ignore[attr-defined]
    lines = [
        "\t".join(
            [
                f"{row['at'][0]},{row['at'][1]}",  # type: ignore[index]
                str(row["level"]),
                ",".join(row["series"]),  # type: ignore[arg-type]
                ",".join(sorted(row["files"])),  # type: ignore[arg-type]
                fmt,
            ]
        )
        for fmt, row in sorted(rows.items())
    ]
    header = (
        "# vendor,product conversion indexes (vendor -1: the device number alone)"
        "\tlevel\tseries\tfiles\tformat "
        f"(scripts/regen_id_formats.py; linux-source {json.dumps(used, sort_keys=True)})\n"
    )
    OUT.write_text(header + "\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(lines)} formats print a vendor:product pair -> {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
