"""linuxptp's lines about a PTP port's interface (``resources/catalog/linuxptp_lines.json``,
generated from linuxptp's source by scripts/regen_linuxptp_lines.py).

ptp4l 4.x prints every port message after the port's log_name, "port 1 (eth0): ..." (port.c
port_open()), and any version says "interface 'eth0' does not support requested timestamping
mode" (clock.c clock_create()) or "interface eth0 does not have a PHC" (util.c): such a line
names a NIC the paste may show nowhere else. A port line is read only when the message after
its prefix is one of the formats linuxptp prints there, so another program's "port 1 (x): ..."
is not taken. sk.c sk_receive()'s "timed out while polling for tx timestamp" names no port:
the watcher (inventory/linuxptp_sightings.py) gives it to the port whose transmit failed on
the next lines. A line is matched after ptp4l's own head ("ptp4l[923.757]: ") when the log
reader left it; text from a Pi is never made a regex."""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass

from sbctune.catalog.format_fields import format_fields

from .lazy_pattern import later

KINDS = frozenset({"ptp_port", "ptp_tx_timeout"})
_CONVERSION = {"d": r"-?\d+", "i": r"-?\d+", "u": r"\d+", "s": r"\S.*?"}
_IF = r"[A-Za-z_][\w.-]{0,14}"  # an interface name (below IFNAMSIZ, no "/", ":" or space)
# the program's own head, kept by `ptp4l -m` ("ptp4l[923.757]: "), a syslog's tag ("ptp4l: ",
# "ptp4l[486]: ") and its own clock after it ("[67.034] "); timemaster's tag "[0:eth0] "
_HEAD = later(
    r"^(?:(?:ptp4l|phc2sys|ts2phc|phc_ctl|timemaster)(?:\[\d{1,10}(?:\.\d{1,6})?\])?: )?"
    r"(?:\[\d{1,10}\.\d{1,6}\] )?(?:\[\d{1,3}:[\w.-]{1,15}\] )?"
)
_PORT = later(rf"port \d{{1,5}} \((?P<iface>{_IF})\): ")
_IF_RE = later(_IF)
# the cheap test, one scan of a message (most of a long log's hold none of these)
_NEEDLE_RE = later(r"port \d|interface |tx timestamp")
_MAX_LINE = 400


@dataclass(frozen=True)
class _Format:
    format: str
    needle: str
    regex: re.Pattern[str]


def _compile(fmt: str) -> _Format:
    names = [f"f{i}" for i in range(fmt.count("%"))]
    body, needle = format_fields(fmt, names, lambda s: _CONVERSION.get(s.group(1), ".*?"))
    body = body.replace("(?P<f0>", "(?P<iface>", 1) if fmt.startswith("interface") else body
    return _Format(fmt, needle, re.compile(body + r"\s*$"))


@functools.cache
def _table() -> tuple[tuple[_Format, ...], tuple[_Format, ...], str]:
    from sbctune.resources import resource_root

    try:
        path = resource_root().joinpath("catalog", "linuxptp_lines.json")
        table = json.loads(path.read_text(encoding="utf-8"))
        ports = tuple(_compile(str(r["format"])) for r in table["port_formats"])
        ifaces = tuple(_compile(str(r["format"])) for r in table["iface_formats"])
        return ports, ifaces, str(table["tx_timeout"]["format"])
    except (OSError, ValueError, KeyError, TypeError, re.error):
        return (), (), "timed out while polling for tx timestamp"


def _matches(rows: tuple[_Format, ...], rest: str) -> _Format | None:
    for row in rows:
        if row.needle in rest and row.regex.match(rest):
            return row
    return None


def linuxptp_line(msg: str) -> tuple[str, dict[str, str]] | None:
    """("ptp_port", {"iface", "format", "daemon"}) for a line naming a port's interface,
    ("ptp_tx_timeout", {"daemon"}) for sk_receive()'s timeout, or None."""
    if len(msg) > _MAX_LINE or _NEEDLE_RE.search(msg) is None:
        return None
    ports, ifaces, tx_timeout = _table()
    head = _HEAD.match(msg)
    rest = msg[head.end() :] if head else msg
    if rest.rstrip() == tx_timeout:
        return "ptp_tx_timeout", {"daemon": "linuxptp"}
    if (port := _PORT.match(rest)) is not None:
        row = _matches(ports, rest[port.end() :])
        if row is None:
            return None
        return "ptp_port", {"iface": port.group("iface"), "format": row.format, "daemon": "ptp4l"}
    if rest.startswith("interface ") and (row := _matches(ifaces, rest)) is not None:
        named = row.regex.match(rest)
        if named is not None and _IF_RE.fullmatch(named.group("iface")):
            return "ptp_port", {"iface": named.group("iface"), "format": row.format,
                                "daemon": "linuxptp"}  # fmt: skip
    return None


def sends_failed(fields: dict[str, str]) -> bool:
    """A port's "send ... failed" line (port.c port_tx_sync(), port_delay_request() ...): what
    follows a transmit timestamp that did not come back (sk_receive() returns the error)."""
    fmt = fields.get("format", "")
    return fmt.startswith("send ") and fmt.endswith(" failed")
