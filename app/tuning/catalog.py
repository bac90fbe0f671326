"""Load the tweak definitions from resources/tuning/tweaks.json, checked strictly."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from sbctune.errors import UserError
from sbctune.resources import resource_root
from sbctune.tuning.model import Evidence, Tweak

TWEAK_IDS = (
    "rps-rfs", "xps", "irq-affinity", "cpu-governor-performance", "socket-buffers", "nic-rings",
    "irq-coalescing", "offloads-on", "eee-off", "flow-control", "mtu-jumbo", "boot-arm-freq",
    "boot-pcie-bus-perf", "boot-pi5-pcie-gen3",
)  # fmt: skip
_RISKS = ("low", "medium", "high")


class TweakDataError(UserError):
    def __init__(self, detail: str) -> None:
        super().__init__(f"The tweak definitions are broken: {detail}", "Reinstall sbctune.")


def _tweak(entry: dict[str, Any]) -> Tweak:
    try:
        risk = entry["risk"]
        if risk not in _RISKS:
            raise TweakDataError(f"{entry.get('id')}: risk {risk!r}")
        sources = tuple(str(s) for s in entry["sources"])
        if not sources:
            raise TweakDataError(f"{entry['id']}: no source")
        return Tweak(
            id=str(entry["id"]),
            kind=str(entry["kind"]),
            title=str(entry["title"]),
            why=str(entry["why"]),
            sources=sources,
            risk=risk,
            needs_reboot=bool(entry["needs_reboot"]),
            advanced=bool(entry["advanced"]),
            recommended=bool(entry["recommended"]),
            params=dict(entry.get("params") or {}),
            evidence=tuple(_evidence(entry["id"], e) for e in entry.get("evidence") or ()),
            here=str(entry.get("here") or ""),
        )
    except KeyError as exc:
        raise TweakDataError(f"{entry.get('id', '?')}: missing {exc}") from None


def _evidence(tweak_id: str, entry: dict[str, Any]) -> Evidence:
    """A sentence of the why that holds only where `when` says (boards, buses, drivers)."""
    sources = tuple(str(s) for s in entry["sources"])
    if not sources:
        raise TweakDataError(f"{tweak_id}: evidence without a source")
    when = entry.get("when") or {}
    unknown = set(when) - {"boards", "buses", "drivers"}
    if unknown:
        raise TweakDataError(f"{tweak_id}: evidence for unknown {sorted(unknown)}")
    return Evidence(
        str(entry["text"]),
        sources,
        tuple(str(b) for b in when.get("boards") or ()),
        tuple(str(b) for b in when.get("buses") or ()),
        tuple(str(d) for d in when.get("drivers") or ()),
    )


@lru_cache(maxsize=1)
def _load() -> tuple[Tweak, ...]:
    tweaks = tuple(_tweak(e) for e in _document()["tweaks"])
    ids = [t.id for t in tweaks]
    if sorted(ids) != sorted(TWEAK_IDS):
        raise TweakDataError(f"tweak ids {ids} differ from the fixed set")
    return tweaks


@lru_cache(maxsize=1)
def _document() -> dict[str, Any]:
    text = resource_root().joinpath("tuning", "tweaks.json").read_text(encoding="utf-8")
    data = json.loads(text)
    if not isinstance(data, dict):
        raise TweakDataError("not a JSON object")
    return data


def tryboot_settings() -> dict[str, Any]:
    """The `tryboot` section: the boards whose boot tweaks are tested through tryboot.txt."""
    section = _document().get("tryboot") or {}
    if not isinstance(section, dict) or not section.get("sources"):
        raise TweakDataError("the tryboot section has no source")
    return section


def load_tweaks() -> list[Tweak]:
    """Every tweak, in the order the file lists them (the order they are applied in)."""
    return list(_load())


def tweak(tweak_id: str) -> Tweak:
    for t in _load():
        if t.id == tweak_id:
            return t
    raise UserError(
        f"There is no tweak called {tweak_id!r}.",
        "Known tweaks: " + ", ".join(TWEAK_IDS) + ".",
    )
