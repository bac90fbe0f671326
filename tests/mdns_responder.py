"""A Pi's mDNS announcements for the Find-my-Pi lab test (run inside the test's Pi namespace).

    python tests/mdns_responder.py ADDRESS HOSTNAME MAC

Announces what Raspberry Pi OS's avahi does: `_workstation._tcp` named "HOSTNAME [MAC]" and
`_ssh._tcp` on port 22, for HOSTNAME.local at ADDRESS, on that address's interface only.
Prints "ready" once registered and runs until terminated (the test bounds it).
"""

from __future__ import annotations

import signal
import socket
import sys
import threading

from zeroconf import IPVersion, ServiceInfo, Zeroconf

from sbctune.discovery.mcast_scope import scope_to_own_links


def main() -> int:
    address, hostname, mac = sys.argv[1:4]
    zc = Zeroconf(interfaces=[address], ip_version=IPVersion.V4Only)
    scope_to_own_links(zc)  # as avahi: answers the queries of its own link only
    server = f"{hostname}.local."
    services = [
        ServiceInfo("_workstation._tcp.local.", f"{hostname} [{mac}]._workstation._tcp.local.",
                    addresses=[socket.inet_aton(address)], port=9, server=server),
        ServiceInfo("_ssh._tcp.local.", f"{hostname}._ssh._tcp.local.",
                    addresses=[socket.inet_aton(address)], port=22, server=server),
    ]  # fmt: skip
    for info in services:
        zc.register_service(info)
    print("ready", flush=True)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    stop.wait(timeout=120)  # bounded even if the test forgets it
    for info in services:
        zc.unregister_service(info)
    zc.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
