"""Test plans: which directions, how long, how many streams; presets live in resources/.

A plan measures each test as several trials, interleaved (trial 1 of every test, then trial 2
of every test, ...) so that slow drift on the link or the PC touches every direction alike.
`Plan.tests` is that schedule, in the order it runs; each trial's mean is one sample for the
interval `sbctune compare` gives (sbctune.compare.interval)."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from functools import cache
from typing import Any, Literal

from sbctune.errors import UserError
from sbctune.measure.iperf_output import Direction
from sbctune.resources import resource_root
from sbctune.wording import MODE_WORDS as _WINDOW_WORDS
from sbctune.wording import counted

Mode = Literal["half", "full", "full_throttled"]
DIRECTIONS: tuple[Direction, Direction] = ("pi_to_pc", "pc_to_pi")
DIRECTION_LABEL: dict[Direction, str] = {"pi_to_pc": "Pi → PC", "pc_to_pi": "PC → Pi"}
# A table's column and a line's head: the window's words (sbctune.wording.MODE_WORDS, one
# source for the app, the reports and the command line; the s12 walk found the CLI's tables
# still saying "Half-duplex" where the app says "One way").
MODE_LABEL: dict[Mode, str] = {
    "half": _WINDOW_WORDS["half"],
    "full": _WINDOW_WORDS["full"],
    "full_throttled": _WINDOW_WORDS["full_throttled"],
}
# Inside a sentence ("Pi → PC one way: faster by …"): plain words a first-time user reads
# (issue 22).
MODE_WORDS: dict[Mode, str] = {
    "half": "one way",
    "full": "both ways at once",
    "full_throttled": "both ways, PC throttled",
}


@dataclass(frozen=True)
class TestSpec:
    mode: Mode
    directions: tuple[Direction, ...]  # one for half duplex, both for full
    duration: int
    omit: int
    streams: int
    pc_cap_mbps: float | None = None  # total cap on the PC's sending
    trial: int = 1  # which trial of this test (1-based)
    trials: int = 1  # how many trials of this test the plan runs
    udp_mbps: float | None = None  # a UDP test paced at this rate (iperf3 -u -b); None: TCP
    extra: bool = False  # a trial added because the planned ones disagreed (sbctune.measure.steady)

    @property
    def protocol(self) -> str:
        return "tcp" if self.udp_mbps is None else "udp"

    @property
    def label(self) -> str:
        if self.udp_mbps is not None:
            what = f"{DIRECTION_LABEL[self.directions[0]]}, UDP at {self.udp_mbps:g} Mbit/s"
        elif self.mode == "half":
            # Plain words where the test runs (issue 22): "half duplex" is in the tables' tooltips.
            what = f"{DIRECTION_LABEL[self.directions[0]]}, one way"
        else:
            what = "Both ways at once" + (", PC throttled" if self.mode == "full_throttled" else "")
        if self.extra:
            trial = f", extra trial {self.trial} (the first {self.trial - 1} disagreed)"
        else:
            trial = f", trial {self.trial} of {self.trials}" if self.trials > 1 else ""
        return f"{what}, {counted(self.streams, 'stream')}, {self.duration} s{trial}"


def interleave(specs: tuple[TestSpec, ...] | list[TestSpec], trials: int) -> tuple[TestSpec, ...]:
    """Each spec `trials` times, round-robin: trial 1 of every spec, then trial 2, ..."""
    trials = max(1, trials)
    return tuple(
        replace(spec, trial=k, trials=trials) for k in range(1, trials + 1) for spec in specs
    )


@dataclass(frozen=True)
class Plan:
    name: str
    title: str
    tests: tuple[TestSpec, ...]
    # When a test's trials disagree (their mean's 95 % interval wider than ±steady_within of
    # it), up to this many more trials of it run at the end (sbctune.measure.steady).
    extra_trials: int = 0
    steady_within: float = 0.05

    @property
    def seconds(self) -> int:
        return sum(t.duration + t.omit for t in self.tests)

    @property
    def trials(self) -> int:
        return max((t.trials for t in self.tests), default=1)

    def with_overrides(
        self,
        *,
        duration: int | None = None,
        streams: int | None = None,
        omit: int | None = None,
        trials: int | None = None,
    ) -> Plan:
        base = [t for t in self.tests if t.trial == 1]
        tests = [
            replace(
                t,
                duration=duration or t.duration,
                streams=streams or t.streams,
                omit=t.omit if omit is None else omit,
            )
            for t in base
        ]
        schedule = interleave(tests, trials or self.trials)
        changed = (duration, streams, omit, trials) != (None, None, None, None)
        return replace(self, name="custom" if changed else self.name, tests=schedule)

    def with_udp(self, mbps: float | None) -> Plan:
        """The plan and, after its TCP tests, one UDP test per direction paced at ``mbps``
        (one stream, the plan's first test's duration and warm-up). Loss and jitter only mean
        something when the sender is paced below the link's rate; above it they measure the
        overload (esnet/iperf #386)."""
        if not mbps:
            return self
        if not 0 < mbps <= 100_000:
            raise UserError(
                f"A UDP rate of {mbps:g} Mbit/s is out of range.",
                "Give the rate in Mbit/s, e.g. --udp 50 (above 0, at most 100000).",
            )
        first = self.tests[0] if self.tests else TestSpec("half", DIRECTIONS[:1], 10, 2, 1)
        udp = tuple(
            TestSpec("half", (d,), first.duration, first.omit, 1, udp_mbps=mbps) for d in DIRECTIONS
        )
        return replace(self, tests=self.tests + udp)


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
        name: Plan(
            name,
            plan["title"],
            interleave([_spec(t) for t in plan["tests"]], int(plan.get("trials", 1))),
            extra_trials=int(plan.get("extra_trials", 0)),
            steady_within=float(plan.get("steady_within", 0.05)),
        )
        for name, plan in data["plans"].items()
    }


def plan_named(name: str) -> Plan:
    try:
        return presets()[name]
    except KeyError:
        raise UserError(
            f"There is no test plan named '{name}'.", f"Choose one of: {', '.join(presets())}."
        ) from None
