#!/usr/bin/env python3
"""Finds every journal format of resources/catalog/daemon_lines.json in the daemons' source.

    python scripts/regen_daemon_lines.py          # rewrites "sources", "level", "source"
    python scripts/regen_daemon_lines.py --check  # says what would change, writes nothing

The sources are Debian's systemd and network-manager (bookworm, trixie) and dhcpcd5 (bookworm),
fetched by `scripts/daemon_source.py` at the versions the table pins; ifplugd's is its bookworm
binary package (the pool serves ifplugd 0.28's .dsc but not its upstream tarball), where a row's
format must be one of the executable's NUL-terminated strings and each "argument" another.
For each row and each source of its daemon, every place that prints the row's format is
recorded: the file, the enclosing function, the logging call (`log_link_info`, `_LOGD`,
`LOG_LINK_MESSAGE` inside `log_struct(LOG_INFO, ...)`, dhcpcd's `loginfox`), the level and the
C text of the format exactly as the file has it. A row's format must be the
whole C string (or, for a 'prefix' row, its start), with macros such as IPV4_ADDRESS_FMT_STR
read as `{MACRO}`. A row found in no source of its daemon is an error: the table is not written.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import daemon_source
from regen_tables import check_or_write, check_parser, json_text

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "resources" / "catalog" / "daemon_lines.json"
# which Debian source package prints each daemon's lines
PACKAGE_OF = {
    "systemd-networkd": "systemd",
    "NetworkManager-device": "network-manager",
    "NetworkManager-dhcp": "network-manager",
    "dhcpcd": "dhcpcd5",
    "ifplugd": "ifplugd",
}
# a row's daemon -> the directories its lines come from
DIRS_OF = {
    "systemd-networkd": ("src/network",),
    "NetworkManager-device": ("src/core/devices",),
    "NetworkManager-dhcp": ("src/core/dhcp",),
    "dhcpcd": ("src",),
    "ifplugd": ("usr/sbin",),  # the binary package's executable
}
# what a daemon's C format holds before the row's format, that the reader's prefix reads:
# dhcpcd names the interface in each message itself (loginfox("%s: carrier lost", ifp->name))
LEAD_OF = {"dhcpcd": "%s: "}
_LITERAL = re.compile(r'"(?:[^"\\\n]|\\.)*"')
_MACRO = re.compile(r"[A-Z_][A-Z0-9_]*")
_SPACE = re.compile(r"\s*")
_CALL = re.compile(
    r"\b(log_link_[a-z]+(?:_errno)?|_LOG\d?[TDIWE]|LOG_LINK_MESSAGE"
    r"|log(?:debug|info|warn|err)x?)\s*\("  # dhcpcd's src/logerr.h
)
_STRUCT_LEVEL = re.compile(r"\blog_struct(?:_errno)?\s*\(\s*(LOG_[A-Z]+)")
_LEVEL_OF_DHCPCD = {"logdebug": "debug", "loginfo": "info", "logwarn": "warning", "logerr": "error"}
# a function's definition: its name at the start of a line (NetworkManager puts the return
# type on the line before), then "(" and no ";" on that line
_DEF = re.compile(r"^(?:[A-Za-z_][\w \t*]*[ \t*])?\**([A-Za-z_]\w*)\([^;]*$")
_NOT_FUNCTIONS = {"if", "for", "while", "switch", "return", "sizeof"}
_LEVEL_OF_CALL = {"T": "trace", "D": "debug", "I": "info", "W": "warn", "E": "error"}
_LEVEL_OF_LOG = {
    "LOG_DEBUG": "debug", "LOG_INFO": "info", "LOG_NOTICE": "notice",
    "LOG_WARNING": "warning", "LOG_ERR": "error",
}  # fmt: skip


def c_text_at(text: str, start: int) -> str:
    """The C string expression starting at `start` (a '"'): adjacent literals and macros."""
    pos = start
    end = start
    while True:
        m = _LITERAL.match(text, pos) or _MACRO.match(text, pos)
        if m is None:
            return text[start:end]
        end = m.end()
        pos = _SPACE.match(text, end).end()  # type: ignore[union-attr]


def c_value(c_text: str) -> str:
    """What a C string expression says: literals joined, a macro as '{NAME}'."""
    out = []
    for token in re.finditer(r'"((?:[^"\\]|\\.)*)"|([A-Z_][A-Z0-9_]*)', c_text):
        if token.group(2):
            out.append("{" + token.group(2) + "}")
        else:
            out.append(token.group(1).replace('\\"', '"').replace("\\\\", "\\"))
    return "".join(out)


def enclosing_function(lines: list[str], line_no: int) -> str:
    for i in range(line_no, -1, -1):
        line = lines[i]
        if line.startswith("}") and i != line_no:
            return ""  # outside any function
        m = _DEF.match(line)
        if m and m.group(1) not in _NOT_FUNCTIONS and not line[:1].isspace():
            return m.group(1)
    return ""


def call_and_level(text: str, at: int) -> tuple[str, str]:
    """The logging call whose argument starts at `at`, and its level."""
    before = text[max(0, at - 400) : at]
    calls = list(_CALL.finditer(before))
    if not calls:
        return "", ""
    call = calls[-1].group(1)
    if call == "LOG_LINK_MESSAGE":
        levels = list(_STRUCT_LEVEL.finditer(before))
        level = _LEVEL_OF_LOG.get(levels[-1].group(1), "") if levels else ""
        return f"log_struct({levels[-1].group(1) if levels else '?'}, LOG_LINK_MESSAGE)", level
    if call.startswith("_LOG"):
        return call, _LEVEL_OF_CALL[call[-1]]
    if call.removesuffix("x") in _LEVEL_OF_DHCPCD:
        return call, _LEVEL_OF_DHCPCD[call.removesuffix("x")]
    level = call.removeprefix("log_link_").removesuffix("_errno")
    return call, level


def binary_sites(row: dict[str, Any], root: Path) -> list[dict[str, str]]:
    """Each executable of a binary package holding `row`'s format (and its argument) as a
    string of its own: the C text a compiler kept, not the call around it."""
    wanted = [row["format"], *([row["argument"]] if row.get("argument") else [])]
    found = []
    for directory in DIRS_OF[row["daemon"]]:
        for path in sorted((root / directory).glob("*")):
            data = path.read_bytes()
            if all(b"\0" + w.encode() + b"\0" in data for w in wanted):
                found.append(
                    {"file": path.relative_to(root).as_posix(), "binary": "a NUL-terminated "
                     "string of the executable", "text": row["format"]}
                )  # fmt: skip
    return found


def _passes_argument(text: str, after: int, argument: str) -> bool:
    """Whether the call whose format ends at `after` passes the literal `argument` (ifplugd's
    "Link beat %s." with status == IFSTATUS_DOWN ? "lost" : "detected")."""
    end = text.find(";", after)
    return end > 0 and f'"{argument}"' in text[after:end]


def sites(row: dict[str, Any], root: Path, binary: bool = False) -> list[dict[str, str]]:
    """Every place under the daemon's directories that prints `row`'s format."""
    if binary:
        return binary_sites(row, root)
    lead = LEAD_OF.get(row["daemon"], "")
    needle = '"' + lead + row["format"]
    found = []
    for directory in DIRS_OF[row["daemon"]]:
        for path in sorted((root / directory).rglob("*.c")):
            text = path.read_text(encoding="utf-8", errors="replace")
            for hit in re.finditer(re.escape(needle), text):
                c_text = c_text_at(text, hit.start())
                value = c_value(c_text)
                whole = value == lead + row["format"]
                if not (whole or (row.get("prefix") and value.startswith(lead + row["format"]))):
                    continue
                argument = row.get("argument")
                if argument and not _passes_argument(text, hit.start() + len(c_text), argument):
                    continue
                line_no = text.count("\n", 0, hit.start())
                call, level = call_and_level(text, hit.start())
                if not call:
                    continue  # not a log line (a string compared or passed on)
                found.append(
                    {
                        "file": path.relative_to(root).as_posix(),
                        "function": enclosing_function(text.splitlines(), line_no),
                        "call": call,
                        "level": level,
                        "text": c_text,
                    }
                )
    return found


def _site_summary(site: dict[str, str], row: dict[str, Any]) -> str:
    if "binary" in site:  # the call a binary no longer shows, as the row's "upstream" cites it
        return f"{site['file']} (binary package; upstream {row.get('upstream', '?')}, read by hand)"
    return f"{site['file']} {site['function']}() {site['call']}"


def regenerate(table: dict[str, Any], roots: dict[str, daemon_source.DaemonSource]) -> list[str]:
    """Updates `table` in place; returns the problems (rows found nowhere)."""
    problems = []
    for row in table["formats"]:
        package = PACKAGE_OF[row["daemon"]]
        row_sites: dict[str, list[dict[str, str]]] = {}
        for key, source in roots.items():
            if source.pin.package != package:
                continue
            where = sites(row, source.root, binary=bool(source.pin.deb))
            if where:
                row_sites[key] = where
        if not row_sites:
            problems.append(f"{row['daemon']}: {row['format']!r} is in no source")
            continue
        levels = sorted({s["level"] for where in row_sites.values() for s in where if "level" in s})
        if levels:  # a binary keeps no call: the level stays as the row's note gives it
            row["level"] = "/".join(levels)
        row["sources"] = row_sites
        row["source"] = "; ".join(
            f"{roots[key].pin.package} {roots[key].upstream}: "
            + ", ".join(sorted({_site_summary(s, row) for s in where}))
            for key, where in row_sites.items()
        )
        row["checked"] = "generated from the Debian source by scripts/regen_daemon_lines.py"
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = check_parser(__doc__)
    parser.add_argument("--offline", action="store_true", help="use the cached sources only")
    args = parser.parse_args(argv)
    before = TABLE.read_text(encoding="utf-8")
    table = json.loads(before)
    roots = {
        pin.key: daemon_source.obtain(pin, offline=args.offline)
        for pin in daemon_source.pins(table)
    }
    problems = regenerate(table, roots)
    after = json_text(table, ensure_ascii=False)
    checked = check_or_write(TABLE, before, after, args.check, problems)
    if checked is not None:
        return checked
    print(f"{len(table['formats'])} formats, sources: " + ", ".join(roots))
    return 0


if __name__ == "__main__":
    sys.exit(main())
