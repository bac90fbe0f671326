#!/usr/bin/env python3
"""Regenerate resources/kernel_source/netdev_info_formats.tsv: the info- and notice-level log
formats that Ethernet drivers (drivers/net/ethernet/) print about their interface.

    python scripts/regen_netdev_info_formats.py    # obtains the source via kernel_source.py

Why: a line that names only its interface ("eth0: Atheros AG71xx at 0xb9000000, irq 4, mode:
rgmii-rxid", printed by ag71xx_probe()'s netif_info() before the netdev had a parent, or by an
older tree's printk("%s: ...", dev->name)) names its driver only through its words. messages.tsv
keeps error and warning formats; this table keeps the netif_/netdev_ info and notice ones, and a
printk(KERN_INFO "%s: ...") whose first conversion is the interface, in the same row shape (key,
level, series, files, format) so sbctune.catalog.kernel_messages.MessageTable reads it. Only
formats with enough words of their own to be one driver's are kept (at least three words and 16
letters outside conversions): "%s: link up" is every driver's. Read from Debian's
linux-source-6.1 and -6.12 at the versions resources/kernel_source/VERSION.json names.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KS = ROOT / "resources" / "kernel_source"
OUT = KS / "netdev_info_formats.tsv"
sys.path.insert(0, str(Path(__file__).resolve().parent))

from kernel_source import pinned_trees  # noqa: E402
from log_call_formats import format_after  # noqa: E402
from regen_of_node_formats import series_rows  # noqa: E402

GLOBS = ("drivers/net/*", "net/core/*")
_CALL_RE = re.compile(r"\b(printk|netdev_(?:info|notice)|netif_(?:info|notice))\s*\(")
_SPEC_RE = re.compile(
    r"%[-+ #0]*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|z|t|j|L)?(p[A-Za-z][A-Za-z0-9]*|[a-zA-Z%])"
)
_MIN_WORDS = 3
_MIN_LETTERS = 16


def _own_words(fmt: str) -> bool:
    words = re.findall(r"[A-Za-z]{2,}", _SPEC_RE.sub(" ", fmt))
    return len(words) >= _MIN_WORDS and sum(len(w) for w in words) >= _MIN_LETTERS


def formats(root: Path) -> dict[str, tuple[str, set[str]]]:
    """format → (level, files) for drivers/net/ethernet's interface lines at info/notice."""
    found: dict[str, tuple[str, set[str]]] = {}
    for path in sorted((root / "drivers/net/ethernet").rglob("*.c")):
        text = path.read_text(encoding="utf-8", errors="replace")
        rel = path.relative_to(root).as_posix()
        for m in _CALL_RE.finditer(text):
            got = format_after(text, m.end())
            if got is None:
                continue
            fmt = got[0].strip().removesuffix("\\n").split("\\n")[0].replace('\\"', '"').strip()
            call = m.group(1)
            if call == "printk":
                # only "%s: ..." at KERN_INFO/KERN_NOTICE: the interface's name first
                if got[1] not in ("info", "notice") or not fmt.startswith("%s: "):
                    continue
                level = got[1]
            else:
                level = call.rsplit("_", 1)[-1]
            if not fmt or "\t" in fmt or not _own_words(fmt):
                continue
            found.setdefault(fmt, (level, set()))[1].add(rel)
    return found


# Shared code prints some of the same words for any driver: phylink's "Link is Up - %s/%s - flow
# control %s" (phylink_link_up()) is also amd-xgbe's own. A format that is a string in these
# is nobody's own.
_SHARED = ("drivers/net/phy", "drivers/net/pcs", "drivers/net/mdio", "net/core")
_LITERAL_RE = re.compile(r'"((?:[^"\\\n]|\\.)*)\\n"')


def shared_literals(root: Path) -> set[str]:
    """Every "...\\n" string literal of the shared network code, as the formats are kept."""
    found: set[str] = set()
    for top in _SHARED:
        for path in sorted((root / top).rglob("*.c")):
            text = path.read_text(encoding="utf-8", errors="replace")
            found.update(m.group(1).replace('\\"', '"').strip() for m in _LITERAL_RE.finditer(text))
    return found


def literal_files(root: Path) -> dict[str, set[str]]:
    """Each "...\\n" string literal of drivers/net/ → the files that hold it, whatever call
    prints it (a driver's own macro, e1000's e_info(), is not in _CALL_RE): a format another
    driver's file also holds is that driver's too, and then nobody's alone."""
    found: dict[str, set[str]] = {}
    for path in sorted((root / "drivers/net").rglob("*.c")):
        text = path.read_text(encoding="utf-8", errors="replace")
        rel = path.relative_to(root).as_posix()
        for m in _LITERAL_RE.finditer(text):
            found.setdefault(m.group(1).replace('\\"', '"').strip(), set()).add(rel)
    return found


def table_lines(trees: dict[str, Path]) -> list[str]:
    """The table's rows (key, level, series, files, format) from each series' tree: a format
    the shared code also holds is nobody's own; its files are every driver file holding it."""
    found: dict[str, dict[str, tuple[str, set[str]]]] = {}
    for series, root in trees.items():
        shared = shared_literals(root)
        holders = literal_files(root)
        found[series] = {
            fmt: (level, files | holders.get(fmt, set()))
            for fmt, (level, files) in formats(root).items()
            if fmt not in shared
        }
    return series_rows(found)


def main() -> int:
    trees, versions = pinned_trees(GLOBS, KS / "VERSION.json")
    lines = table_lines(trees)
    OUT.write_text(
        f"# key\tlevel\tseries\tfiles\tformat (scripts/regen_netdev_info_formats.py; "
        f"{versions})\n" + "\n".join(lines) + "\n",
        encoding="utf-8",
    )
    print(f"{len(lines)} interface info formats from {versions}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
