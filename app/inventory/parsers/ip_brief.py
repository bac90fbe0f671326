"""One row of iproute2's brief table, ``ip -br link`` / ``ip -br addr`` (``-brief``).

iproute2 prints an interface on one line in brief mode (ip/ipaddress.c print_linkinfo(), its
``brief`` branch): the name (``name@link`` for a stacked one) padded to 16 columns, the
operational state padded to 14 (the kernel's IF_OPER_* names as iproute2 spells them,
oper_states[]), then for ``link`` the hardware address and the ``<FLAGS>``, for ``addr`` the
addresses as ``address/prefix``:

    enp193s0         DOWN           38:05:25:34:5d:d7 <NO-CARRIER,BROADCAST,MULTICAST,UP>
    eth0             UP             192.168.1.5/24 fe80::1/64

A row is read only when its second field is one of those states and every later field is one
of those three shapes, so prose or another table's line is no row. A paste's pipe through
``grep`` keeps whole rows, so any subset reads the same."""

from __future__ import annotations

import re

from .netif_model import IpAddress, NetInterface

# ip/ipaddress.c oper_states[]: the kernel's RFC 2863 states (include/uapi/linux/if.h IF_OPER_*)
_STATES = frozenset({"UNKNOWN", "NOTPRESENT", "DOWN", "LOWERLAYERDOWN", "TESTING", "DORMANT", "UP"})
_NAME = re.compile(r"^([^\s@:<>/]{1,15})(?:@(\S{1,32}))?$")  # IFNAMSIZ: 15 characters and NUL
_MAC = re.compile(r"^[0-9a-fA-F]{2}(?::[0-9a-fA-F]{2}){3,19}$")
_FLAGS = re.compile(r"^<([A-Z0-9_,-]*)>$")
_ADDRESS = re.compile(r"^([0-9a-fA-F.:]+)/(\d{1,3})$")


def brief_row(line: str) -> NetInterface | None:
    """The interface one brief row shows, or None when the line is no such row."""
    fields = line.split()
    if len(fields) < 2 or len(fields) > 24 or line[:1].isspace() or fields[1] not in _STATES:
        return None
    name = _NAME.match(fields[0])
    if name is None:
        return None
    row = NetInterface(name=name.group(1), parent=name.group(2), operstate=fields[1])
    for field in fields[2:]:
        if (flags := _FLAGS.match(field)) is not None:
            row.flags = [f for f in flags.group(1).split(",") if f]
        elif _MAC.match(field):
            row.mac = field.lower()
        elif (addr := _ADDRESS.match(field)) is not None:
            family = "inet6" if ":" in addr.group(1) else "inet"
            row.addresses.append(IpAddress(family, addr.group(1), int(addr.group(2))))
        else:
            return None
    return row
