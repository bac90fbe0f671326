"""`--persist` through NetworkManager's own per-connection ethtool settings.

Where NetworkManager manages the NIC (Raspberry Pi OS bookworm), it sets the NIC's ethtool
settings itself each time it activates the connection (`ethtool.feature-*`, `ethtool.ring-*`,
`ethtool.coalesce-*`, `ethtool.pause-*`): the native way to keep them across reboots and
replugs there, and one that does not race NetworkManager at boot. sbctune keeps in NM what NM
can hold and the rest with its own unit, udev rule and sysctl.d file (planning.persist_changes).

A change of kind "nm" is one property of one connection (target ``"<uuid> <property>"``); its
`before` is the property as NetworkManager had it ("" = not set), which revert puts back with
`nmcli connection modify` (an empty value removes the setting). The connection is named by its
UUID: the name is remote text, the UUID has a fixed form.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from sbctune.remote.quoting import join
from sbctune.tuning.model import Change

DISPATCHER_DIR = "/etc/NetworkManager/dispatcher.d"
_UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
_PROP = re.compile(r"^ethtool\.[a-z0-9-]{1,40}$")

# The NIC's connection UUID, then its ethtool properties (`nmcli -t`: "name:value" lines).
# `sh -c READ sh IFACE`, as the login user (reading a profile needs no privilege).
READ = (
    'u=$(nmcli -g GENERAL.CON-UUID device show "$1" 2>/dev/null) && [ -n "$u" ] && '
    'printf "%s\\n" "$u" && nmcli -t -f ethtool connection show "$u"'
)

# ethtool's (set option, parameter) -> NetworkManager's property; features by short name.
_PROPS = {
    ("-G", "rx"): "ethtool.ring-rx",
    ("-G", "tx"): "ethtool.ring-tx",
    ("-C", "rx-usecs"): "ethtool.coalesce-rx-usecs",
    ("-C", "tx-usecs"): "ethtool.coalesce-tx-usecs",
    ("-C", "adaptive-rx"): "ethtool.coalesce-adaptive-rx",
    ("-C", "adaptive-tx"): "ethtool.coalesce-adaptive-tx",
    ("-K", "gro"): "ethtool.feature-gro",
    ("-K", "gso"): "ethtool.feature-gso",
    ("-K", "tso"): "ethtool.feature-tso",
    ("-K", "lro"): "ethtool.feature-lro",
    ("-K", "sg"): "ethtool.feature-sg",
    ("-K", "tx"): "ethtool.feature-tx",
    ("-A", "autoneg"): "ethtool.pause-autoneg",
    ("-A", "rx"): "ethtool.pause-rx",
    ("-A", "tx"): "ethtool.pause-tx",
}
# NetworkManager keeps the adaptive coalescing switches as numbers ("on" is out of range).
_NUMERIC_SWITCHES = ("ethtool.coalesce-adaptive-rx", "ethtool.coalesce-adaptive-tx")


@dataclass(frozen=True)
class NmLink:
    """The NetworkManager connection active on the NIC, and its ethtool properties now."""

    uuid: str
    properties: dict[str, str] = field(default_factory=dict)


def parse(text: str) -> NmLink | None:
    """READ's output; None where NetworkManager does not manage the NIC (or says nothing)."""
    lines = text[:20000].splitlines()
    if not lines or not _UUID.match(lines[0].strip()):
        return None
    properties = {}
    for line in lines[1:]:
        name, sep, value = line.partition(":")
        if sep and _PROP.match(name):
            properties[name] = value.strip()
    return NmLink(lines[0].strip(), properties)


def prop_for(change: Change) -> str | None:
    """NetworkManager's property for an ethtool change, None if NM has none for it."""
    if change.kind != "ethtool":
        return None
    _iface, option, param = change.target.split(" ")
    return _PROPS.get((option, param))


def nm_value(prop: str, value: str) -> str:
    if prop in _NUMERIC_SWITCHES:
        return {"on": "1", "off": "0"}.get(value, value)
    return value


def split(changes: Sequence[Change], link: NmLink | None) -> tuple[list[Change], list[Change]]:
    """(the NM settings that keep what NM can hold, the changes left for sbctune's files)."""
    if link is None:
        return [], list(changes)
    kept: list[Change] = []
    rest: list[Change] = []
    for change in changes:
        prop = prop_for(change)
        if prop is None or change.after is None:
            rest.append(change)
            continue
        before = link.properties.get(prop, "")
        kept.append(Change("nm", f"{link.uuid} {prop}", before, nm_value(prop, _nm_word(change))))
    return kept, rest


def _nm_word(change: Change) -> str:
    """The value NetworkManager is to write: the one word `ethtool` writes for `after` (a
    rounding driver's: stmmac's rx-usecs 51 is written 52, which reads back 51), else `after`.
    NM writes what it holds, so 51 itself would read back 49 after every activation."""
    assert change.after is not None
    words = change.words_for(change.after)
    return words[0] if len(words) == 1 else change.after


def parts(change: Change) -> tuple[str, str]:
    """'<uuid> ethtool.ring-rx' -> (uuid, property), both checked."""
    uuid, prop = change.target.split(" ")
    if not _UUID.match(uuid) or not _PROP.match(prop):
        raise ValueError(f"not a NetworkManager setting: {change.target[:80]!r}")
    return uuid, prop


def write_argv(change: Change, value: str | None) -> list[str]:
    uuid, prop = parts(change)
    return ["nmcli", "connection", "modify", uuid, prop, value or ""]


def read_argv(change: Change) -> list[str]:
    uuid, prop = parts(change)
    return ["nmcli", "-g", prop, "connection", "show", uuid]


# NetworkManager runs a dispatcher script only if it is executable, owned by root and not
# writable by others: written to a temporary name, made 0755, then renamed (atomic).
# `sh -c WRITE_SCRIPT sh CONTENT PATH`, as root.
WRITE_SCRIPT = (
    't="$2.sbctune-tmp.$$"; umask 022; '
    'if printf "%s" "$1" >"$t" && chmod 0755 -- "$t" && mv -f -- "$t" "$2"; then exit 0; fi; '
    'rm -f -- "$t"; exit 1'
)


def dispatcher_path(session_id: str) -> str:
    return f"{DISPATCHER_DIR}/90-sbctune-{session_id}"


def is_dispatcher(path: str) -> bool:
    return path.startswith(DISPATCHER_DIR + "/") and "/" not in path[len(DISPATCHER_DIR) + 1 :]


def dispatcher_script(iface: str, at_boot: str) -> str:
    """Runs the session's at-boot.sh when NetworkManager has brought `iface` up (its IRQs then
    exist). NetworkManager passes the interface and the action as $1 and $2."""
    return "\n".join(
        [
            "#!/bin/sh",
            "# sbctune tuning session kept across reboots: sets its values again once",
            "# NetworkManager has brought the NIC up. `sbctune tune revert` removes this file.",
            f'[ "$1" = {join([iface])} ] && [ "$2" = up ] || exit 0',
            f"exec /bin/sh {join([at_boot])}",
            "",
        ]
    )
