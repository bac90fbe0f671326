"""Inspect a Pi (live over SSH) or a diagnostics bundle: collect, parse and identify.

The findings and recommendations are added one layer up, by ``sbctune.advice.inspect`` (whose
``inspect_bundle`` / ``inspect_host`` are what the front ends call): the inventory never
imports the advice.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from sbctune.catalog import Catalog, load_catalog
from sbctune.inventory.build import build_inventory
from sbctune.inventory.bundle import Bundle, read_bundle, write_bundle
from sbctune.inventory.gc_pause import gc_paused
from sbctune.inventory.model import Inventory
from sbctune.inventory.raw import Parsed, RawOutputs, links_as_files, parse_all

if TYPE_CHECKING:  # SSH (asyncssh) is loaded by whoever opens the session, not for a bundle
    from sbctune.inventory.collect import Collection  # the collector: only when a Pi is read
    from sbctune.remote.session import Session


def raw_from_bundle(bundle: Bundle) -> RawOutputs:
    return RawOutputs(
        commands=dict(bundle.commands),
        files=dict(bundle.files),
        exit_codes=dict(bundle.exit_codes),
        host=bundle.host or None,
    )


def raw_from_collection(collection: Collection) -> RawOutputs:
    return RawOutputs(
        commands=dict(collection.commands),
        files={**collection.files, **links_as_files(collection.links)},
        exit_codes=dict(collection.exit_codes),
        missing_tools=list(collection.missing_tools),
        host=collection.host,
    )


def identify(raw: RawOutputs, catalog: Catalog | None = None) -> tuple[Inventory, Parsed]:
    """The inventory (board, NICs; no findings yet) and the parsed outputs it came from."""
    catalog = catalog or load_catalog()
    with gc_paused():  # ~10^5 short-lived objects without cycles: see gc_pause
        parsed = parse_all(raw)
        inventory = build_inventory(parsed, catalog)
    inventory.missing_tools = list(raw.missing_tools)
    return inventory, parsed


def read_bundle_raw(path: str | Path) -> tuple[RawOutputs, list[str]]:
    """A bundle's outputs and the warnings reading it gave."""
    bundle = read_bundle(path)
    return raw_from_bundle(bundle), list(bundle.warnings)


async def collect_raw(session: Session) -> tuple[RawOutputs, Collection]:
    from sbctune.inventory.collect import collect

    collection = await collect(session)
    return raw_from_collection(collection), collection


def raw_json(collection: Collection) -> dict[str, Any]:
    """The raw outputs as plain JSON (kept beside an inventory in the history, so a
    diagnostics bundle can be exported later)."""
    raw = raw_from_collection(collection)
    return {
        "host": collection.host,
        "commands": dict(raw.commands),
        "files": dict(raw.files),
        "exit_codes": dict(raw.exit_codes),
    }


def save_bundle(collection: Collection, dest: str | Path) -> Path:
    raw = raw_from_collection(collection)
    return write_bundle(dest, collection.host, raw.commands, raw.files, raw.exit_codes)
