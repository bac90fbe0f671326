"""Inspect a Pi or a bundle and advise: the inventory (``sbctune.inventory.inspect``) plus the
findings that need no measurement (``sbctune.advice.static``).

This is the step the front ends call; it sits in the advice layer so that the inventory never
imports the advice (the layers contract: advice → inventory, never back).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from sbctune.advice.reach import within_reach
from sbctune.advice.static import add_static_advice
from sbctune.advice.unsure_offers import soften_unsure_refusals
from sbctune.catalog import Catalog, load_catalog
from sbctune.inventory.gc_pause import gc_paused
from sbctune.inventory.inspect import (
    collect_raw,
    identify,
    raw_from_bundle,
    raw_from_collection,
    raw_json,
    read_bundle_raw,
    save_bundle,
)
from sbctune.inventory.model import Inventory
from sbctune.inventory.raw import RawOutputs

if TYPE_CHECKING:  # SSH (asyncssh) is loaded by whoever opens the session, not for a bundle
    from sbctune.inventory.collect import Collection
    from sbctune.remote.session import Session

__all__ = [
    "inspect_bundle",
    "inspect_host",
    "inventory_from_raw",
    "raw_from_bundle",
    "raw_from_collection",
    "raw_json",
    "save_bundle",
]


def inventory_from_raw(raw: RawOutputs, catalog: Catalog | None = None) -> Inventory:
    # The collector stays paused until the parsed outputs (~10^5 objects for a long log) are
    # freed: resumed earlier, its next collection would walk them all once more (gc_pause).
    with gc_paused():
        return _advised(raw, catalog)


def _advised(raw: RawOutputs, catalog: Catalog | None) -> Inventory:
    catalog = catalog or load_catalog()
    inventory, parsed = identify(raw, catalog)
    add_static_advice(inventory, parsed, catalog)
    inventory.recommendations = within_reach(inventory.recommendations, inventory)
    return inventory


def inspect_bundle(path: str | Path) -> Inventory:
    raw, warnings = read_bundle_raw(path)
    inventory = inventory_from_raw(raw)
    inventory.warnings = warnings + inventory.warnings
    soften_unsure_refusals(inventory)
    return inventory


async def inspect_host(session: Session) -> tuple[Inventory, Collection]:
    import asyncio  # here: a bundle's inspect has no event loop (issue 22)

    from sbctune.advice.warm_tables import warm_tables

    # The tables load on a worker thread while the Pi answers (warm_tables).
    warming = asyncio.get_running_loop().run_in_executor(None, warm_tables)
    try:
        raw, collection = await collect_raw(session)
    finally:
        await asyncio.wait([warming])  # ~30 ms at most; the parse then finds them loaded
    inventory = inventory_from_raw(raw)
    inventory.warnings = collection.warnings + inventory.warnings
    soften_unsure_refusals(inventory)
    return inventory, collection
