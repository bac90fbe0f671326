"""Which addresses a measurement uses, and whether the Pi routes its traffic to this PC
through the NIC under test."""

from __future__ import annotations

import contextlib
import ipaddress
import re
import socket
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sbctune.errors import UserError
from sbctune.limits import parse_json
from sbctune.remote import batch

if TYPE_CHECKING:  # SSH (asyncssh) loads where a session is opened (issue 22)
    from sbctune.remote.session import Session

_IFACE = re.compile(r"^[A-Za-z0-9_.:@-]{1,15}$")


@dataclass(frozen=True)
class TestPath:
    pc_address: str
    pi_address: str | None
    route_dev: str | None
    warning: str | None


def local_address_towards(addr: str) -> str | None:
    """This PC's address that the OS would use to reach `addr` (a UDP connect sends nothing)."""
    family = socket.AF_INET6 if ":" in addr else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as probe:
            probe.connect((addr, 9))
            return str(probe.getsockname()[0])
    except OSError:
        return None


def _route(text: str) -> tuple[str | None, str | None]:
    """(device, source address) of `ip -j route get`'s answer; None where it does not say."""
    try:
        route = parse_json(text or "[]")
        if not route:
            return None, None
        return route[0].get("dev"), route[0].get("prefsrc")
    except (ValueError, AttributeError, IndexError):
        return None, None


def _nic_ipv4(nic: str, result: batch.StepResult) -> tuple[str, int]:
    """The first IPv4 address and prefix of `ip -j -4 addr show dev NIC`, or a clear error."""
    try:
        addrs = parse_json(result.text or "[]")
        inet = [
            (a["local"], int(a.get("prefixlen", 32)))
            for i in addrs
            for a in i.get("addr_info", [])
            if a.get("family") == "inet"
        ]
    except (ValueError, KeyError, TypeError):
        inet = []
    if not inet and "does not exist" in result.error_text:
        raise UserError(
            f"The Pi has no network interface {nic}.",
            "`sbctune inspect HOST` lists the Pi's NICs; give one of them with --nic.",
        )
    if not inet:
        raise UserError(
            f"{nic} on the Pi has no IPv4 address.",
            "Bring the interface up and give it an address on this PC's network.",
        )
    return inet[0]


async def _path_through(
    session: Session, nic: str, addr: batch.StepResult, route_dev: str | None, pc: str
) -> tuple[str, str, str | None]:
    """(PC address, Pi address, device the Pi routes through) for tests over ``nic``."""
    pi_addr, prefix = _nic_ipv4(nic, addr)
    # This PC may also sit on the NIC's own network (SSH over one NIC, tests over another).
    subnet = ipaddress.ip_network(f"{pi_addr}/{prefix}", strict=False)
    nearer = local_address_towards(pi_addr)
    if nearer and nearer != pc and ipaddress.ip_address(nearer) in subnet:
        pc = nearer
    if route_dev != nic or pc != session.local_address:
        check = await session.run_script(
            [batch.command("ip", "-j", "route", "get", pc, "from", pi_addr)]
        )
        with contextlib.suppress(ValueError, IndexError, AttributeError):
            route_dev = parse_json(check[0].text or "[]")[0].get("dev", route_dev)
    return pc, pi_addr, route_dev


async def find_path(session: Session, nic: str | None) -> TestPath:
    """Which addresses to use, and whether traffic to this PC leaves through the NIC under test."""
    pc = session.local_address
    if not pc:
        raise UserError(
            "Could not tell this computer's address as the Pi sees it.",
            "Connect to the Pi by its IP address and try again.",
        )
    if nic is not None and not _IFACE.match(nic):
        raise UserError(f"“{nic}” is not a network interface name.", "Example: --nic eth0")
    steps = [batch.command("ip", "-j", "route", "get", pc)]
    if nic:
        steps.append(batch.command("ip", "-j", "-4", "addr", "show", "dev", nic))
    results = await session.run_script(steps)
    route_dev, pi_addr = _route(results[0].text)
    if nic:
        pc, pi_addr, route_dev = await _path_through(session, nic, results[1], route_dev, pc)
    warning = None
    if nic and route_dev and route_dev != nic:
        warning = (
            f"Traffic to this PC ({pc}) leaves the Pi through {route_dev}, not {nic}: the "
            f"results would measure {route_dev}. Put this PC on {nic}'s network, or "
            "choose that NIC."
        )
    return TestPath(pc, pi_addr, route_dev, warning)
