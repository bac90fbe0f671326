"""The opt-in probe: port 22 on this PC's own subnet, at most a /24, bounded in time.

Only run when the user asks ("Scan my network"). MAC addresses then come from this PC's own
neighbour (ARP) table, which the probe has just filled.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import platform
import re
import subprocess
from collections.abc import Iterable

import ifaddr

from sbctune import aio
from sbctune.discovery.model import SCAN, FoundHost, normalise_mac

SSH_PORT = 22
CONNECT_TIMEOUT_S = 0.8
BANNER_TIMEOUT_S = 0.7
CONCURRENCY = 64
MAX_PREFIX = 24  # never more than 254 addresses per network
MAX_NETWORKS = 4
_IPV4 = re.compile(r"\b(\d{1,3}(?:\.\d{1,3}){3})\b")
_MAC = re.compile(r"\b([0-9A-Fa-f]{1,2}(?:[:-][0-9A-Fa-f]{1,2}){5})\b")


def _local_ipv4() -> list[tuple[str, int]]:
    """This PC's IPv4 addresses with their prefix lengths, as the OS lists its adapters."""
    return [
        (ip.ip, int(ip.network_prefix))
        for adapter in ifaddr.get_adapters()
        for ip in adapter.ips
        if isinstance(ip.ip, str)  # IPv6 addresses come as tuples
    ]


def own_networks(only: Iterable[str] | None = None) -> list[ipaddress.IPv4Network]:
    """This PC's IPv4 networks, each cut to the /24 around its address; loopback and
    link-local left out. ``only``: limit to the networks of these local addresses."""
    wanted = set(only or ())
    nets: list[ipaddress.IPv4Network] = []
    for ip, prefix in _local_ipv4():
        addr = ipaddress.IPv4Address(ip)
        if addr.is_loopback or addr.is_link_local or (wanted and ip not in wanted):
            continue
        net = ipaddress.IPv4Network(f"{addr}/{max(prefix, MAX_PREFIX)}", strict=False)
        if net.num_addresses > 2 and net not in nets:
            nets.append(net)
    return nets[:MAX_NETWORKS]


def asked_links(addresses: Iterable[str]) -> list[ipaddress.IPv4Network] | None:
    """The whole networks (their real prefix) of these local addresses: the links a find was
    kept to. None when one of them cannot tell its link (not found here, or a /32 whose peers
    lie outside it): then nothing can be judged by network."""
    wanted = set(addresses)
    nets = {
        ip: ipaddress.IPv4Network(f"{ip}/{prefix}", strict=False)
        for ip, prefix in _local_ipv4()
        if ip in wanted and prefix < 32
    }
    if not wanted or set(nets) != wanted:
        return None
    return list(dict.fromkeys(nets.values()))


def own_addresses() -> set[str]:
    return {ip for ip, _prefix in _local_ipv4()}


async def _probe_one(address: str, port: int, gate: asyncio.Semaphore) -> FoundHost | None:
    async with gate:
        try:
            reader, writer = await aio.wait_for(
                asyncio.open_connection(address, port), CONNECT_TIMEOUT_S
            )
        except (OSError, asyncio.TimeoutError):
            return None
        banner = None
        with contextlib.suppress(OSError, asyncio.TimeoutError, ValueError):
            line = await aio.wait_for(reader.readline(), BANNER_TIMEOUT_S)
            banner = line[:255].decode("ascii", "replace").strip() or None
        writer.close()
        with contextlib.suppress(OSError):
            await writer.wait_closed()
        return FoundHost(address=address, ssh_port=port, ssh_banner=banner, sources=[SCAN])


async def probe(
    networks: list[ipaddress.IPv4Network], deadline_s: float, port: int = SSH_PORT
) -> list[FoundHost]:
    """Hosts answering on ``port`` in ``networks`` (not this PC itself), within the deadline."""
    mine = own_addresses()
    targets = [str(h) for net in networks for h in net.hosts() if str(h) not in mine]
    gate = asyncio.Semaphore(CONCURRENCY)
    tasks = [asyncio.ensure_future(_probe_one(t, port, gate)) for t in targets]
    if not tasks:
        return []
    done, pending = await asyncio.wait(tasks, timeout=deadline_s)
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    return [h for t in done if not t.cancelled() and (h := t.result()) is not None]


def parse_neighbours(text: str) -> dict[str, str]:
    """IPv4 -> MAC from `ip neigh`, /proc/net/arp, Windows `arp -a` or macOS `arp -an`."""
    table: dict[str, str] = {}
    for line in text.splitlines()[:4096]:
        ip, mac = _IPV4.search(line), _MAC.search(line)
        norm = normalise_mac(mac.group(1)) if mac else None
        if ip and norm and norm not in ("00:00:00:00:00:00", "ff:ff:ff:ff:ff:ff"):
            table.setdefault(ip.group(1), norm)
    return table


def neighbour_table() -> dict[str, str]:
    """This PC's ARP table; {} when it cannot be read."""
    if platform.system() == "Linux":
        with (
            contextlib.suppress(OSError),
            open("/proc/net/arp", encoding="ascii", errors="replace") as fh,
        ):
            return parse_neighbours(fh.read(1 << 20))
        return {}
    argv = ["arp", "-a"] if platform.system() == "Windows" else ["arp", "-an"]
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        out = subprocess.run(argv, capture_output=True, text=True, timeout=5, check=False)
        return parse_neighbours(out.stdout[: 1 << 20])
    return {}
