#!/usr/bin/env python3
"""Regenerate resources/kernel_source/of_node_formats.tsv: every log format of drivers/net/ that
prints a device-tree node with ``%pOF``, at any level (info too).

    python scripts/regen_of_node_formats.py    # obtains the source via kernel_source.py

Why: some drivers name their device only by its device-tree node, never by the driver core's
device name: the IBM EMAC's ``printk(KERN_INFO "%s: EMAC-%d %pOF, MAC %pM\\n", ndev->name, ...)``
(drivers/net/ethernet/ibm/emac/core.c emac_probe()) prints ``eth0: EMAC-0
/plb/opb/ethernet@ef600c00, MAC ...``. ``%pOF`` prints the node's full path
(Documentation/core-api/printk-formats.rst, lib/vsprintf.c device_node_string()), and a device
made from a node by the OF core is a platform device (drivers/of/platform.c). messages.tsv keeps
error and warning formats only; this table keeps the ``%pOF`` ones of every level, in the same
row shape (key, level, series, files, format), so sbctune.catalog.kernel_messages.MessageTable
reads it. Read from Debian's linux-source-6.1 and -6.12 at the versions
resources/kernel_source/VERSION.json names.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KS = ROOT / "resources" / "kernel_source"
OUT = KS / "of_node_formats.tsv"
sys.path.insert(0, str(Path(__file__).resolve().parent))

from kernel_source import pinned_trees  # noqa: E402
from log_call_formats import format_after  # noqa: E402

GLOBS = ("drivers/net/*",)
_LEVELS = "emerg|alert|crit|err|warn|warning|notice|info"
_CALL_RE = re.compile(
    rf"\b(printk|pr_(?:{_LEVELS})|dev_(?:{_LEVELS})|netdev_(?:{_LEVELS})|netif_(?:{_LEVELS})"
    rf"|dev_err_probe)\s*\("
)
_KERN = {
    "KERN_EMERG": "emerg", "KERN_ALERT": "alert", "KERN_CRIT": "crit", "KERN_ERR": "err",
    "KERN_WARNING": "warn", "KERN_NOTICE": "notice", "KERN_INFO": "info",
}  # fmt: skip
# the kernel's conversions, pointer ones whole (%pOF, %pM): the same rule as kernel_messages.py
_SPEC_RE = re.compile(
    r"%[-+ #0]*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|z|t|j|L)?(p[A-Za-z][A-Za-z0-9]*|[a-zA-Z%])"
)
_WORD_RE = re.compile(r"[A-Za-z][A-Za-z_]{3,}")


def _level(call: str, kern: str | None) -> str | None:
    if call == "dev_err_probe":
        return "err"
    if call == "printk":
        return kern
    level = call.rsplit("_", 1)[-1]
    return "warn" if level == "warning" else level


def formats(root: Path) -> dict[str, tuple[str, set[str]]]:
    """format → (level, files) for every drivers/net/ log call whose format prints %pOF."""
    found: dict[str, tuple[str, set[str]]] = {}
    for path in sorted((root / "drivers/net").rglob("*.c")):
        text = path.read_text(encoding="utf-8", errors="replace")
        if "%pOF" not in text:
            continue
        rel = path.relative_to(root).as_posix()
        for m in _CALL_RE.finditer(text):
            got = format_after(text, m.end())
            if got is None or "%pOF" not in got[0]:
                continue
            fmt = got[0].strip().removesuffix("\\n").split("\\n")[0].replace('\\"', '"').strip()
            kern = next((v for k, v in _KERN.items() if k in text[m.end() : m.end() + 40]), None)
            level = _level(m.group(1), kern or got[1])
            if level is None or "%pOF" not in fmt or "\t" in fmt:
                continue
            found.setdefault(fmt, (level, set()))[1].add(rel)
    return found


def _key(fmt: str) -> str:
    """The format's longest literal word: every line printed from it has it."""
    words = _WORD_RE.findall(_SPEC_RE.sub(" ", fmt))
    return max(words, key=len) if words else ""


def series_rows(found: dict[str, dict[str, tuple[str, set[str]]]]) -> list[str]:
    """Rows (key, level, series, files, format) of messages.tsv's shape from each series'
    format -> (level, files); a format found in both series is one row naming both. Shared by
    the generators of tables in that shape (regen_netdev_info_formats.py)."""
    table: dict[str, tuple[str, set[str], list[str]]] = {}
    for series, formats_of in sorted(found.items()):
        for fmt, (level, files) in formats_of.items():
            entry = table.setdefault(fmt, (level, set(), []))
            entry[1].update(files)
            entry[2].append(series)
    return [
        "\t".join([key, level, ",".join(series), ",".join(sorted(files)), fmt])
        for fmt, (level, files, series) in sorted(table.items())
        if (key := _key(fmt))
    ]


def table_lines(trees: dict[str, Path]) -> list[str]:
    """The table's rows (key, level, series, files, format) from each series' tree."""
    return series_rows({series: formats(root) for series, root in trees.items()})


def main() -> int:
    trees, versions = pinned_trees(GLOBS, KS / "VERSION.json")
    lines = table_lines(trees)
    OUT.write_text(
        f"# key\tlevel\tseries\tfiles\tformat (scripts/regen_of_node_formats.py; {versions})\n"
        + "\n".join(lines)
        + "\n",
        encoding="utf-8",
    )
    print(f"{len(lines)} %pOF formats from {versions}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
