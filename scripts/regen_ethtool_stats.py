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
`ethtool -S` says "no stats available".

The names a driver prints once per queue in use come after the tables, in the entry's
"per_queue" (PER_QUEUE, the one place the lab takes them from): templates with "{n}" for the
queue number, either "tx" and "rx" (every TX queue's names, then every RX queue's: igb and igc
build them with ethtool_sprintf in loops over num_tx_queues / num_rx_queues, stmmac with
"q%d_%s" over its qstats tables) or "both" (each queue's names together: macb's "q%d_%s" over
queue_statistics, atlantic's "%sQueue[%d] ..." tables per vector, rx then tx). Each is read
from the function that prints them, which must still hold the loop or the format. A table entry
that is a macro pasting its argument into names (bcmgenet's STAT_GENET_Q(0): "txq0_packets" ...
"rxq0_dropped", five rings in every GENET's fixed table) is expanded as the preprocessor would
(audit 32 row 1).

sbctune classifies each name by the rules in resources/advice/counters.json; this table is what
the tests check those rules against (tests/unit/test_ethtool_stats.py).
"""

from __future__ import annotations

import re
import sys
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "resources" / "kernel_source" / "ethtool_stats.json"
sys.path.insert(0, str(Path(__file__).resolve().parent))

from kernel_source import SERIES, obtain  # noqa: E402
from regen_tables import write_json  # noqa: E402

GLOBS = ("drivers/net/*",)

# driver → (source file, the tables its get_strings(ETH_SS_STATS) copies, in order)
DRIVERS: dict[str, tuple[str, tuple[str, ...]]] = {
    "bcmgenet": ("drivers/net/ethernet/broadcom/genet/bcmgenet.c", ("bcmgenet_gstrings_stats",)),
    "macb": ("drivers/net/ethernet/cadence/macb.h", ("gem_statistics",)),
    "lan78xx": ("drivers/net/usb/lan78xx.c", ("lan78xx_gstrings",)),
    "r8152": ("drivers/net/usb/r8152.c", ("rtl8152_gstrings",)),
    "r8169": ("drivers/net/ethernet/realtek/r8169_main.c", ("rtl8169_gstrings",)),
    "igb": ("drivers/net/ethernet/intel/igb/igb_ethtool.c",
            ("igb_gstrings_stats", "igb_gstrings_net_stats")),
    "igc": ("drivers/net/ethernet/intel/igc/igc_ethtool.c",
            ("igc_gstrings_stats", "igc_gstrings_net_stats")),
    "atlantic": ("drivers/net/ethernet/aquantia/atlantic/aq_ethtool.c",
                 ("aq_ethtool_stat_names",)),
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

# driver → how its get_strings prints names per queue: "tables" (side -> the string tables,
# printed with `format`) or "loops" (sprintf formats inside `for (...; i < <loop>; ...)`), with
# the file and function that print them. macb's gem_get_ethtool_strings: "q%d_%s" for each of
# bp->num_queues, so a Pi 5 (RP1, one queue) shows q0_rx_dropped (real pastes:
# tests/captures/ethtool_s/pi5_linux_*); igb_get_strings / igc_ethtool_get_strings: three per TX
# queue, five per RX queue; stmmac_get_qstats_string; aq_ethtool_get_strings: per vector, the RX
# then the TX table, "%sQueue[%d] InPackets" with no traffic-class prefix unless QoS is on.
PER_QUEUE: dict[str, dict[str, Any]] = {
    "macb": {"file": "drivers/net/ethernet/cadence/macb_main.c",
             "function": "gem_get_ethtool_strings", "format": "q%d_%s",
             "table_file": "drivers/net/ethernet/cadence/macb.h",
             "tables": {"both": ["queue_statistics"]}},
    "stmmac": {"file": "drivers/net/ethernet/stmicro/stmmac/stmmac_ethtool.c",
               "function": "stmmac_get_qstats_string", "format": "q%d_%s",
               "tables": {"tx": ["stmmac_qstats_tx_string"], "rx": ["stmmac_qstats_rx_string"]}},
    "atlantic": {"file": "drivers/net/ethernet/aquantia/atlantic/aq_ethtool.c",
                 "function": "aq_ethtool_get_strings", "format": "",
                 "tables": {"both": ["aq_ethtool_queue_rx_stat_names",
                                     "aq_ethtool_queue_tx_stat_names"]}},
    "igb": {"file": "drivers/net/ethernet/intel/igb/igb_ethtool.c", "function": "igb_get_strings",
            "loops": {"tx": "adapter->num_tx_queues", "rx": "adapter->num_rx_queues"}},
    "igc": {"file": "drivers/net/ethernet/intel/igc/igc_ethtool.c",
            "function": "igc_ethtool_get_strings",
            "loops": {"tx": "adapter->num_tx_queues", "rx": "adapter->num_rx_queues"}},
}  # fmt: skip

# driver -> the file whose ethtool_ops bind .get_ethtool_stats, where it is not the tables' file
STATS_FILE: dict[str, str] = {
    "macb": "drivers/net/ethernet/cadence/macb_main.c",
}

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


def _expanded(text: str, entry: str) -> list[str] | None:
    """The names a table entry makes when it is a one-parameter macro of the file whose body
    pastes that parameter into string literals with __stringify (bcmgenet's STAT_GENET_Q(0):
    six entries, "txq" __stringify(num) "_packets" ... "rxq" __stringify(num) "_dropped"), as
    the preprocessor does: the argument substituted, adjacent literals joined, each entry of
    the expansion's first literal. None for any other entry (the caller reads it as before)."""
    call = re.fullmatch(r"([A-Z_][A-Z0-9_]*)\s*\(\s*(\w+)\s*\)", entry.strip())
    if call is None:
        return None
    macro, arg = call.groups()
    define = re.search(
        rf"^#define\s+{re.escape(macro)}\(\s*(\w+)\s*\)((?:[^\n]*\\\n)*[^\n]*)", text, re.M
    )
    if define is None or not re.search(rf"__stringify\(\s*{define.group(1)}\s*\)", define.group(2)):
        return None
    body = re.sub(r"/\*.*?\*/", "", define.group(2).replace("\\\n", " "), flags=re.S)
    body = re.sub(rf"__stringify\(\s*{define.group(1)}\s*\)", f'"{arg}"', body)
    body = re.sub(r'"\s*"', "", body)  # "txq" "0" "_packets": C joins adjacent literals
    return [found.group(1) for part in _entries(body) if (found := _STRING.search(part))]


def table_names(text: str, symbol: str) -> list[str]:
    names = []
    for entry in _entries(_body(text, symbol)):
        entry = entry.lstrip("{ \t\n")  # {DRVSTAT_INFO(rx_crc_errors)}
        if (built := _expanded(text, entry)) is not None:
            names += built  # STAT_GENET_Q(0): txq0_packets ... rxq0_dropped
        elif literal := _STRING.search(entry):
            names.append(literal.group(1))
        elif macro := _MACRO.match(entry):
            names.append(macro.group(1).rsplit(".", 1)[-1])
    return [n for n in names if re.search(r"[A-Za-z]", n) and n not in _BUILT]


def _function_body(text: str, name: str) -> str:
    # the name may open its line (bnx2: "static void" on the line before)
    m = re.search(rf"^(?:\S[^\n;]*\b)?{re.escape(name)}\s*\([^;{{]*\)\s*\{{", text, re.M)
    if m is None:
        raise SystemExit(f"function {name} not found")
    depth, start = 1, m.end()
    for i in range(start, len(text)):
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        if depth == 0:
            return text[start:i]
    raise SystemExit(f"function {name} is not closed")


def _template(name: str) -> str:
    """A printf'd per-queue name as a template: the queue number as {n}, atlantic's
    traffic-class prefix ("%s", empty without QoS) dropped."""
    return name.replace("%s", "", 1).replace("%d", "{n}").replace("%u", "{n}")


def per_queue(root: Path, driver: str, spec: dict[str, Any]) -> dict[str, Any]:
    """The driver's per-queue names as templates, checked against the function printing them."""
    where = root / spec["file"]
    text = where.read_text(encoding="utf-8", errors="replace")
    body = _function_body(text, spec["function"])
    out: dict[str, Any] = {"file": spec["file"], "function": spec["function"]}
    if "tables" in spec:
        fmt = spec["format"]
        if fmt and f'"{fmt}"' not in body:
            raise SystemExit(f"{driver}: {spec['function']} no longer prints {fmt!r}")
        source = (root / spec.get("table_file", spec["file"])).read_text(
            encoding="utf-8", errors="replace")  # fmt: skip
        for side, tables in spec["tables"].items():
            for table in tables:
                if table not in body:
                    raise SystemExit(f"{driver}: {spec['function']} no longer prints {table}")
            names = [n for t in tables for n in table_names(source, t)]
            out[side] = [fmt.replace("%d", "{n}").replace("%s", n) if fmt else _template(n)
                         for n in names]  # fmt: skip
        return out
    for side, bound in spec["loops"].items():
        loop = re.search(rf"for \(i = 0; i < {re.escape(bound)}; i\+\+\) \{{(.*?)\}}", body, re.S)
        if loop is None:
            raise SystemExit(f"{driver}: {spec['function']} has no loop over {bound}")
        found = re.findall(r'ethtool_sprintf\(&p,\s*"([^"]+)",\s*i\)', loop.group(1))
        if not found:
            raise SystemExit(f"{driver}: no per-queue names in {spec['function']}'s {bound} loop")
        out[side] = [_template(n) for n in found]
    return out


def stack_counters(root: Path, driver: str, path: str) -> dict[str, Any]:
    """Whether the driver's get_ethtool_stats values its counters from ``dev_get_stats``: the
    interface's counters as sysfs and ``ip -s link`` show them, which add what the core counted
    itself (net/core/dev.c dev_get_stats: the core_stats rx_dropped of frames no protocol
    took, tx_dropped ...). Where it does not (igb's adapter->stats64, macb's per-queue
    stats, the chips' tally counters), a name such as rx_dropped is the driver's own count
    and never moves for the core's drops (a real Pi 5: `ip -s link` dropped 617,
    `ethtool -S` q0_rx_dropped 0, raspberrypi/linux #6898). Read from the function(s) the
    driver's ethtool_ops bind to .get_ethtool_stats in its file."""
    where = STATS_FILE.get(driver, path)
    text = (root / where).read_text(encoding="utf-8", errors="replace")
    functions = sorted(set(re.findall(r"\.get_ethtool_stats\s*=\s*(\w+)", text)))
    if not functions:
        raise SystemExit(f"{driver}: no .get_ethtool_stats in {where}")
    reads = any("dev_get_stats(" in _function_body(text, f) for f in functions)
    return {"file": where, "functions": functions, "dev_get_stats": reads}


def extract(root: Path) -> dict[str, Any]:
    drivers: dict[str, Any] = {}
    for driver, (path, tables) in DRIVERS.items():
        text = (root / path).read_text(encoding="utf-8", errors="replace")
        has_stats = "get_ethtool_stats" in text or path.endswith(".h")
        names = [n for symbol in tables for n in table_names(text, symbol)]
        drivers[driver] = {"file": path, "tables": list(tables), "names": names}
        if driver in PER_QUEUE:
            drivers[driver]["per_queue"] = per_queue(root, driver, PER_QUEUE[driver])
        if not has_stats:
            drivers[driver]["note"] = "no get_ethtool_stats: `ethtool -S` has no counters"
        else:
            drivers[driver]["stack_counters"] = stack_counters(root, driver, path)
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
            if merged.get("per_queue") != entry.get("per_queue"):  # one set for every series
                raise SystemExit(f"{driver}: per-queue names differ in {series}: split by series")
            if merged.get("stack_counters") != entry.get("stack_counters"):
                raise SystemExit(
                    f"{driver}: get_ethtool_stats differs in {series}: split by series"
                )
            merged["series"][series] = len(entry["names"])
            merged["names"] += [n for n in entry["names"] if n not in merged["names"]]
    data = {
        "generated": datetime.now(timezone.utc).strftime("%Y-%m-%d"),
        "script": "scripts/regen_ethtool_stats.py",
        "packages": kernels,
        "drivers": drivers,
    }
    write_json(OUT, data, ensure_ascii=False)
    print(f"{OUT.relative_to(ROOT)}: {len(drivers)} drivers from {kernels}")


if __name__ == "__main__":
    main()
