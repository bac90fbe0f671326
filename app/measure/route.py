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
from sbctune.inventory.device_graph import READ_LOWERS, parse_lowers, path_down
from sbctune.limits import parse_json
from sbctune.measure.bridge_port import READ_PORTS, PortFacts, fdb_port, next_hop, parse_ports
from sbctune.measure.stacked_route import (
    Carrier,
    borrowed_address,
    carries,
    route_carrier,
    several_under,
)
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
    # The NIC under route_dev (itself where nothing is stacked on it): the NIC to test and
    # tune by default; None where the route was not read.
    nic: str | None = None
    note: str | None = None  # in words, where the NIC is under a bridge, bond or VLAN


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


def _inet(result: batch.StepResult) -> dict[str, tuple[str, int]]:
    """device -> its first IPv4 address and prefix, from `ip -j -4 addr show`."""
    found: dict[str, tuple[str, int]] = {}
    try:
        for dev in parse_json(result.text or "[]"):
            inet = [a for a in dev.get("addr_info", []) if a.get("family") == "inet"]
            name = dev.get("ifname")
            if inet and isinstance(name, str) and _IFACE.match(name):
                found.setdefault(name, (str(inet[0]["local"]), int(inet[0].get("prefixlen", 32))))
    except (ValueError, KeyError, TypeError, AttributeError):
        return {}
    return found


def _nic_ipv4(
    nic: str, result: batch.StepResult, every: batch.StepResult, lowers: dict[str, set[str]]
) -> tuple[str, int, str | None]:
    """The first IPv4 address and prefix of `ip -j -4 addr show dev NIC`, else the address of
    the device stacked on it (a bridge port's bridge), with words saying so; or a clear error."""
    inet = _inet(result).get(nic)
    if inet is None and "does not exist" in result.error_text:
        raise UserError(
            f"The Pi has no network interface {nic}.",
            "`sbctune inspect HOST` lists the Pi's NICs; give one of them with --nic.",
        )
    if inet is not None:
        return (*inet, None)
    borrowed = borrowed_address(nic, lowers, _inet(every))
    if borrowed is None:
        raise UserError(
            f"{nic} on the Pi has no IPv4 address.",
            "Bring the interface up and give it an address on this PC's network.",
        )
    upper, addr, prefix = borrowed
    note = (
        f"{nic} has no address of its own: it is under {upper}, so the test uses {upper}'s "
        f"address {addr}, and its traffic crosses {nic}."
    )
    return addr, prefix, note


async def _path_through(
    session: Session,
    nic: str,
    addrs: tuple[batch.StepResult, batch.StepResult],
    route_dev: str | None,
    lowers: dict[str, set[str]],
) -> tuple[str, str, str | None, str | None]:
    """(PC address, Pi address, device the Pi routes through, a note) for tests over ``nic``."""
    pc = session.local_address
    pi_addr, prefix, note = _nic_ipv4(nic, addrs[0], addrs[1], lowers)
    # This PC may also sit on the NIC's own network (SSH over one NIC, tests over another).
    subnet = ipaddress.ip_network(f"{pi_addr}/{prefix}", strict=False)
    nearer = local_address_towards(pi_addr)
    if nearer and nearer != pc and ipaddress.ip_address(nearer) in subnet:
        pc = nearer
    if not carries(route_dev, nic, lowers) or pc != session.local_address:
        check = await session.run_script(
            [batch.command("ip", "-j", "route", "get", pc, "from", pi_addr)]
        )
        with contextlib.suppress(ValueError, IndexError, AttributeError):
            route_dev = parse_json(check[0].text or "[]")[0].get("dev", route_dev)
    return pc, pi_addr, route_dev, note


async def _ports(session: Session, pc: str, route_text: str) -> tuple[PortFacts | None, str | None]:
    """One more round trip, where the route's device stands on several NICs: each device's
    carrier, bridge-port state and device link, and the bridge port whose forwarding database
    learned the next hop's MAC (bridge_port); None for what was not read."""
    hop = next_hop(route_text, pc)
    steps = [batch.command("sh", "-c", READ_PORTS)]
    if hop:
        steps.append(batch.command("ip", "-j", "neigh", "show", "to", hop))
        steps.append(batch.command("bridge", "-j", "fdb", "show"))
    answers = await session.run_script(steps)
    facts = parse_ports(answers[0].text) if answers[0].ok else None
    port = None
    if hop and answers[1].ok and answers[2].ok:
        port = fdb_port(answers[1].text, answers[2].text)
    return facts, port


async def _carrier(
    session: Session, pc: str, route_text: str, route_dev: str | None, lowers: dict[str, set[str]]
) -> Carrier:
    """route_carrier, told which port carries the traffic where the route's device stands on
    several NICs (_ports)."""
    if not several_under(route_dev, lowers):
        return route_carrier(route_dev, lowers)
    facts, port = await _ports(session, pc, route_text)
    return route_carrier(route_dev, lowers, facts, port)


async def _other_port(
    session: Session,
    pc: str,
    route_text: str,
    route_dev: str,
    nic: str,
    lowers: dict[str, set[str]],
) -> str | None:
    """The port of route_dev that this PC's frames leave by, where the bridge's forwarding
    database names one that is not `nic` nor stands on it (then the test measures that port,
    not nic); None otherwise."""
    if not several_under(route_dev, lowers):
        return None
    _facts, port = await _ports(session, pc, route_text)
    if port is None or path_down(port, nic, lowers) is not None:
        return None
    return port if path_down(route_dev, port, lowers) is not None else None


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
    # The device graph rides in the same round trip: the route may name a bridge, bond or
    # VLAN whose NIC is the one to test (the tuner's rule for the SSH NIC, the same graph).
    steps = [
        batch.command("ip", "-j", "route", "get", pc),
        batch.command("sh", "-c", READ_LOWERS),
    ]
    if nic:
        steps.append(batch.command("ip", "-j", "-4", "addr", "show", "dev", nic))
        steps.append(batch.command("ip", "-j", "-4", "addr", "show"))
    results = await session.run_script(steps)
    route_dev, pi_addr = _route(results[0].text)
    lowers = parse_lowers(results[1].text) if results[1].ok else {}
    if not nic:
        carrier = await _carrier(session, pc, results[0].text, route_dev, lowers)
        return TestPath(pc, pi_addr, route_dev, None, carrier.nic, carrier.note)
    pc, pi_addr, route_dev, note = await _path_through(
        session, nic, (results[2], results[3]), route_dev, lowers
    )
    warning = None
    if route_dev and not carries(route_dev, nic, lowers):
        warning = (
            f"Traffic to this PC ({pc}) leaves the Pi through {route_dev}, not {nic}: the "
            f"results would measure {route_dev}. Put this PC on {nic}'s network, or "
            "choose that NIC."
        )
    elif route_dev and pc == session.local_address:
        port = await _other_port(session, pc, results[0].text, route_dev, nic, lowers)
        if port:
            warning = (
                f"Traffic to this PC ({pc}) leaves {route_dev} through {port}, not {nic} "
                f"({route_dev}'s forwarding database): the results would measure {port}. "
                f"Choose --nic {port}, or put this PC on {nic}'s side of {route_dev}."
            )
    return TestPath(pc, pi_addr, route_dev, warning, nic, note)
