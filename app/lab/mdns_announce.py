"""What avahi does on Raspberry Pi OS, for a lab: announce the Pi over mDNS on each of its NICs.

    python -m sbctune.lab.mdns_announce HOSTNAME   (run inside the lab's network namespace)

Per interface with an IPv4 address, as avahi-daemon publishes it: `_workstation._tcp` named
"HOSTNAME [MAC]" with that interface's own MAC, `_ssh._tcp` on port 22, and HOSTNAME.local.
So `sbctune find` finds a lab as it finds a Pi. Sends only mDNS, only on the lab's own links
(it lives in the lab's namespace); runs until the lab is taken down (its namespace's processes
are killed then).
"""

from __future__ import annotations

import signal
import socket
import sys
import threading
from pathlib import Path

import ifaddr
from zeroconf import IPVersion, ServiceInfo, Zeroconf

from sbctune.discovery.mcast_scope import scope_to_own_links, zeroconf_sockets
from sbctune.wording import counted

SO_BINDTODEVICE = int(getattr(socket, "SO_BINDTODEVICE", 25))  # asm-generic/socket.h


def lab_addresses() -> list[tuple[str, str]]:
    """(interface, IPv4 address) of every NIC of this namespace but loopback."""
    found = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if isinstance(ip.ip, str) and not ip.ip.startswith("127."):
                found.append((str(adapter.nice_name), ip.ip))
    return found


def mac_of(interface: str) -> str:
    try:
        return Path("/sys/class/net", interface, "address").read_text(encoding="utf-8").strip()
    except OSError:
        return ""


def announce(hostname: str, interface: str, address: str) -> tuple[Zeroconf, list[ServiceInfo]]:
    zc = Zeroconf(interfaces=[address], ip_version=IPVersion.V4Only)
    # avahi answers a query on the link it came in on: this interface's responder hears only its
    # own link's queries, never another NIC's or another lab's (Linux's IP_MULTICAST_ALL)
    scope_to_own_links(zc)
    # and only what arrives on this NIC: with the lab's four listeners bound to *:5353 in one
    # namespace, IP_MULTICAST_ALL 0 alone still let eth3's hear eth1's query (strace on the
    # lab's responder: eth3's listener read a query from eth1's host address and answered it by
    # unicast with eth3's address); avahi answers on the link a query came in on
    for sock in zeroconf_sockets(zc):
        sock.setsockopt(socket.SOL_SOCKET, SO_BINDTODEVICE, interface.encode())  # posix-only: lab
    packed = [socket.inet_aton(address)]
    server = f"{hostname}.local."
    mac = mac_of(interface)
    label = f"{hostname} [{mac}]" if mac else hostname
    services = [
        ServiceInfo("_workstation._tcp.local.", f"{label}._workstation._tcp.local.",
                    addresses=packed, port=9, server=server),
        ServiceInfo("_ssh._tcp.local.", f"{hostname}._ssh._tcp.local.",
                    addresses=packed, port=22, server=server),
    ]  # fmt: skip
    # One Pi answering on each of its links is one responder (avahi-daemon), not rivals: each
    # interface's Zeroconf heard the others' probes in the same namespace (IP_MULTICAST_ALL, now
    # 0 above; kept for a system without it), so probing made "raspberrypi._ssh._tcp" conflict
    # with itself and, renamed and re-probed, it came seconds after `lab up` on a 4-NIC profile
    # (test_find_lab missed it on a busy machine).
    for info in services:
        zc.register_service(info, cooperating_responders=True)
    return zc, services


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    hostname = args[0] if args else "raspberrypi"
    running = [announce(hostname, iface, addr) for iface, addr in lab_addresses()]
    print(f"announcing {hostname} on {counted(len(running), 'interface')}", flush=True)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    stop.wait()
    for zc, services in running:
        for info in services:
            zc.unregister_service(info)
        zc.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
