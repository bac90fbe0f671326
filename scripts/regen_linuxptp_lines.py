#!/usr/bin/env python3
"""Finds linuxptp's log formats about a port or an interface in its source.

    python scripts/regen_linuxptp_lines.py          # rewrites resources/catalog/linuxptp_lines.json
    python scripts/regen_linuxptp_lines.py --check  # says what would change, writes nothing

The source is Debian's linuxptp (the `.orig.tar.*` of the source package at the version the
table's "sources" pins), fetched and cached by `scripts/daemon_source.py`. Every pr_*() call of
its *.c files is read (the C string expression, adjacent literals joined):

- "port_formats": the message after a port's prefix. linuxptp 3.x prints "port %hu: <msg>"
  (portnum(p)); 4.x prints "%s: <msg>" with the port's log_name, "port %d (%s)" (its number and
  interface: upstream port.c port_open()), so the <msg> formats are the same in both;
- "iface_formats": whole messages about an interface named first ("interface '%s' does not
  support requested timestamping mode", "interface %s does not have a PHC");
- "tx_timeout": sk.c sk_receive()'s "timed out while polling for tx timestamp".

Each row lists where it is printed (file, enclosing function, level). A hand-written row
found in no source is an error: the table is not written.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import daemon_source
from regen_daemon_lines import c_text_at, c_value, enclosing_function
from regen_tables import check_or_write, check_parser, json_text

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "resources" / "catalog" / "linuxptp_lines.json"
_CALL = re.compile(r"\bpr_(emerg|alert|crit|err|warning|notice|info|debug)\s*\(")
# where a format starts in a call's arguments: first, or an arm of a ternary (sk.c's
# `pr_err(res ? "poll for tx timestamp failed: %m" : "timed out while polling ...")`)
_FORMAT_AT = re.compile(r'(?:^\s*|[?:]\s*)(?=")')
_PORT = "port %hu: "
_IFACE = re.compile(r"^interface '?%s'?[ :]")
_TX_TIMEOUT = "timed out while polling for tx timestamp"


def calls(root: Path) -> list[tuple[str, str, str, str]]:
    """(format, file, function, level) of every pr_*() with a literal format."""
    found = []
    for path in sorted(root.glob("*.c")):
        text = path.read_text(encoding="utf-8", errors="replace")
        lines = text.splitlines()
        for m in _CALL.finditer(text):
            line_no = text.count("\n", 0, m.start())
            function = enclosing_function(lines, line_no)
            args = text[m.end() : text.find(";", m.end())]
            for at in _FORMAT_AT.finditer(args):
                value = c_value(c_text_at(text, m.end() + at.end()))
                found.append((value, path.name, function, m.group(1)))
    return found


def _row(fmt: str, where: list[tuple[str, str, str]], version: str) -> dict[str, Any]:
    return {
        "format": fmt,
        "level": "/".join(sorted({lvl for _, _, lvl in where})),
        "source": f"linuxptp {version}: "
        + ", ".join(sorted({f"{f} {fn}() pr_{lvl}" for f, fn, lvl in where})),
    }


def regenerate(table: dict[str, Any], source: daemon_source.DaemonSource) -> list[str]:
    sites: dict[str, list[tuple[str, str, str]]] = {}
    for value, file, function, level in calls(source.root):
        sites.setdefault(value, []).append((file, function, level))
    version = source.upstream
    # a format holding a macro (PRId64: "{PRId64}" by c_value) has no fixed text to read
    ports = sorted(v[len(_PORT) :] for v in sites if v.startswith(_PORT) and "{" not in v)
    table["port_formats"] = [_row(p, sites[_PORT + p], version) for p in ports]
    ifaces = sorted(v for v in sites if _IFACE.match(v))
    table["iface_formats"] = [_row(v, sites[v], version) for v in ifaces]
    if _TX_TIMEOUT not in sites:
        return [f"{_TX_TIMEOUT!r} is in no source"]
    table["tx_timeout"] = _row(_TX_TIMEOUT, sites[_TX_TIMEOUT], version)
    return [] if ports and ifaces else ["no port or interface format found"]


def main(argv: list[str] | None = None) -> int:
    parser = check_parser(__doc__)
    parser.add_argument("--offline", action="store_true", help="use the cached source only")
    args = parser.parse_args(argv)
    before = TABLE.read_text(encoding="utf-8")
    table = json.loads(before)
    [pin] = daemon_source.pins(table)
    problems = regenerate(table, daemon_source.obtain(pin, offline=args.offline))
    after = json_text(table, ensure_ascii=False)
    checked = check_or_write(TABLE, before, after, args.check, problems)
    if checked is not None:
        return checked
    print(f"{len(table['port_formats'])} port formats, {len(table['iface_formats'])} interface")
    return 0


if __name__ == "__main__":
    sys.exit(main())
