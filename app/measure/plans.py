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


def custom_title(preset_title: str, tests: tuple[TestSpec, ...]) -> str:
    """ "Custom, from Quick (1 trial × 2 s per direction, 4 streams, 1 s omitted)": the
    preset's first word, then the figures of the tests as they will run."""
    base = preset_title.split(" (")[0].strip() or "a preset"
    first = [t for t in tests if t.trial == 1] or list(tests)
    if not first:
        return f"Custom, from {base}"
    trials = max(t.trials for t in first)
    durations = sorted({t.duration for t in first})
    streams = sorted({t.streams for t in first})
    omits = sorted({t.omit for t in first})
    each = "per direction" if all(t.mode == "half" for t in first) else "per test"
    seconds = "/".join(str(d) for d in durations)
    parts = [f"{counted(trials, 'trial')} × {seconds} s {each}"]
    parts.append(f"{'/'.join(str(n) for n in streams)} stream{'s' if streams != [1] else ''}")
    if omits != [0]:
        parts.append(f"{'/'.join(str(o) for o in omits)} s omitted")
    return f"Custom, from {base} ({', '.join(parts)})"


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
        if not changed:
            return replace(self, tests=schedule)
        # The title says what will run, not the preset's figures (walk 16: "Quick (3 trials ×
        # 5 s per direction)" shown over a --duration 2 --trials 1 run).
        return replace(
            self, name="custom", title=custom_title(self.title, schedule), tests=schedule
        )

    def as_chosen(self) -> Plan:
        """The plan as chosen, before a run added to it (Settings' UDP tests, extra trials)."""
        return replace(
            self, tests=tuple(t for t in self.tests if t.udp_mbps is None and not t.extra)
        )

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


def plan_from_stored(name: str, stored: object) -> Plan | None:
    """A run's plan as its record stored it (`RunRecord.plan`), so that "Measure again" of a
    run made with a changed plan runs that plan again: its TCP tests as planned (UDP tests are
    added again from Settings, extra trials again when trials disagree). None when the record
    says too little (an older or damaged history)."""
    if name in presets():
        return presets()[name]
    if not isinstance(stored, dict) or not isinstance(stored.get("tests"), list):
        return None
    tests = []
    try:
        for one in stored["tests"][:200]:
            if not isinstance(one, dict) or one.get("udp_mbps") is not None or one.get("extra"):
                continue
            dirs = one.get("directions") or []
            spec = _spec(one | {"direction": dirs[0] if dirs else None})
            if not (
                0 < spec.duration <= 3600 and 0 <= spec.omit <= 600 and 0 < spec.streams <= 128
            ):
                return None  # a damaged record: never a run of hours
            tests.append(replace(spec, trial=int(one.get("trial", 1)), trials=int(one["trials"])))
    except (KeyError, TypeError, ValueError, IndexError):
        return None
    title = stored.get("title")
    if not tests or not isinstance(title, str):
        return None
    extra, within = stored.get("extra_trials", 0), stored.get("steady_within", 0.05)
    if not isinstance(extra, int) or not isinstance(within, float) or not 0 <= extra <= 10:
        return None
    return Plan(name, title[:200], tuple(tests), extra_trials=extra, steady_within=within)


def plan_title(name: str, stored: object = None) -> str:
    """A run's plan as the plan box names it: the title its record stored, else the preset's
    title, else its name (the s17 walk read History's "quick" beside the box's "Quick (...)")."""
    title = stored.get("title") if isinstance(stored, dict) else None
    if isinstance(title, str) and title.strip():
        return title[:200]
    return presets()[name].title if name in presets() else name


def plan_named(name: str) -> Plan:
    try:
        return presets()[name]
    except KeyError:
        raise UserError(
            f"There is no test plan named “{name}”.", f"Choose one of: {', '.join(presets())}."
        ) from None
