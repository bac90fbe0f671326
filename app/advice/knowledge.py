"""What to recommend for a bottleneck, read from ``resources/advice/advice.json`` (data, with
sources): tweak ids per bottleneck, driver install recipes, adapters worth suggesting."""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sbctune.errors import UserError

if TYPE_CHECKING:
    from sbctune.tuning.model import Evidence


@dataclass(frozen=True)
class TweakSet:
    tweaks: tuple[str, ...]
    why: str
    sources: tuple[str, ...]
    # Where the sources' published tests fit, any of these (boards, buses, drivers; none:
    # anywhere): a Pi 4 test is no source for a Pi 5's advice (tuning/why_words.py fits).
    sources_when: tuple[Evidence, ...] = ()
    # A sentence per tweak, said only when that tweak is recommended: the lost-segments text
    # named rings to a driver that cannot change them (the s17 walk).
    why_by_tweak: dict[str, str] = field(default_factory=dict)

    def why_for(self, tweaks: list[str]) -> str:
        return " ".join(
            [self.why, *(self.why_by_tweak[t] for t in tweaks if t in self.why_by_tweak)]
        )


def _when(sources: tuple[str, ...], when: Any) -> Evidence:
    from sbctune.tuning.model import Evidence  # here: only advice.json's sets that say when

    if not isinstance(when, dict) or set(when) - {"boards", "buses", "drivers"}:
        raise ValueError(f"sources_when {when!r}")
    return Evidence(
        "", sources, _strs(when.get("boards")), _strs(when.get("buses")),
        _strs(when.get("drivers")),
    )  # fmt: skip


def _tweak_set(v: dict[str, Any]) -> TweakSet:
    sources = _strs(v.get("sources"))
    fit = tuple(_when(sources, w) for w in v.get("sources_when") or ())
    parts = v.get("why_by_tweak") or {}
    if not isinstance(parts, dict) or set(parts) - set(_strs(v["tweaks"])):
        raise ValueError(f"why_by_tweak {parts!r}: only the set's own tweaks")
    why = {str(k): str(t) for k, t in parts.items()}
    return TweakSet(_strs(v["tweaks"]), str(v["why"]), sources, fit, why)


@dataclass(frozen=True)
class TweakGain:
    chip: str
    low: float
    high: float
    text: str
    source: str
    # The boards the source measured on ("unknown": a board not read; none: any): a Pi 4's
    # clock figures are no gain to show on a Pi 5.
    boards: tuple[str, ...] = ()


@dataclass(frozen=True)
class DriverRecipe:
    name: str
    chips: tuple[str, ...]
    title: str
    sources: tuple[str, ...]
    steps_by_headers: tuple[str, ...] = ()
    kernel_update_steps: tuple[str, ...] = ()
    build_steps: tuple[str, ...] = ()
    in_pi_os_since: str | None = None
    note: str = ""


@dataclass(frozen=True)
class AdapterHint:
    chip: str
    bus: str
    link_mbps: int
    why: str
    sources: tuple[str, ...]


@dataclass(frozen=True)
class Knowledge:
    tweaks_for: dict[str, TweakSet] = field(default_factory=dict)
    tweak_gains: dict[str, TweakGain] = field(default_factory=dict)
    drivers: dict[str, DriverRecipe] = field(default_factory=dict)
    adapters: tuple[AdapterHint, ...] = ()

    def driver_for_chip(self, chip_id: str) -> DriverRecipe | None:
        return next((d for d in self.drivers.values() if chip_id in d.chips), None)


def _strs(value: Any) -> tuple[str, ...]:
    return tuple(str(v) for v in value or ())


def parse_knowledge(data: dict[str, Any]) -> Knowledge:
    try:
        return Knowledge(
            tweaks_for={key: _tweak_set(v) for key, v in data["tweaks_for"].items()},
            tweak_gains={
                key: TweakGain(
                    str(v["chip"]),
                    v["low"],
                    v["high"],
                    v["text"],
                    v["source"],
                    _strs(v.get("boards")),
                )
                for key, v in data.get("tweak_gains", {}).items()
            },
            drivers={
                key: DriverRecipe(
                    name=key,
                    chips=_strs(v["chips"]),
                    title=str(v["title"]),
                    sources=_strs(v.get("sources")),
                    steps_by_headers=_strs(v.get("steps_by_headers")),
                    kernel_update_steps=_strs(v.get("kernel_update_steps")),
                    build_steps=_strs(v.get("build_steps")),
                    in_pi_os_since=v.get("in_pi_os_since"),
                    note=str(v.get("note", "")),
                )
                for key, v in data["drivers"].items()
            },
            adapters=tuple(
                AdapterHint(
                    str(a["chip"]),
                    str(a["bus"]),
                    int(a["link_mbps"]),
                    str(a["why"]),
                    _strs(a.get("sources")),
                )
                for a in data["adapters"]
            ),
        )
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise UserError(
            f"resources/advice/advice.json is malformed ({exc!r}).",
            "Reinstall sbctune, or fix the file if you edited it.",
        ) from exc


@functools.cache
def load_knowledge() -> Knowledge:
    from sbctune.resources import resource_root

    text = resource_root().joinpath("advice").joinpath("advice.json").read_text(encoding="utf-8")
    return parse_knowledge(json.loads(text))
