"""mDNS (python-zeroconf): browse the services a Pi announces, and resolve `.local` names.

Raspberry Pi OS (since late 2024) publishes `_workstation._tcp` with an instance name like
`raspberrypi [dc:a6:32:01:02:03]`, the MAC address in brackets; avahi's `_ssh._tcp` says sshd
runs. Everything here sends only mDNS (UDP 5353 to 224.0.0.251) on the chosen interfaces.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from typing import Any

from zeroconf import InterfaceChoice, IPVersion, ServiceStateChange
from zeroconf._services.info import AddressResolverIPv4  # public class, not re-exported
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from sbctune.discovery.mcast_scope import scope_to_own_links
from sbctune.discovery.model import MDNS_SSH, MDNS_WORKSTATION, FoundHost, normalise_mac

WORKSTATION = "_workstation._tcp.local."
SSH = "_ssh._tcp.local."
BROWSED = (WORKSTATION, SSH)  # the macOS bundle declares these (Info.plist NSBonjourServices)
RESOLVE_MS = 2500
MAX_NAME = 255  # DNS names are at most 255 bytes; anything longer is not one
MAX_SERVICES = 512  # a hostile network cannot make us resolve without end


def split_workstation_name(instance: str) -> tuple[str, str | None]:
    """'raspberrypi [dc:a6:32:01:02:03]._workstation._tcp.local.' -> ('raspberrypi', MAC)."""
    label = instance[:MAX_NAME]
    if label.endswith("." + WORKSTATION):
        label = label[: -len(WORKSTATION) - 1]
    if label.endswith("]") and " [" in label:
        host, _, mac = label[:-1].rpartition(" [")
        return host, normalise_mac(mac)
    return label, None


def _interfaces(addresses: Sequence[str] | None) -> Any:
    return list(addresses) if addresses else InterfaceChoice.All


class Browser:
    """One mDNS session: browse for a while, resolve what answered, close."""

    def __init__(self, interfaces: Sequence[str] | None = None) -> None:
        self._zc = AsyncZeroconf(interfaces=_interfaces(interfaces), ip_version=IPVersion.V4Only)
        # only the answers of the links asked, not another NIC's (Linux's IP_MULTICAST_ALL)
        scope_to_own_links(self._zc.zeroconf)
        self._tasks: set[asyncio.Task[None]] = set()
        self._seen: set[tuple[str, str]] = set()
        self.found: list[FoundHost] = []

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        with contextlib.suppress(Exception):
            await asyncio.gather(*self._tasks, return_exceptions=True)
        await self._zc.async_close()

    def _on_change(self, **kwargs: Any) -> None:
        state = kwargs["state_change"]
        key = (str(kwargs["service_type"]), str(kwargs["name"]))
        if state is ServiceStateChange.Removed or key in self._seen:
            return
        if len(self._seen) >= MAX_SERVICES:
            return
        self._seen.add(key)
        task = asyncio.ensure_future(self._resolve(*key))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _resolve(self, service_type: str, name: str) -> None:
        info = AsyncServiceInfo(service_type, name)
        if not await info.async_request(self._zc.zeroconf, RESOLVE_MS):
            return
        server = (info.server or "").rstrip(".")[:MAX_NAME] or None
        for address in info.parsed_addresses(IPVersion.V4Only):
            host = FoundHost(address=address, hostname=server)
            if service_type == WORKSTATION:
                label, host.mac = split_workstation_name(name)
                host.hostname = host.hostname or label
                host.sources.append(MDNS_WORKSTATION)
            else:
                host.ssh_port = info.port
                host.sources.append(MDNS_SSH)
            self.found.append(host)

    async def browse(self, seconds: float) -> list[FoundHost]:
        browser = AsyncServiceBrowser(self._zc.zeroconf, list(BROWSED), handlers=[self._on_change])
        try:
            await asyncio.sleep(seconds)
            if self._tasks:  # answers that came late still get their resolve time
                await asyncio.wait(set(self._tasks), timeout=RESOLVE_MS / 1000)
        finally:
            await browser.async_cancel()
        return list(self.found)

    async def resolve_name(self, name: str) -> list[str]:
        """IPv4 addresses of a `.local` name by mDNS; [] when nobody answers."""
        fqdn = name.rstrip(".") + "."
        resolver = AddressResolverIPv4(fqdn)
        if await resolver.async_request(self._zc.zeroconf, RESOLVE_MS):
            return list(resolver.parsed_addresses(IPVersion.V4Only))
        return []
