"""The NIC under a stacked device, for a measurement: the route to this PC often leaves by a
bridge, a bond or a VLAN (br0, bond0, eth0.10), whose NIC is the one to test and tune, and the
address sits on the upper device, not on the NIC (a bridge port has none of its own: the
kernel delivers its traffic to the bridge, net/bridge/br_input.c: br_handle_frame_finish).
The device graph is inventory.device_graph's (the same rule as the tuner's SSH NIC)."""

from __future__ import annotations

from dataclasses import dataclass

from sbctune.inventory.device_graph import bottoms, nearest_above, path_down
from sbctune.measure.bridge_port import PortFacts, choose
from sbctune.wording import counted


@dataclass(frozen=True)
class Carrier:
    nic: str | None  # the NIC to test: the route's device, or the NIC under it
    note: str | None  # in words, where the route's device is not the NIC itself


def route_carrier(
    route_dev: str | None,
    lowers: dict[str, set[str]],
    facts: PortFacts | None = None,
    port: str | None = None,
) -> Carrier:
    """The NIC under the device the route to this PC leaves by: itself where nothing stands
    under it; the one NIC at the bottom of its stack; of several (a bond's or a bridge's
    ports), the one the bridge's forwarding database sends this PC's frames through (`port`),
    else the one with a link on a forwarding port (`facts`: bridge_port.choose), else the
    first by name; the user is told which and why, and can choose."""
    if not route_dev:
        return Carrier(None, None)
    found = bottoms(route_dev, lowers)
    if found == [route_dev]:
        return Carrier(route_dev, None)
    if len(found) == 1:
        nic = found[0]
        return Carrier(
            nic, f"{nic}, under {route_dev}, carries your session: sbctune tests and tunes {nic}."
        )
    nic, why = choose(route_dev, found, lowers, facts or PortFacts(), port)
    note = (
        f"{route_dev} stands on {counted(len(found), 'device')} ({', '.join(found)}); "
        f"sbctune tests and tunes {nic}, {why}: give --nic to choose another."
    )
    return Carrier(nic, note)


def several_under(route_dev: str | None, lowers: dict[str, set[str]]) -> bool:
    """Whether the route's device stands on more than one NIC (then which one is asked)."""
    return route_dev is not None and len(bottoms(route_dev, lowers)) > 1


def carries(route_dev: str | None, nic: str, lowers: dict[str, set[str]]) -> bool:
    """Whether traffic that leaves by `route_dev` crosses `nic`: it is nic or stands on it
    (not where the route was not read)."""
    return route_dev is not None and path_down(route_dev, nic, lowers) is not None


def borrowed_address(
    nic: str, lowers: dict[str, set[str]], inet: dict[str, tuple[str, int]]
) -> tuple[str, str, int] | None:
    """(upper, address, prefix) of the nearest device above `nic` that holds an IPv4 address
    (`inet`: device -> its first), for a NIC without one of its own; None where none does."""
    upper = nearest_above(nic, lowers, set(inet))
    if upper is None:
        return None
    return (upper, *inet[upper])
