"""mDNS answers only from the link asked: a socket gets the multicast of the groups IT joined,
on the interfaces it joined them on.

Linux delivers a multicast datagram to every socket bound to the port whose host has joined the
group on the arriving interface, whoever joined it, unless the socket sets ``IP_MULTICAST_ALL``
to 0 (``ip(7)``; the kernel's ``ip_mc_sf_allow()`` in net/ipv4/igmp.c returns "allow" for
``inet->mc_all``, the default 1). So `sbctune find --interface A` heard the answers a Pi on link
B gave to anyone else asking there (another find, a desktop's avahi, a second lab's responder),
and listed a host that is not on A. Setting it to 0 keeps delivery to this socket's own
memberships (group and interface). macOS (BSD's ``imo_multi_filter``) and Windows deliver only
for the socket's own memberships already and have no such option: nothing to do there.

This keeps foreign multicast out; it does not judge what an answer says. An answer that arrives
on the right link may still name another link's address (a responder that lists every address
it has): `find` keeps only hosts on the links asked (find.on_links). Nor is it enough alone on
every kernel: on this project's 6.18 test machine a wildcard-bound listener with the option at 0
and a membership on one link still, now and then, read answers that a packet capture showed were
never on that link (another lab's Pi among them), and the lab's per-NIC responders read each
other's links' queries; the lab binds each NIC's sockets to that NIC (mdns_announce), and find
relies on the link rule above.
"""

from __future__ import annotations

import socket
import sys
from asyncio.trsock import TransportSocket  # what asyncio's transports hand out
from typing import Any

# linux/in.h: #define IP_MULTICAST_ALL 49 (Python's socket module names it from 3.12 on Linux)
IP_MULTICAST_ALL = int(getattr(socket, "IP_MULTICAST_ALL", 49))


def has_multicast_all(platform: str | None = None) -> bool:
    """Whether this OS delivers other sockets' group memberships (Linux only)."""
    return (platform or sys.platform).startswith("linux")


def only_own_memberships(
    sock: socket.socket | TransportSocket, platform: str | None = None
) -> bool:
    """Make ``sock`` receive only the groups it joined, on the interfaces it joined them on.
    True where the OS needed the option and took it; False where the OS needs nothing (macOS,
    Windows) or the socket is not IPv4."""
    if not has_multicast_all(platform) or sock.family != socket.AF_INET:
        return False
    sock.setsockopt(socket.IPPROTO_IP, IP_MULTICAST_ALL, 0)  # posix-only: Linux, tested above
    return True


def zeroconf_sockets(zc: Any) -> list[Any]:
    """The sockets of a python-zeroconf ``Zeroconf``: its shared listener and per-interface
    responders. Before the engine's setup they are ``AsyncEngine._listen_socket`` and
    ``_respond_sockets``; setup moves them into its transports (``readers``/``senders``, each
    with ``.sock``) and empties those two. A synchronous ``Zeroconf`` (the lab's responder)
    finishes its setup inside its constructor, so only the transports hold them then."""
    engine = getattr(zc, "engine", None)
    found: list[Any] = [
        getattr(engine, "_listen_socket", None),
        *(getattr(engine, "_respond_sockets", None) or []),
        *(getattr(w, "sock", None) for w in getattr(engine, "readers", None) or []),
        *(getattr(w, "sock", None) for w in getattr(engine, "senders", None) or []),
    ]
    sockets: list[Any] = []
    seen: set[int] = set()
    for sock in found:
        if not isinstance(sock, (socket.socket, TransportSocket)):
            continue
        fileno = sock.fileno()
        if fileno >= 0 and fileno not in seen:
            seen.add(fileno)
            sockets.append(sock)
    return sockets


def scope_to_own_links(zc: Any, platform: str | None = None) -> int:
    """Every socket of ``zc`` receives only its own memberships; how many were set."""
    return sum(only_own_memberships(s, platform) for s in zeroconf_sockets(zc))
