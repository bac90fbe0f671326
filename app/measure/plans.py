"""Test plans: which directions, how long, how many streams; presets live in resources/."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from functools import cache
from typing import Any, Literal

from sbctune.errors import UserError
from sbctune.measure.iperf_output import Direction
from sbctune.resources import resource_root

Mode = Literal["half", "full", "full_throttled"]
DIRECTIONS: tuple[Direction, Direction] = ("pi_to_pc", "pc_to_pi")
DIRECTION_LABEL: dict[Direction, str] = {"pi_to_pc": "Pi → PC", "pc_to_pi": "PC → Pi"}
MODE_LABEL: dict[Mode, str] = {
    "half": "Half-duplex",
    "full": "Full-duplex",
    "full_throttled": "Full (PC throttled)",
}


@dataclass(frozen=True)
class TestSpec:
    mode: Mode
    directions: tuple[Direction, ...]  # one for half duplex, both for full
    duration: int
    omit: int
    streams: int
    pc_cap_mbps: float | None = None  # total cap on the PC's sending

    @property
    def label(self) -> str:
        if self.mode == "half":
            what = f"{DIRECTION_LABEL[self.directions[0]]}, half duplex"
        else:
            what = MODE_LABEL[self.mode]
        return f"{what}, {self.streams} streams, {self.duration} s"


@dataclass(frozen=True)
class Plan:
    name: str
    title: str
    tests: tuple[TestSpec, ...]

    @property
    def seconds(self) -> int:
        return sum(t.duration + t.omit for t in self.tests)

    def with_overrides(
        self, *, duration: int | None = None, streams: int | None = None, omit: int | None = None
    ) -> Plan:
        tests = tuple(
            replace(
                t,
                duration=duration or t.duration,
                streams=streams or t.streams,
                omit=t.omit if omit is None else omit,
            )
            for t in self.tests
        )
        name = self.name if (duration, streams, omit) == (None, None, None) else "custom"
        return Plan(name, self.title, tests)


def _spec(data: dict[str, Any]) -> TestSpec:
    mode = data["mode"]
    if mode not in ("half", "full", "full_throttled"):
        raise ValueError(f"unknown mode {mode!r}")
    directions: tuple[Direction, ...] = (data["direction"],) if mode == "half" else DIRECTIONS
    if any(d not in DIRECTIONS for d in directions):
        raise ValueError(f"unknown direction in {data!r}")
    return TestSpec(
        mode,
        directions,
        int(data["duration"]),
        int(data.get("omit", 0)),
        int(data.get("streams", 1)),
        data.get("pc_cap_mbps"),
    )


@cache
def presets() -> dict[str, Plan]:
    text = (resource_root() / "measure" / "plans.json").read_text(encoding="utf-8")
    data = json.loads(text)
    return {
        name: Plan(name, plan["title"], tuple(_spec(t) for t in plan["tests"]))
        for name, plan in data["plans"].items()
    }


def plan_named(name: str) -> Plan:
    try:
        return presets()[name]
    except KeyError:
        raise UserError(
            f"There is no test plan named '{name}'.", f"Choose one of: {', '.join(presets())}."
        ) from None
