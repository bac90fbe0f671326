"""USB IDs that a dongle shows in its storage ("driver CD") mode before it is switched to its
real function: Debian's usb-modeswitch-data (scripts/regen_modeswitch.py) plus newer IDs with
their public sources (resources/modeswitch/extra.json)."""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass

from sbctune.resources import resource_root


@dataclass(frozen=True)
class StorageMode:
    ids: str
    name: str  # usb_modeswitch's comment: "D-Link DWA-171 Wifi Dongle", "Huawei E353 ..."
    targets: tuple[str, ...]  # the IDs after the switch


@functools.cache
def _table() -> dict[str, StorageMode]:
    found: dict[str, StorageMode] = {}
    for name in ("usb_modeswitch.json", "extra.json"):
        try:
            path = resource_root().joinpath("modeswitch", name)
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        for ids, entry in (data.get("ids") or {}).items():
            if isinstance(entry, dict):
                targets = tuple(str(t) for t in entry.get("targets") or ())
                found[str(ids).lower()] = StorageMode(
                    str(ids).lower(), str(entry.get("name") or ""), targets
                )
    return found


def storage_mode(ids: object) -> StorageMode | None:
    """The entry for USB IDs ``vvvv:pppp`` that usb_modeswitch switches, or None."""
    return _table().get(str(ids or "").lower())
