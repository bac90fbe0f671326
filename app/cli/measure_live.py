"""`sbctune measure`'s live lines on stderr: each second's throughput per direction with the
Pi's busiest core (the lab host's in the virtual Pi lab), each test's start and outcome; for
NICs measured at once, one line per second and direction with each NIC's figure and their
total, printed when every NIC has reported that second: the same second on this PC's clock
(sbctune.measure.together), so a NIC that started late is not added to another's second."""

from __future__ import annotations

import sys

from sbctune.cli.progress import interval_line, outcome_lines, say, say_one_line
from sbctune.measure.aggregate import AggregateEvent, AggregateRun, AggregateStarted, NicEvent
from sbctune.measure.iperf_output import Direction
from sbctune.measure.outcome import Interval, MeasureRun
from sbctune.measure.runner import (
    Event,
    LiveInterval,
    PiLoad,
    RunStarted,
    TestFinished,
    TestStarted,
)
from sbctune.measure.sampler import PiSample
from sbctune.measure.steady import TrialsAdded
from sbctune.measure.table import nic_words
from sbctune.measure.together import live_key
from sbctune.wording import percent

#: Two NICs' intervals are the same second when they ended this close on this PC's clock.
SAME_SECOND_S = 0.5
#: A NIC's second with no partner this long after is dropped (it passed alone).
UNMATCHED_S = 5.0


class Progress:
    """Live lines: each second's throughput per direction, with the Pi's busiest core."""

    def __init__(self) -> None:
        self.last_load: PiSample | None = None
        self.run: MeasureRun | None = None

    def __call__(self, event: Event) -> None:
        if isinstance(event, RunStarted):
            self.run = event.run
            say(f"Measuring over {nic_words(event.run)}")
            if event.path_note:
                say(event.path_note)
            return
        if isinstance(event, PiLoad):
            self.last_load = event.sample
            return
        _print_event(event, self.last_load)


def busiest(sample: PiSample | None) -> str:
    return busiest_forms(sample)[0]


def busiest_forms(sample: PiSample | None) -> list[str]:
    """The Pi's busiest core after a live figure, fullest words first, then shorter ones for a
    narrow terminal (say_one_line picks), then nothing: the figure matters most."""
    if sample is None or not sample.cpus:
        return [""]
    core = max(sample.cpus, key=lambda c: c.busy)
    # in the virtual Pi lab the cores are the lab host's (the lab says so: sampler_data.LabCpu)
    whose = "lab host" if sample.lab_cpu is not None else "Pi"
    # whole percents: a live line has no room for decimals
    busy, irq = percent(core.busy, 100, places=0), percent(core.irq_softirq, 100, places=0)
    return [
        f"   {whose} busiest: cpu{core.cpu} {busy:>5} (irq+softirq {irq})",
        f"  {whose} cpu{core.cpu} {busy} (irq {irq})",
        f"  {whose} cpu{core.cpu} {busy}",
        "",
    ]


def _live(
    direction: Direction, interval: Interval, figures: list[str], load: PiSample | None
) -> None:
    """One line per second: each figure's form (fullest first) with each busiest-core form."""
    say_one_line([interval_line(direction, interval, shown, extra)
                  for shown in figures for extra in busiest_forms(load)])  # fmt: skip


def _print_event(event: Event, load: PiSample | None) -> None:
    if isinstance(event, TestStarted):
        print(f"--> {event.spec.label}", file=sys.stderr, flush=True)
    elif isinstance(event, TrialsAdded):
        for extra in event.extra:
            say(f"    {extra.why}")
    elif isinstance(event, LiveInterval):
        _live(event.direction, event.interval, [f"{event.interval.mbps:8.1f} Mbit/s"], load)
    elif isinstance(event, TestFinished):
        for line in outcome_lines(event.outcomes):
            say(line)


class TogetherProgress:
    """Live lines for NICs measured at once: one line per second and direction, each NIC's
    figure and their total, printed when every NIC has reported that second."""

    def __init__(self) -> None:
        self.run: AggregateRun | None = None
        self.last_load: PiSample | None = None
        # per test and direction, per NIC: (when it ended on this PC's clock, the interval)
        self.pending: dict[tuple[int, str], dict[str, list[tuple[float, Interval]]]] = {}

    def __call__(self, event: AggregateEvent) -> None:
        if isinstance(event, AggregateStarted):
            self.run = event.run
        elif isinstance(event, PiLoad):
            self.last_load = event.sample
        elif isinstance(event, NicEvent):
            self._nic_event(event.nic, event.event)

    def _nic_event(self, nic: str, event: Event) -> None:
        assert self.run is not None
        nics = self.run.nics
        if isinstance(event, TestStarted) and nic == nics[0]:
            print(f"--> {event.spec.label}, {len(nics)} NICs at once", file=sys.stderr, flush=True)
        elif isinstance(event, LiveInterval):
            self._live(nic, event)
        elif isinstance(event, TestFinished):
            for line in outcome_lines(event.outcomes, prefix=f"{nic} "):
                say(line)

    def _live(self, nic: str, event: LiveInterval) -> None:
        """Print the second once every NIC has an interval that ended with it (within
        SAME_SECOND_S on this PC's clock); a NIC's earlier seconds without a partner ran
        alone and are not added to anything."""
        assert self.run is not None
        nics = self.run.nics
        when = live_key(event.clock_zero, event.interval)
        when = event.interval.t if when is None else when
        waiting = self.pending.setdefault((event.test_index, event.direction), {})
        waiting.setdefault(nic, []).append((when, event.interval))
        matched: dict[str, tuple[float, Interval]] = {}
        for other in nics:
            near = [p for p in waiting.get(other, []) if abs(p[0] - when) <= SAME_SECOND_S]
            if not near:
                for items in waiting.values():  # bounded: seconds nobody matched go
                    items[:] = [p for p in items if p[0] >= when - UNMATCHED_S]
                return
            matched[other] = min(near, key=lambda p: abs(p[0] - when))
        for other, item in matched.items():
            waiting[other] = [p for p in waiting[other] if p[0] > item[0]]
        seen = {n: matched[n][1].mbps for n in nics}
        shown = max((m[1] for m in matched.values()), key=lambda i: i.t)
        each = "  ".join(f"{n} {seen[n]:6.1f}" for n in nics)
        total = sum(seen.values())
        short = " ".join(f"{n} {seen[n]:.0f}" for n in nics)  # four NICs still fit 80 columns
        figures = [f"{each}  total {total:7.1f} Mbit/s", f"{short} total {total:.0f} Mbit/s"]
        _live(event.direction, shown, figures, self.last_load)
