"""Before a run: the Pi's settings (sbctune.workflow.pi_state) and, when the front end has
not stored one yet, its inventory, so that every run carries what it ran on and under
(`sbctune advise RUN` then works on a run measured with `sbctune measure` alone)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sbctune.advice.inspect import inspect_host
from sbctune.errors import UserError
from sbctune.history import History, HistoryError
from sbctune.inventory.inspect import raw_json
from sbctune.workflow.device_name import read_device_name
from sbctune.workflow.pi_state import read_pi_state

if TYPE_CHECKING:  # SSH (asyncssh) loads where a session is opened (issue 22)
    from sbctune.remote.session import Session

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Snapshot:
    pi_state: dict[str, str] | None
    inventory_id: int | None
    irqs: tuple[int, ...] = ()
    # Each NIC's chip (or its driver's family) as Inspect names it, by interface name: the
    # NIC under test is known only once the runner has read the route (nic=None)
    chips: Mapping[str, str] = field(default_factory=dict)
    # Each NIC's interrupts by interface name (a NIC measured with others reads its own)
    nic_irqs: Mapping[str, tuple[int, ...]] = field(default_factory=dict)


def nic_irqs(stored: Mapping[str, Any]) -> dict[str, tuple[int, ...]]:
    """{interface: its IRQ numbers} from a stored inventory (Inventory.to_json's form)."""
    found: dict[str, tuple[int, ...]] = {}
    nics = stored.get("nics")
    for nic in nics if isinstance(nics, list) else []:
        if isinstance(nic, dict) and isinstance(nic.get("name"), str):
            irqs = nic.get("irqs")
            numbers = irqs if isinstance(irqs, list) else []
            found[nic["name"]] = tuple(i for i in numbers if isinstance(i, int))
    return found


def nic_chips(stored: Mapping[str, Any]) -> dict[str, str]:
    """{interface: chip or family} from a stored inventory (Inventory.to_json's form)."""
    found: dict[str, str] = {}
    nics = stored.get("nics")
    for nic in nics if isinstance(nics, list) else []:
        if not isinstance(nic, dict) or not isinstance(nic.get("name"), str):
            continue
        chip = nic.get("chip") or nic.get("chip_family")
        if isinstance(chip, str) and chip:
            found[nic["name"]] = chip
    return found


async def take_snapshot(
    session: Session,
    history: History,
    nic: str | None,
    *,
    irqs: tuple[int, ...] = (),
    inventory_id: int | None = None,
) -> Snapshot:
    """Never fails the measurement: what cannot be read is left out (and logged)."""
    chips: dict[str, str] = {}
    irqs_of: dict[str, tuple[int, ...]] = {}
    if inventory_id is not None:
        try:
            chips = nic_chips(history.inventory(inventory_id))
            irqs_of = nic_irqs(history.inventory(inventory_id))
        except (HistoryError, KeyError, ValueError) as exc:
            log.warning("the stored inventory's NICs could not be read: %s", exc)
    if inventory_id is None:
        try:
            inventory, collection = await inspect_host(session)
            stored = inventory.to_json()
            chips = nic_chips(stored)  # before the saves: a stand-in history refuses them
            irqs_of = nic_irqs(stored)
            target = session.target
            name = await read_device_name(session, inventory.board.model)
            device = history.add_device(target.host, target.port, session.username,
                                        name=name, keep_name=True)  # fmt: skip
            assert device.id is not None
            stored["raw"] = raw_json(collection)
            inventory_id = history.save_inventory(device.id, stored)
            found = inventory.nic(nic) if nic else None
            irqs = irqs or (tuple(found.irqs) if found else ())
        except (UserError, OSError, ValueError) as exc:
            log.warning("no inventory kept with this run: %s", exc)
    state = await settings_of(session, nic, irqs)
    return Snapshot(state, inventory_id, irqs, chips, irqs_of)


async def settings_of(
    session: Session, nic: str | None, irqs: tuple[int, ...]
) -> dict[str, str] | None:
    """The Pi's settings with `nic`'s (workflow.pi_state); None where they could not be read."""
    try:
        return await read_pi_state(session, nic, irqs)
    except asyncio.CancelledError:
        raise
    except (UserError, OSError, ValueError) as exc:
        log.warning("the Pi's settings could not be read: %s", exc)
        return None


async def take_snapshots(
    session: Session, history: History, nics: list[str]
) -> tuple[int | None, dict[str, dict[str, str] | None]]:
    """NICs measured together (`measure --all-nics`): one inventory for the Pi, and each NIC's
    settings with its own interrupts, as a run of one NIC keeps them (walk s23: such runs
    kept only the tuning in force, so compare and History could not say what a NIC ran with)."""
    if not nics:
        return None, {}
    first = await take_snapshot(session, history, nics[0])
    states = {nics[0]: first.pi_state}
    for nic in nics[1:]:
        states[nic] = await settings_of(session, nic, first.nic_irqs.get(nic, ()))
    return first.inventory_id, states
