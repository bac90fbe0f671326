"""Lines the network daemons write about an interface, by their own formats
(``resources/catalog/daemon_lines.json``, each row citing the daemon's source):
systemd-networkd's ``end0: Found driver: macb`` / ``State changed: ...`` / ``Gained carrier``,
NetworkManager's ``device (end1): state change: ...`` / ``dhcp4 (end1): ...``, dhcpcd's
``dhcpcd[620]: eth0: carrier lost``, ifplugd's ``ifplugd(eth0)[1395]: Link beat lost.``.
A journal of a daemon alone names the interface, its driver and its carrier, with no kernel
line at all.

A line is found by its daemon's prefix anywhere in it (whatever wrapper precedes it: a syslog
clock and host, journalctl's, NetworkManager's own "<info>  [clock]"), then the formats of
that daemon whose longest literal the rest holds. Text from a Pi is never made a regex."""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass

from sbctune.catalog.format_fields import format_fields

from .lazy_pattern import later

_CONVERSION = {"d": r"-?\d+", "i": r"-?\d+", "u": r"\d+", "s": r"\S.*?"}
# An interface name as the kernel allows it (below IFNAMSIZ, no "/", ":" or space)
_IF = r"[A-Za-z_][\w.-]{0,14}"
_PREFIXES = {
    "systemd-networkd": later(
        rf"(?:^|(?<=\s))systemd-networkd(?:\[\d{{1,10}}\])?: (?P<iface>{_IF}): "
    ),
    # "device (IFACE): " (nm-device-logging.h); NetworkManager 0.9 and 1.0 put "(%s): " in
    # each device message's own format instead, right after the syslog ident and the level
    # ("NetworkManager[1206]: <info> (eth0): driver 'stmmaceth' does not support carrier
    # detection.": NetworkManager/NetworkManager@022d8e66 src/nm-device-ethernet.c)
    "NetworkManager-device": later(
        rf"(?:(?:^|(?<=[\s\]]))device |(?:^|(?<=\s))NetworkManager(?:\[\d{{1,10}}\])?: "
        rf"<[a-z]{{1,8}}>\s{{1,4}})\((?P<iface>{_IF})\): "
    ),
    "NetworkManager-dhcp": later(rf"(?:^|(?<=[\s\]]))dhcp[46] \((?P<iface>{_IF})\): "),
    "dhcpcd": later(rf"(?:^|(?<=\s))dhcpcd(?:\[\d{{1,10}}\])?: (?P<iface>{_IF}): "),
    # libdaemon's syslog ident "ifplugd(%s)" (src/ifplugd.c work()), then LOG_PID's "[PID]"
    "ifplugd": later(rf"(?:^|(?<=\s))ifplugd\((?P<iface>{_IF})\)(?:\[\d{{1,10}}\])?: "),
}
# the cheap test: each prefix's literal (a long log's lines mostly hold none)
_DAEMON_OF = {
    "systemd-networkd": "systemd-networkd",
    "device (": "NetworkManager-device",
    "NetworkManager": "NetworkManager-device",  # 0.9/1.0: "NetworkManager[PID]: <info> (eth0): "
    "dhcp4 (": "NetworkManager-dhcp",
    "dhcp6 (": "NetworkManager-dhcp",
    "dhcpcd": "dhcpcd",
    "ifplugd(": "ifplugd",
}
KINDS = frozenset({"daemon_iface", "carrier"})
_MAX_LINE = 600


@dataclass(frozen=True)
class DaemonFormat:
    daemon: str
    format: str
    says: str  # "seen", "driver", "carrier_up", "carrier_down"
    state: str  # a carrier line's own word for its state: "Gained", "Lost", "connected" ...
    source: str
    needle: str
    regex: re.Pattern[str]


def _compile(fmt: str, fields: list[str], prefix: bool) -> tuple[re.Pattern[str], str]:
    body, needle = format_fields(fmt, fields, lambda spec: _CONVERSION.get(spec.group(1), ".*?"))
    return re.compile(body + ("" if prefix else r"\s*$")), needle


@functools.cache
def daemon_formats() -> tuple[DaemonFormat, ...]:
    from sbctune.resources import resource_root

    try:
        path = resource_root().joinpath("catalog", "daemon_lines.json")
        rows = json.loads(path.read_text(encoding="utf-8"))["formats"]
        found = []
        for row in rows:
            fmt, fields = str(row["format"]), [str(f) for f in row["fields"]]
            if argument := row.get("argument"):  # the one value the source passes to its %s
                fmt, fields = fmt.replace("%s", str(argument), 1), fields[1:]
            regex, needle = _compile(fmt, fields, bool(row.get("prefix")))
            found.append(
                DaemonFormat(
                    str(row["daemon"]), str(row["format"]), str(row["says"]),
                    str(row.get("state", "")), str(row["source"]), needle, regex,
                )
            )  # fmt: skip
        return tuple(found)
    except (OSError, ValueError, KeyError, TypeError, re.error, StopIteration):
        return ()


def may_be_daemon_line(msg: str) -> bool:
    """Whether the message holds one of _DAEMON_OF's literals: seven substring tests (C's
    fast search), what a regex alternating them found at ~3.5x the cost (re scans an
    alternation of literals position by position), on each of a long log's ~7 000 distinct
    messages."""
    return (
        "systemd-networkd" in msg or "device (" in msg or "dhcp4 (" in msg or "dhcp6 (" in msg
        or "dhcpcd" in msg or "ifplugd(" in msg or "NetworkManager" in msg
    )  # fmt: skip


@functools.cache
def carrier_up_states() -> frozenset[str]:
    """The carrier lines' own words for a carrier that came (networkd's "Gained",
    NetworkManager's "connected", dhcpcd's "acquired", ifplugd's "detected")."""
    return frozenset(row.state for row in daemon_formats() if row.says == "carrier_up")


def daemon_line(msg: str) -> tuple[str, dict[str, str]] | None:
    """("carrier", {"iface", "state": the line's own word, "Gained"/"Lost"/"connected"/...}) or
    ("daemon_iface", {"iface", and "driver" where the line names it}) for a network daemon's
    line about an interface."""
    if len(msg) > _MAX_LINE or not may_be_daemon_line(msg):  # most lines of a long log
        return None
    for literal, daemon in _DAEMON_OF.items():
        if literal in msg and (head := _PREFIXES[daemon].search(msg)) is not None:
            break
    else:
        return None
    rest = msg[head.end() :]
    for row in daemon_formats():
        if row.daemon != daemon or row.needle not in rest:
            continue
        m = row.regex.match(rest)
        if m is None:
            continue
        iface = head.group("iface")
        if row.says in ("carrier_up", "carrier_down"):
            return "carrier", {"iface": iface, "state": row.state, "daemon": daemon}
        fields = {"iface": iface, "daemon": daemon, "format": row.format}
        if row.says == "driver" and (driver := m.groupdict().get("driver")):
            fields["driver"] = driver
        return "daemon_iface", fields
    return None
