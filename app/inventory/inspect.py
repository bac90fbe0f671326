"""Inspect a Pi (live over SSH) or a diagnostics bundle: parse, identify, and advise."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sbctune.advice.static import add_static_advice
from sbctune.catalog import Catalog, load_catalog
from sbctune.inventory.build import build_inventory
from sbctune.inventory.bundle import Bundle, read_bundle, write_bundle
from sbctune.inventory.collect import Collection, collect
from sbctune.inventory.model import Inventory
from sbctune.inventory.raw import RawOutputs, links_as_files, parse_all
from sbctune.remote import Session


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


def inventory_from_raw(raw: RawOutputs, catalog: Catalog | None = None) -> Inventory:
    catalog = catalog or load_catalog()
    parsed = parse_all(raw)
    inventory = build_inventory(parsed, catalog)
    inventory.missing_tools = list(raw.missing_tools)
    add_static_advice(inventory, parsed, catalog)
    return inventory


def inspect_bundle(path: str | Path) -> Inventory:
    bundle = read_bundle(path)
    inventory = inventory_from_raw(raw_from_bundle(bundle))
    inventory.warnings = list(bundle.warnings) + inventory.warnings
    return inventory


async def inspect_host(session: Session) -> tuple[Inventory, Collection]:
    collection = await collect(session)
    inventory = inventory_from_raw(raw_from_collection(collection))
    inventory.warnings = collection.warnings + inventory.warnings
    return inventory, collection


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
