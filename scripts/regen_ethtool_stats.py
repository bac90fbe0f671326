#!/usr/bin/env python3
"""Regenerate resources/kernel_source/ethtool_stats.json from Debian's kernel source.

    python scripts/regen_ethtool_stats.py            # newest cached sources, every series (offline)
    python scripts/regen_ethtool_stats.py --fetch    # apt's candidate versions (downloads)

Every series of scripts/kernel_source.py (6.1 and 6.12) is read; a series that cannot be had
stops the script, so the table never silently loses one.

For each driver below: the names its `get_strings(ETH_SS_STATS)` prints in `ethtool -S`, taken
mechanically from the string tables the driver copies there (the file and the table's symbol are
listed with it). A table entry is either a string literal ("RX FCS Errors"), a struct whose first
string literal is the name ({"rx_packets", ...}, GEM_STAT_TITLE(OCTTXL, "tx_octets")) or a macro
that stringifies its first argument (STAT_RTNL(rx_packets), STMMAC_STAT(tx_underflow)). Drivers
without `get_ethtool_stats` (smsc95xx, ax88179_178a, asix) are listed with no names: their
`ethtool -S` says "no stats available". Per-queue names that a driver builds with sprintf
("txq%d_packets") are not in a table and are left out, but where a table's names are printed once
per queue with a prefix (macb: "q%d_%s"), the entry's "per_queue" says so (PER_QUEUE; the format
is checked in the source) and the lab prints them for each of the NIC's queues.

sbctune classifies each name by the rules in resources/advice/counters.json; this table is what
the tests check those rules against (tests/unit/test_ethtool_stats.py).
"""

from __future__ import annotations

import json
import re
import sys
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "resources" / "kernel_source" / "ethtool_stats.json"
sys.path.insert(0, str(Path(__file__).resolve().parent))

from kernel_source import SERIES, obtain  # noqa: E402

GLOBS = ("drivers/net/*",)

# driver → (source file, the tables its get_strings(ETH_SS_STATS) copies, in order)
DRIVERS: dict[str, tuple[str, tuple[str, ...]]] = {
    "bcmgenet": ("drivers/net/ethernet/broadcom/genet/bcmgenet.c", ("bcmgenet_gstrings_stats",)),
    "macb": ("drivers/net/ethernet/cadence/macb.h", ("gem_statistics", "queue_statistics")),
    "lan78xx": ("drivers/net/usb/lan78xx.c", ("lan78xx_gstrings",)),
    "r8152": ("drivers/net/usb/r8152.c", ("rtl8152_gstrings",)),
    "r8169": ("drivers/net/ethernet/realtek/r8169_main.c", ("rtl8169_gstrings",)),
    "igb": ("drivers/net/ethernet/intel/igb/igb_ethtool.c",
            ("igb_gstrings_stats", "igb_gstrings_net_stats")),
    "e1000e": ("drivers/net/ethernet/intel/e1000e/ethtool.c", ("e1000_gstrings_stats",)),
    "stmmac": ("drivers/net/ethernet/stmicro/stmmac/stmmac_ethtool.c",
               ("stmmac_mmc", "stmmac_gstrings_stats")),
    "bnx2": ("drivers/net/ethernet/broadcom/bnx2.c", ("bnx2_stats_str_arr",)),
    "be2net": ("drivers/net/ethernet/emulex/benet/be_ethtool.c", ("et_stats",)),
    "cdc_ncm": ("drivers/net/usb/cdc_ncm.c", ("cdc_ncm_gstrings_stats",)),
    "smsc95xx": ("drivers/net/usb/smsc95xx.c", ()),
    "ax88179_178a": ("drivers/net/usb/ax88179_178a.c", ()),
    "asix": ("drivers/net/usb/asix_devices.c", ()),
}  # fmt: skip

# driver → (the table whose names the driver prints once per queue, the file and function that
# build them, the printf format they use): macb's gem_get_ethtool_strings prints
# snprintf("q%d_%s", q, queue_statistics[i].stat_string) for each of bp->num_queues, so a Pi 5
# (RP1, one queue) shows q0_rx_dropped (real pastes: tests/captures/ethtool_s/pi5_linux_*).
PER_QUEUE: dict[str, tuple[str, str, str, str]] = {
    "macb": ("queue_statistics", "drivers/net/ethernet/cadence/macb_main.c",
             "gem_get_ethtool_strings", "q%d_%s"),
}  # fmt: skip

_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')
_BUILT = {"txq", "rxq"}  # a prefix pasted to __stringify(num), not a whole name
_MACRO = re.compile(r"^[A-Z_][A-Z0-9_]*\s*\(\s*([A-Za-z_][\w.]*)")


def _body(text: str, symbol: str) -> str:
    """The text between the braces of `symbol[...] = { ... };`, comments removed."""
    m = re.search(rf"\b{re.escape(symbol)}\s*(?:\[[^\]]*\]\s*)+=\s*\{{", text)
    if m is None:
        raise SystemExit(f"table {symbol} not found")
    depth, start = 1, m.end()
    for i in range(start, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                body = text[start:i]
                body = re.sub(r"/\*.*?\*/", "", body, flags=re.S)
                return re.sub(r"//[^\n]*", "", body)
    raise SystemExit(f"table {symbol} is not closed")


def _entries(body: str) -> list[str]:
    """Top-level comma-separated entries (commas inside braces or parentheses stay)."""
    out, depth, cur = [], 0, []
    in_str = False
    for ch in body:
        if ch == '"' and (not cur or cur[-1] != "\\"):
            in_str = not in_str
        if not in_str:
            if ch in "({":
                depth += 1
            elif ch in ")}":
                depth -= 1
            elif ch == "," and depth == 0:
                out.append("".join(cur).strip())
                cur = []
                continue
        cur.append(ch)
    if "".join(cur).strip():
        out.append("".join(cur).strip())
    return [e for e in out if e]


def table_names(text: str, symbol: str) -> list[str]:
    names = []
    for entry in _entries(_body(text, symbol)):
        entry = entry.lstrip("{ \t\n")  # {DRVSTAT_INFO(rx_crc_errors)}
        if literal := _STRING.search(entry):
            names.append(literal.group(1))
        elif macro := _MACRO.match(entry):
            names.append(macro.group(1).rsplit(".", 1)[-1])
    # STAT_GENET_Q(0) builds "txq0_packets" with __stringify: not a name in the table
    return [n for n in names if re.search(r"[A-Za-z]", n) and n not in _BUILT]


def extract(root: Path) -> dict[str, Any]:
    drivers: dict[str, Any] = {}
    for driver, (path, tables) in DRIVERS.items():
        text = (root / path).read_text(encoding="utf-8", errors="replace")
        has_stats = "get_ethtool_stats" in text or path.endswith(".h")
        names = [n for symbol in tables for n in table_names(text, symbol)]
        drivers[driver] = {"file": path, "tables": list(tables), "names": names}
        if driver in PER_QUEUE:
            table, where, function, fmt = PER_QUEUE[driver]
            built = (root / where).read_text(encoding="utf-8", errors="replace")
            if f'"{fmt}"' not in built or function not in built:
                raise SystemExit(f"{driver}: {function} no longer prints {fmt!r} ({where})")
            drivers[driver]["per_queue"] = {
                "names": table_names(text, table), "format": fmt,
                "file": where, "function": function,
            }  # fmt: skip
        if not has_stats:
            drivers[driver]["note"] = "no get_ethtool_stats: `ethtool -S` has no counters"
    return drivers


def main() -> None:
    fetch = "--fetch" in sys.argv[1:]
    kernels: dict[str, str] = {}
    by_series: dict[str, dict[str, Any]] = {}
    for series in SERIES:
        try:
            source = obtain(series, GLOBS, offline=not fetch)
        except Exception as exc:
            raise SystemExit(f"linux-source-{series}: {exc} (run with --fetch)") from exc
        kernels[f"linux-source-{series}"] = source.version
        by_series[series] = extract(source.root)
    # One entry per driver: the newest series' names, and which series have which names.
    drivers: dict[str, Any] = {}
    for series, found in by_series.items():
        for driver, entry in found.items():
            merged = drivers.setdefault(driver, {**entry, "names": [], "series": {}})
            merged["series"][series] = len(entry["names"])
            merged["names"] += [n for n in entry["names"] if n not in merged["names"]]
    data = {
        "generated": datetime.now(timezone.utc).strftime("%Y-%m-%d"),
        "script": "scripts/regen_ethtool_stats.py",
        "packages": kernels,
        "drivers": drivers,
    }
    OUT.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{OUT.relative_to(ROOT)}: {len(drivers)} drivers from {kernels}")


if __name__ == "__main__":
    main()
