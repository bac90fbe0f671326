"""A lab profile's ``[[tweak_effects]]``: modelled effects of tweaks on the link (while the
``when`` conditions hold, these rates apply), checked as ``profile`` checks the rest."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sbctune.lab.errors import ProfileError


@dataclass(frozen=True)
class TweakEffect:
    """A modelled effect of tweaks on the link: while ``when`` holds, these rates apply."""

    when: dict[str, Any]
    interface: str | None
    effects: dict[str, float]
    source: str = ""


EFFECT_RATES = (
    "pi_to_pc_mbps",
    "pc_to_pi_mbps",
    "full_duplex_pi_to_pc_mbps",
    "full_duplex_pc_to_pi_mbps",
)
# `when` key -> the type its value must have.
WHEN_KEYS: dict[str, type] = {
    "governor": str,
    "rps": bool,
    "xps": bool,
    "cpu_max_khz": int,
    "cpu_khz": int,
    "driver": str,
}


def _check_when(when: Mapping[str, Any], where: str) -> None:
    for key, value in when.items():
        kind = WHEN_KEYS.get(key)
        if kind is None:
            raise ProfileError(
                f"{where}: unknown condition {key!r} in `when`",
                "conditions: " + ", ".join(WHEN_KEYS),
            )
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise ProfileError(f"{where}: `when` {key} must be a {kind.__name__}")


def parse_tweak_effects(data: Mapping[str, Any], where: str) -> tuple[TweakEffect, ...]:
    items = data.get("tweak_effects", [])
    if not isinstance(items, list):
        raise ProfileError(f"{where}: tweak_effects must be an array of tables")
    effects = []
    for index, item in enumerate(items):
        here = f"{where}: tweak_effects #{index + 1}"
        if not isinstance(item, dict):
            raise ProfileError(f"{here} must be a table")
        when = item.get("when", {})
        if not isinstance(when, dict) or not when:
            raise ProfileError(f"{here}: `when` must be a non-empty table of conditions")
        _check_when(when, here)
        numbers = {}
        for key, value in item.items():
            if key in ("when", "interface", "source"):
                continue
            if key not in EFFECT_RATES:
                raise ProfileError(
                    f"{here}: unknown key {key}", "rates: " + ", ".join(EFFECT_RATES)
                )
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
                raise ProfileError(f"{here}: {key} must be a positive number")
            numbers[key] = float(value)
        interface = item.get("interface")
        if interface is not None and not isinstance(interface, str):
            raise ProfileError(f"{here}: interface must be a name")
        if not numbers:
            raise ProfileError(f"{here}: give at least one rate (e.g. pi_to_pc_mbps)")
        effects.append(TweakEffect(dict(when), interface, numbers, str(item.get("source", ""))))
    return tuple(effects)
