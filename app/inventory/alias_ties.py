"""An interface that a driver's line names but places nowhere, and the only adapter with no
interface that this driver's alias table binds: one NIC. A CM4 paste of `lspci -vvvv` taken
before the mlx4 drivers were built (01:00.0, "MT27500 Family [ConnectX-3]", no driver yet) and
the later log of "NETDEV WATCHDOG: eth1 (mlx4_core)": modules.alias maps 15b3:1003 to mlx4_core
(resources/ids, scripts/regen_ids.py), and nothing else could be eth1's device."""

from __future__ import annotations

from sbctune.catalog.ids import load_ids
from sbctune.inventory.model import Nic


def _module(name: str | None) -> str:
    return (name or "").replace("-", "_")


def alias_pair(wired: list[Nic], unnamed: list[Nic]) -> tuple[Nic, Nic] | None:
    """(interface, adapter) when each is the only one of its kind for one driver."""
    ids = load_ids()
    loose = [
        n
        for n in wired
        if n.name and n.driver and not n.bus_path and not n.ids and n.bus in ("pci", "unknown")
    ]
    for nic in loose:
        bound = [
            d
            for d in unnamed
            if not d.driver
            and d.bus == "pci"
            and _module(nic.driver) in {_module(m) for m in ids.drivers_for("pci", d.ids)}
        ]
        same = [n for n in loose if _module(n.driver) == _module(nic.driver)]
        if len(bound) == 1 and len(same) == 1:
            return nic, bound[0]
    return None
