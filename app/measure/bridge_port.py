"""Which of several NICs under the route's device carries the traffic to this PC (audit 43).

A bridge sends a frame to a port by its forwarding database: `br_dev_xmit` looks the
destination MAC up (`br_fdb_find_rcu`) and forwards to that entry's port (`br_forward(dst->dst,
...)`, net/bridge/br_device.c: 6.1 line 106-107, 6.12 line 107, 7.2 line 109); only an unknown
MAC is flooded. The SSH session is open, so the bridge has learned the next hop's MAC (this PC,
or the route's gateway) on the port its frames came in by: that port carries the session. Where
the database does not say (not read, no `bridge` tool, a bond's choice), the NIC with a link
(carrier) on a port that forwards (brport/state 3, BR_STATE_FORWARDING) and a device of its own
(a NIC, not a veth or tap: /sys/class/net/X/device) comes before the rest, then the name.

Everything here is the Pi's text: read with fixed patterns, bounded, names checked.
"""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass, field

from sbctune.inventory.device_graph import MAX_TEXT, path_down
from sbctune.limits import parse_json

# Per device: "eth0/device" (it has one), "eth0/carrier 1", "eth0/brport/state 3". A device
# that is down has no readable carrier (EINVAL): its line has no number and is not read.
READ_PORTS = (
    'cd /sys/class/net || exit 1; for d in *; do [ -e "$d/device" ] && printf "%s/device\\n" '
    '"$d"; printf "%s/carrier %s\\n" "$d" "$(cat "$d/carrier" 2>/dev/null)"; '
    '[ -r "$d/brport/state" ] && printf "%s/brport/state %s\\n" "$d" "$(cat "$d/brport/state")"; '
    "done; exit 0"
)
_LINE = re.compile(r"([^/\s]{1,15})/(?:(device)|carrier ([01])|brport/state ([0-4]))")
_MAC = re.compile(r"[0-9a-fA-F]{2}(?::[0-9a-fA-F]{2}){5}")
_IFNAME = re.compile(r"[^/\s]{1,15}")
_FORWARDING = 3  # BR_STATE_FORWARDING (include/uapi/linux/if_bridge.h)
# `bridge -j fdb show` lists every MAC the bridges learned (~100 bytes each): room for a LAN of
# ~10 000 hosts; a larger answer is not read (then the carriers decide)
_MAX_FDB = 1 << 20


@dataclass
class PortFacts:
    devices: set[str] = field(default_factory=set)  # with a device link: hardware
    carrier: dict[str, int] = field(default_factory=dict)
    state: dict[str, int] = field(default_factory=dict)  # bridge ports' STP state


def parse_ports(text: str) -> PortFacts:
    facts = PortFacts()
    for line in text[:MAX_TEXT].splitlines():
        match = _LINE.fullmatch(line.strip())
        if not match:
            continue
        name, device, carrier, state = match.groups()
        if device:
            facts.devices.add(name)
        elif carrier is not None:
            facts.carrier[name] = int(carrier)
        else:
            facts.state[name] = int(state)
    return facts


def next_hop(route_text: str, pc: str) -> str | None:
    """The address whose MAC the Pi's frames to this PC carry: the route's gateway, else the
    PC itself; None where it is no address."""
    try:
        route = parse_json(route_text or "[]", max_bytes=MAX_TEXT)
        hop = route[0].get("gateway", pc) if route else pc
    except (ValueError, AttributeError, IndexError, TypeError):
        hop = pc
    try:
        return str(ipaddress.ip_address(str(hop)))
    except ValueError:
        return None


def fdb_port(neigh_text: str, fdb_text: str) -> str | None:
    """The bridge port the forwarding database learned the next hop's MAC on (`ip -j neigh
    show to HOP` gives the MAC, `bridge -j fdb show` the port); None where either does not
    say, or says two ports."""
    try:
        neigh = parse_json(neigh_text or "[]", max_bytes=MAX_TEXT)
        fdb = parse_json(fdb_text or "[]", max_bytes=_MAX_FDB)
        macs = {str(n.get("lladdr", "")).lower() for n in neigh if isinstance(n, dict)}
        macs = {m for m in macs if _MAC.fullmatch(m)}
        ports = {
            str(e.get("ifname"))
            for e in fdb
            if isinstance(e, dict) and e.get("master") and str(e.get("mac", "")).lower() in macs
        }
    except (ValueError, AttributeError, TypeError):
        return None
    ports = {p for p in ports if _IFNAME.fullmatch(p)}
    return ports.pop() if len(ports) == 1 else None


def _forwards(path: list[str], facts: PortFacts) -> bool:
    """No bridge port on the path from the route's device down to the NIC is held back by the
    spanning tree (a port's state other than forwarding: no frames pass it)."""
    return all(facts.state.get(dev, _FORWARDING) == _FORWARDING for dev in path)


def choose(
    route_dev: str,
    found: list[str],
    lowers: dict[str, set[str]],
    facts: PortFacts,
    port: str | None,
) -> tuple[str, str]:
    """(the NIC, why it before the next) of `found` (several, by name): the port the
    forwarding database names first, then a link, a forwarding port, hardware, the name."""

    def key(nic: str) -> tuple[bool, bool, bool, bool, str]:
        path = path_down(route_dev, nic, lowers) or [nic]
        return (
            not (port is not None and path_down(port, nic, lowers) is not None),
            facts.carrier.get(nic, 1) != 1,
            not _forwards(path, facts),
            bool(facts.devices) and nic not in facts.devices,
            nic,
        )

    ranked = sorted(found, key=key)
    first, second = key(ranked[0]), key(ranked[1])
    reasons = (
        f"the one {route_dev}'s forwarding database sends this PC's frames through",
        "the one with a link",
        f"the one {route_dev} forwards on",
        "the one that is a NIC (the others are software)",
        "the first by name",
    )
    why = next(r for a, b, r in zip(first, second, reasons, strict=True) if a != b)
    return ranked[0], why
