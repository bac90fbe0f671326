"""Find my Pi: mDNS browse + `.local` names at once, the port-22 probe only when asked."""

from __future__ import annotations

import asyncio
import ipaddress
from collections.abc import Awaitable
from dataclasses import dataclass

from sbctune.discovery.mdns import Browser
from sbctune.discovery.model import KNOWN_NAME, FoundHost
from sbctune.discovery.scan import asked_links, neighbour_table, own_networks, probe

DEFAULT_NAMES = ("raspberrypi.local",)


@dataclass(frozen=True)
class FindOptions:
    seconds: float = 3.0  # how long to listen for mDNS answers
    scan: bool = False  # probe port 22 on this PC's own subnet (at most a /24 each)
    scan_deadline_s: float = 8.0
    known_names: tuple[str, ...] = DEFAULT_NAMES  # names typed before; `.local` ones resolved
    interfaces: tuple[str, ...] = ()  # this PC's addresses to use; () = every interface


async def _resolve_known(browser: Browser, name: str) -> list[FoundHost]:
    addresses = await browser.resolve_name(name)
    return [FoundHost(address=a, hostname=name, sources=[KNOWN_NAME]) for a in addresses]


def _merge(groups: list[list[FoundHost]]) -> list[FoundHost]:
    by_address: dict[str, FoundHost] = {}
    for group in groups:
        for host in group:
            if host.address in by_address:
                by_address[host.address].merge(host)
            else:
                by_address[host.address] = host
    return list(by_address.values())


def on_links(hosts: list[FoundHost], links: list[ipaddress.IPv4Network] | None) -> list[FoundHost]:
    """Only the hosts whose address is on one of the links asked. A Pi with two NICs answers
    on both links, each with that link's address (avahi's records are per interface); an
    answer heard on link A that gives link B's address (a responder that lists every address
    it has, a second NIC's answer routed back over A) is not a host of link A. ``None``:
    every interface was asked, or the links cannot be told; nothing is dropped."""
    if links is None:
        return hosts
    return [h for h in hosts if any(ipaddress.IPv4Address(h.address) in n for n in links)]


def rank(hosts: list[FoundHost]) -> list[FoundHost]:
    """Raspberry Pis first, then hosts that run sshd, then by address."""
    return sorted(
        hosts,
        key=lambda h: (
            {"mac": 0, "name": 1}.get(h.pi_by or "", 2),  # the same rule as the count
            h.ssh_port is None,
            ipaddress.IPv4Address(h.address),
        ),
    )


async def find_pis(options: FindOptions | None = None) -> list[FoundHost]:
    """Every host found, ranked. Sends mDNS only, unless ``options.scan``."""
    options = options or FindOptions()
    names = sorted({n.lower() for n in options.known_names if n.lower().endswith(".local")})
    browser = Browser(options.interfaces or None)
    try:
        work: list[Awaitable[list[FoundHost]]] = [browser.browse(options.seconds)]
        work += [_resolve_known(browser, name) for name in names]
        if options.scan:
            nets = own_networks(options.interfaces or None)
            work.append(probe(nets, options.scan_deadline_s))
        groups = await asyncio.gather(*work)
    finally:
        await browser.close()
    hosts = _merge(list(groups))
    if options.interfaces:  # only what is on the links asked (--interface)
        hosts = on_links(hosts, asked_links(options.interfaces))
    arp = neighbour_table()  # read locally: sends nothing
    for host in hosts:
        host.mac = host.mac or arp.get(host.address)
    return rank(hosts)
