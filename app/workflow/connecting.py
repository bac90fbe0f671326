"""Connect and Inspect: what the first two steps learn about the Pi, for both front ends."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sbctune.advice.inspect import inspect_host, raw_json
from sbctune.history import History
from sbctune.inventory.collect import Collection
from sbctune.inventory.model import Inventory
from sbctune.kernel_words import uname_words
from sbctune.measure.runner import find_path
from sbctune.remote import RemoteError, SudoFailed, command
from sbctune.tuning import find_leftover
from sbctune.workflow.state import ConnectedInfo

if TYPE_CHECKING:  # SSH (asyncssh) loads where a session is opened (issue 22)
    from sbctune.remote.session import Session


async def connected_facts(session: Session) -> ConnectedInfo:
    """Name, kernel, user, sudo and the Pi's iperf3 in one round trip (a second only to test
    the sudo password: a wrong one is reported, the login itself still worked)."""
    from sbctune.remote.session import SUDO_PROBE  # loaded already: `session` is one

    results = await session.run_script(
        [
            command("hostname"),
            command("uname", "-srm"),
            command("id", "-un"),
            command("sh", "-c", SUDO_PROBE),
            command("iperf3", "--version"),
        ]
    )
    hostname, kernel, user = (r.text.strip() for r in results[:3])
    session.note_sudo_probe(results[3].text)
    mode = await session.sudo_mode()
    sudo_ok = True
    if mode == "password":
        try:
            await session.run(["true"], sudo=True, check=True)
        except SudoFailed:
            sudo_ok = False
    leftover = None
    with contextlib.suppress(RemoteError):  # a listing that fails must not fail the login
        leftover = await find_leftover(session)
    version_line = results[4].text.strip().splitlines()
    iperf3 = version_line[0] if version_line and version_line[0].startswith("iperf") else None
    return ConnectedInfo(
        display=session.target.display,
        hostname=hostname,
        kernel=uname_words(kernel),
        user=user or session.username,
        sudo=mode,
        sudo_ok=sudo_ok,
        iperf3_pi=iperf3,
        tuning_leftover=leftover,
    )


def default_nic(inventory: Inventory, route_nic: str | None) -> str | None:
    """The NIC that carries traffic to this PC (under the bridge, bond or VLAN the route
    names: find_path's `nic`), else the first wired one with a name."""
    names = [n.name for n in inventory.nics if n.name]
    if route_nic in names:
        return route_nic
    wired = [n.name for n in inventory.nics if n.name and not n.wireless]
    choices = wired or names
    return choices[0] if choices else None


@dataclass(frozen=True)
class Inspected:
    inventory: Inventory
    collection: Collection
    inventory_id: int | None  # None: not stored (no device yet)
    nic: str | None  # the NIC to test by default
    nic_note: str | None = None  # why, where the route names a bridge, bond or VLAN over it


async def inspect_pi(session: Session, history: History, device_id: int | None) -> Inspected:
    """The inventory, stored with its raw outputs (so the history can give a diagnostics
    bundle back later), and the NIC to test by default."""
    inventory, collection = await inspect_host(session)
    path = await find_path(session, None)
    inventory_id = None
    if device_id is not None:
        stored = inventory.to_json() | {"raw": raw_json(collection)}
        inventory_id = history.save_inventory(device_id, stored)
    nic = default_nic(inventory, path.nic)
    note = path.note if nic == path.nic else None
    return Inspected(inventory, collection, inventory_id, nic, note)
