"""Which of the Pi's NICs `measure --all-nics` can measure, and why the others are left out.

A NIC counts when this PC has an address on its network. One that is down (set down, no "UP"
flag) or has no carrier ("NO-CARRIER": no cable, or nothing answers at the other end) carries
no traffic: measured, its clients' route goes through another NIC and the whole run stopped
with a routing message (walk 22, cm4-i340-igb with `ip link set eth1 down`). So such a NIC is
left out, with what `ip -j -4 addr show` says of it, and the others are measured.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from dataclasses import dataclass, field

from sbctune.limits import parse_json


@dataclass
class Reachable:
    nics: list[str] = field(default_factory=list)  # measurable, in the Pi's order
    left_out: dict[str, str] = field(default_factory=dict)  # NIC -> why, in plain words


def no_link_words(name: str, flags: list[str]) -> str:
    """Why a NIC on this PC's network carries no traffic now, or "" when it can."""
    if "UP" not in flags:
        return f"{name} is down (not brought up; “sudo ip link set {name} up” brings it up)"
    if "NO-CARRIER" in flags:
        return f"{name} has no link (no cable, or nothing answers at the other end)"
    return ""


def reachable(addr_json: str, towards: Callable[[str], str | None]) -> Reachable:
    """From `ip -j -4 addr show` (the Pi's, untrusted: parsed as JSON only) and this PC's own
    address towards a Pi address (`towards`), the NICs to measure and those left out."""
    try:
        entries = parse_json(addr_json or "[]")
    except ValueError:
        entries = []
    found = Reachable()
    for entry in entries if isinstance(entries, list) else []:
        name = entry.get("ifname") if isinstance(entry, dict) else None
        raw_flags = entry.get("flags") if isinstance(entry, dict) else None
        flags = [f for f in raw_flags if isinstance(f, str)] if isinstance(raw_flags, list) else []
        if not isinstance(name, str) or name == "lo" or "LOOPBACK" in flags:
            continue
        if name in found.nics or name in found.left_out:
            continue
        for addr in entry.get("addr_info", []):
            if not isinstance(addr, dict) or addr.get("family") != "inet" or not addr.get("local"):
                continue
            try:
                net = ipaddress.ip_network(f"{addr['local']}/{addr.get('prefixlen', 32)}", False)
            except ValueError:
                continue
            mine = towards(str(addr["local"]))
            if mine and ipaddress.ip_address(mine) in net:
                why = no_link_words(name, flags)
                if why:
                    found.left_out[name] = why
                else:
                    found.nics.append(name)
                break
    return found
