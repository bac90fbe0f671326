"""Which link rates apply now: the profile's base rates, tweak effects, half or full duplex.

The knobs file system writes the lab's knob state (``knobs_state.json``) on every change; the
shaper (``controller``) reads it and asks this module for each interface's rates. Pure logic,
so it is tested without a lab.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from sbctune.lab.profile import InterfaceSpec
from sbctune.lab.profile_effects import TweakEffect

KNOBS_STATE = "knobs_state.json"
# A direction is "busy" above this share of its half-duplex rate. A one-way TCP test sends
# ACKs back at ~2% of its data rate (one 66-byte ACK per two 1514-byte frames), far below it;
# the lowest full-duplex figure of a seed (163 of 736 Mbit/s, seed 000) is far above it.
BUSY_SHARE = 0.10
BUSY_FLOOR_MBPS = 1.0


@dataclass(frozen=True)
class Rates:
    """Goodput targets in Mbit/s: half duplex per direction, and while both are busy."""

    pi_to_pc: float
    pc_to_pi: float
    full_duplex_pi_to_pc: float
    full_duplex_pc_to_pi: float

    def pick(self, full_duplex: bool) -> tuple[float, float]:
        """(Pi->PC, PC->Pi) for the current duplex state."""
        if full_duplex:
            return self.full_duplex_pi_to_pc, self.full_duplex_pc_to_pi
        return self.pi_to_pc, self.pc_to_pi

    def to_json(self) -> dict[str, float]:
        return {
            "pi_to_pc_mbps": self.pi_to_pc,
            "pc_to_pi_mbps": self.pc_to_pi,
            "full_duplex_pi_to_pc_mbps": self.full_duplex_pi_to_pc,
            "full_duplex_pc_to_pi_mbps": self.full_duplex_pc_to_pi,
        }


def base_rates(spec: InterfaceSpec) -> Rates:
    """The profile's rates; without full-duplex figures both directions keep their own."""
    up = spec.link.goodput_mbps("pi_to_pc")
    down = spec.link.goodput_mbps("pc_to_pi")
    assert up is not None and down is not None  # the profile parser checked
    return Rates(
        up,
        down,
        spec.link.full_duplex_pi_to_pc_mbps or up,
        spec.link.full_duplex_pc_to_pi_mbps or down,
    )


def _masks(knobs: Mapping[str, Any], kind: str, iface: str) -> list[int]:
    table = knobs.get(kind, {})
    values = table.get(iface, []) if isinstance(table, dict) else []
    return [int(v) for v in values if isinstance(v, int)]


def condition_holds(key: str, value: Any, knobs: Mapping[str, Any], iface: str) -> bool:
    """One ``when`` condition against the knob state (unknown state -> False)."""
    if key == "governor":
        return bool(knobs.get("governor") == value)
    if key in ("rps", "xps"):
        masks = _masks(knobs, key, iface)
        if not masks:
            return False
        return all(masks) if value else not any(masks)
    if key == "cpu_max_khz":
        return int(knobs.get("scaling_max_khz", 0)) >= int(value)
    if key == "cpu_khz":
        return int(knobs.get("load_khz", 0)) >= int(value)
    return False  # `driver` and anything the lab cannot change


def effect_applies(effect: TweakEffect, knobs: Mapping[str, Any], iface: str) -> bool:
    if effect.interface is not None and effect.interface != iface:
        return False
    return all(condition_holds(k, v, knobs, iface) for k, v in effect.when.items())


def current_rates(
    spec: InterfaceSpec, effects: Iterable[TweakEffect], knobs: Mapping[str, Any]
) -> tuple[Rates, list[str]]:
    """The interface's rates under the knob state, and the sources of the effects applied.

    Effects apply in file order; a later matching effect overrides the rates it names.
    """
    rates = base_rates(spec).to_json()
    applied = []
    for effect in effects:
        if effect_applies(effect, knobs, spec.name):
            rates.update(effect.effects)
            applied.append(effect.source or str(effect.when))
    return (
        Rates(
            rates["pi_to_pc_mbps"],
            rates["pc_to_pi_mbps"],
            rates["full_duplex_pi_to_pc_mbps"],
            rates["full_duplex_pc_to_pi_mbps"],
        ),
        applied,
    )


def is_busy(mbps: float, half_duplex_mbps: float) -> bool:
    return mbps > max(BUSY_FLOOR_MBPS, BUSY_SHARE * half_duplex_mbps)


@dataclass
class DuplexDetector:
    """Full duplex as soon as both directions are busy; back after ``hold`` quiet samples."""

    hold: int = 3
    full: bool = False
    quiet: int = 0

    def update(self, up_busy: bool, down_busy: bool) -> bool:
        if up_busy and down_busy:
            self.full, self.quiet = True, 0
        elif self.full:
            self.quiet += 1
            if self.quiet >= self.hold:
                self.full, self.quiet = False, 0
        return self.full
