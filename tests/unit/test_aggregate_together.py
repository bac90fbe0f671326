"""NICs measured at once: the Total counts only the time every NIC ran (sbctune.measure.together).

Last session's lab runs: `net.core.somaxconn` is 1 on the lab host, so when four iperf3 clients
connect at once some SYNs are retried and those NICs start ~1.0 s late; while they are missing
the others fill the shared bus, and adding each NIC's own mean read up to 6 % over the bus cap.
Here two NICs 1 s apart against a 1000 Mbit/s cap: alone each carries 940, together 500 each.
Their own means add up to 1293; what passed together is 1000.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import io
import json
import random
from pathlib import Path
from typing import Any, cast

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sbctune.advice import advise
from sbctune.catalog import load_catalog
from sbctune.cli.measure_live import TogetherProgress
from sbctune.history import History
from sbctune.history.records import RunRecord, TestRecord, TogetherRecord
from sbctune.inventory.model import Inventory, Nic
from sbctune.measure.aggregate import (
    AggregateRun,
    AggregateStarted,
    NicEvent,
    _finish,
    _run_together,
    aggregate_text,
)
from sbctune.measure.iperf_output import Record
from sbctune.measure.outcome import DirectionOutcome, Interval, MeasureRun, to_intervals
from sbctune.measure.persist import save_aggregate
from sbctune.measure.plan_test import PlanTest
from sbctune.measure.plans import TestSpec as Spec
from sbctune.measure.plans import plan_named
from sbctune.measure.run_events import Event, LiveInterval
from sbctune.measure.together import Timed, window
from sbctune.remote import Target

SPEC = Spec("half", ("pi_to_pc",), 3, 0, 1)
# When each interval line reached this PC (its monotonic clock), and its figure. eth0's lines
# come 0.02-0.10 s after each second (SSH); eth1 connected 1 s late (a retried SYN).
ETH0 = [(101.05, 940.0), (102.02, 500.0), (103.10, 500.0)]  # alone, then sharing the cap
ETH1 = [(102.04, 500.0), (103.01, 500.0), (104.20, 940.0)]  # sharing, then alone


class Replay(PlanTest):
    """The real PlanTest with its client's lines arriving at given times (no SSH, no iperf3)."""

    def __init__(
        self, lines: list[tuple[float, float]], emit: Any, spec: Spec = SPEC, index: int = 0
    ) -> None:
        self.now = 0.0
        none = cast(Any, None)
        super().__init__(
            none, spec, index, none, "builtin", None, (3, 16, 0), emit, 0, clock=lambda: self.now
        )
        self.lines = lines

    async def run(self, run: MeasureRun) -> list[DirectionOutcome]:
        direction = self.spec.directions[0]
        take, records = self._live(direction), []
        omit = self.spec.omit
        for n, (arrival, mbps) in enumerate(self.lines):
            self.now = arrival
            # iperf3 restarts its clock after the omitted seconds (to_intervals puts it back)
            end = n + 1.0 if n < omit else n + 1.0 - omit
            record = Record(None, direction, end - 1, end, int(mbps * 125_000), mbps, 0, n < omit)
            records.append(record)
            take(record)
        intervals = to_intervals(records, self.spec.omit)
        return [self._outcome(direction, intervals, complete=True, error=None)]


def _run(nic: str) -> MeasureRun:
    return MeasureRun("pi", nic, "quick", "builtin", "pc", "pi", "2024-01-01T00:00:00+00:00")


def _measured(
    lines: dict[str, list[tuple[float, float]]], events: list[Event] | None = None
) -> AggregateRun:
    nics = list(lines)
    agg = AggregateRun("g1", "pi", "quick", nics, [_run(n) for n in nics], "t0")
    seen = events if events is not None else []
    tests: list[PlanTest] = [Replay(lines[n], seen.append) for n in nics]
    assert asyncio.run(_run_together(tests, agg)) is None
    _finish(agg)
    return agg


def test_two_nics_one_second_apart_total_only_what_passed_together() -> None:
    agg = _measured({"eth0": ETH0, "eth1": ETH1})
    (figure,) = agg.figures()
    # each NIC's own mean, as before: (940 + 500 + 500) / 3; added up they read 1293
    own = pytest.approx(646.67, abs=0.01)
    assert figure.per_nic == {"eth0": own, "eth1": own}
    assert sum(v or 0 for v in figure.per_nic.values()) == pytest.approx(1293.3, abs=0.1)
    assert figure.total_mbps == pytest.approx(1000.0)  # the 1000 cap, not 1293
    lines = aggregate_text(agg).splitlines()
    assert lines[-2].split()[:3] == ["Total", "1000", "Mbit/s"]
    assert lines[-1] == (
        "Pi → PC: together for 2.0 s of 3.0 s: eth1 started 1.0 s late; the total counts "
        "only that time."
    )
    data = agg.to_json()["aggregate"][0]
    assert data["total_mbps"] == pytest.approx(1000.0)
    assert data["per_nic"]["eth1"] == pytest.approx(646.67, abs=0.01)  # unchanged meaning
    assert data["together_per_nic"] == {"eth0": 500.0, "eth1": 500.0}
    assert data["together_s"] == pytest.approx(2.0, abs=0.05) and data["longest_s"] == 3.0
    assert data["note"] == lines[-1]
    assert "clock_zero" not in agg.to_json()["runs"][0]["tests"][0]  # never exported


def test_clock_zero_is_the_earliest_arrival_less_t() -> None:
    agg = _measured({"eth0": ETH0, "eth1": ETH1})
    # the lines' delays (0.05, 0.02, 0.10 s for eth0) only make them later: the smallest is kept
    assert agg.windows[("pi_to_pc", "half")][0].late == {"eth1": pytest.approx(0.99)}
    assert agg.runs[0].tests[0].intervals[0].t == 1.0


def test_nics_that_started_together_have_no_note_and_add_their_means() -> None:
    steady = [(101.03, 500.0), (102.05, 500.0), (103.02, 500.0)]
    agg = _measured({"eth0": steady, "eth1": [(a + 0.1, m) for a, m in steady]})
    (figure,) = agg.figures()
    assert figure.total_mbps == pytest.approx(1000.0) and figure.note is None
    assert aggregate_text(agg).splitlines()[-1].split()[:2] == ["Total", "1000"]  # no note


def test_nics_that_never_ran_together_give_no_total_and_say_why() -> None:
    later = [(a + 5.0, m) for a, m in ETH1]
    agg = _measured({"eth0": ETH0, "eth1": later})
    (figure,) = agg.figures()
    assert figure.total_mbps is None
    last = aggregate_text(agg).splitlines()
    assert last[-2].split()[:2] == ["Total", "—"]
    assert last[-1] == (
        "Pi → PC: no total: eth0 ended before eth1 started, so the NICs never ran together."
    )


def test_a_nic_without_timed_intervals_gives_no_total() -> None:
    agg = _measured({"eth0": ETH0, "eth1": []})
    (figure,) = agg.figures()
    assert figure.total_mbps is None
    assert figure.note == "Pi → PC: no total: eth1 reported no timed intervals."


def test_trials_fold_weighted_by_their_time_together() -> None:
    nics = ["eth0", "eth1"]
    agg = AggregateRun("g", "pi", "quick", nics, [_run(n) for n in nics], "t0")
    for trial, shift in enumerate((0.0, 10.0)):
        spec = Spec("half", ("pi_to_pc",), 3, 0, 1, trial=trial + 1, trials=2)
        two = [ETH1, [(a + 0.05, m) for a, m in ETH0]] if trial else [ETH0, ETH1]
        tests: list[PlanTest] = [
            Replay([(a + shift, m) for a, m in lines], lambda e: None, spec, trial) for lines in two
        ]
        asyncio.run(_run_together(tests, agg))
    _finish(agg)
    (figure,) = agg.figures()
    assert figure.total_mbps == pytest.approx(1000.0)
    assert figure.together is not None and figure.together.seconds == pytest.approx(4.0, abs=0.1)
    assert figure.together.late.keys() == {"eth0", "eth1"}  # each was late once


def test_the_live_total_adds_only_seconds_that_passed_together(
    capsys: pytest.CaptureFixture[str],
) -> None:
    events: list[Event] = []
    agg = _measured({"eth0": ETH0, "eth1": ETH1}, events)
    arrivals = sorted(
        (line[0], nic, n)
        for nic, lines in (("eth0", ETH0), ("eth1", ETH1))
        for n, line in enumerate(lines)
    )
    by_nic = {
        nic: [e for e in events if isinstance(e, LiveInterval)][k * 3 : k * 3 + 3]
        for k, nic in enumerate(("eth0", "eth1"))
    }
    progress = TogetherProgress()
    progress(AggregateStarted(agg))
    for _, nic, n in arrivals:  # as they reached this PC
        progress(NicEvent(nic, by_nic[nic][n]))
    totals = [line for line in capsys.readouterr().err.splitlines() if "total" in line]
    assert len(totals) == 2, totals  # eth0's first second and eth1's last ran alone
    assert all(line.split("total")[1].split()[0] == "1000.0" for line in totals), totals
    assert not any("1440.0" in line for line in totals)  # 940 alone + 500 a second later


# A real trace (this lab, cm4-i340-igb, iperf 3.12, `-t 3 -O 1 -P 4`, Pi → PC, 2026-11-30):
# when each NIC's interval lines reached this PC (time.monotonic) and their Mbit/s. The first
# is omitted; the last two of each NIC came together, 1.0 s before the last one's t = 4.
TRACE = {
    "eth3": [(2279.513, 893.0), (2280.517, 766.0), (2281.527, 732.0), (2281.527, 754.0)],
    "eth1": [(2279.544, 891.0), (2280.534, 772.0), (2281.536, 730.0), (2281.539, 762.0)],
    "eth2": [(2279.554, 894.0), (2280.546, 783.0), (2281.545, 729.0), (2281.545, 764.0)],
    "eth0": [(2279.581, 858.0), (2280.574, 785.0), (2281.586, 729.0), (2281.587, 750.0)],
}


def _live_totals(lines: dict[str, list[tuple[float, float]]], omit: int = 0) -> list[str]:
    """The live lines TogetherProgress prints, fed in the order the intervals reached this PC."""
    nics = list(lines)
    spec = Spec("half", ("pi_to_pc",), len(next(iter(lines.values()))) - omit, omit, 4)
    agg = AggregateRun("g", "pi", "quick", nics, [_run(n) for n in nics], "t0")
    events: dict[str, list[LiveInterval]] = {n: [] for n in nics}
    tests: list[PlanTest] = [
        Replay(lines[n], lambda e, n=n: events[n].append(e), spec) for n in nics
    ]
    asyncio.run(_run_together(tests, agg))
    progress = TogetherProgress()
    progress(AggregateStarted(agg))
    order = sorted((a, nic, k) for nic in nics for k, (a, _) in enumerate(lines[nic]))
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        for _, nic, k in order:
            progress(NicEvent(nic, events[nic][k]))
    return [line for line in err.getvalue().splitlines() if "total" in line]


def test_a_final_line_that_comes_with_the_one_before_does_not_shift_the_clock() -> None:
    printed = _live_totals(TRACE, omit=1)
    # every second of the four shows, with all four NICs' figures of that second
    totals = [line.split("total")[1].split()[0] for line in printed]
    assert totals == ["3536.0", "3106.0", "2920.0", "3030.0"], printed
    assert [line.split()[0] for line in printed] == ["1.0", "2.0", "3.0", "4.0"]


def test_an_old_aggregate_without_timings_adds_each_nics_mean() -> None:
    runs = []
    for nic, mbps in (("eth0", 765.0), ("eth1", 766.0)):
        run = _run(nic)
        run.tests.append(DirectionOutcome("pi_to_pc", "half", mean_mbps=mbps, complete=True))
        runs.append(run)
    agg = AggregateRun("g", "pi", "quick", ["eth0", "eth1"], runs, "t0", complete=True)
    (figure,) = agg.figures()
    assert figure.total_mbps == 1531.0 and figure.note is None
    assert "together_s" not in figure.to_json()


# --------------------------------------------------------------------------- properties

_intervals = st.lists(
    st.tuples(st.floats(0.2, 1.5), st.floats(0, 3000), st.booleans()), min_size=0, max_size=8
)


def _timed(offset: float, items: list[tuple[float, float, bool]]) -> Timed:
    t, out = 0.0, []
    for length, mbps, omitted in items:
        t += length
        out.append(Interval(round(t, 3), mbps, None, omitted))
    return Timed(100.0 + offset, out)


@given(
    st.dictionaries(
        st.sampled_from(["eth0", "eth1", "eth2", "eth3"]),
        st.tuples(st.floats(0, 4), _intervals),
        min_size=2,
    ),
    st.randoms(use_true_random=False),
)
def test_window_never_crashes_never_exceeds_the_peaks_and_ignores_order(
    nics: dict[str, tuple[float, list[tuple[float, float, bool]]]], rnd: random.Random
) -> None:
    trial = {nic: _timed(offset, items) for nic, (offset, items) in nics.items()}
    result = window(trial)
    total = result.total_mbps
    if total is not None:
        peaks = sum(
            max((i.mbps for i in t.intervals if not i.omitted), default=0.0) for t in trial.values()
        )
        assert total <= peaks * (1 + 1e-9) + 1e-6
        assert 0 <= result.seconds <= result.longest_s + 1e-9
    names = list(trial)
    rnd.shuffle(names)
    shuffled = {
        n: Timed(trial[n].clock_zero, rnd.sample(list(trial[n].intervals), len(trial[n].intervals)))
        for n in names
    }
    again = window(shuffled)
    assert (again.total_mbps is None) == (total is None)
    if total is not None:
        assert again.total_mbps == pytest.approx(total)
    assert again.per_nic == pytest.approx(result.per_nic)
    assert again.why == result.why or (again.why and result.why)


# --------------------------------------------------------------------------- history, advice

NICS = ["eth0", "eth1", "eth2", "eth3"]
T0 = dt.datetime(2024, 1, 1, tzinfo=dt.timezone.utc)


def _cm4() -> Inventory:
    inventory = Inventory()
    inventory.board.catalog_id = "cm4"
    inventory.nics.append(Nic(name="eth0", bus="platform", link_speed_mbps=1000))
    inventory.nics += [
        Nic(name=n, bus="pci", driver="igb", catalog_id="intel-82580", link_speed_mbps=1000)
        for n in NICS[1:]
    ]
    return inventory


def _record(nic: str, mbps: float, together: TogetherRecord | None, **kw: Any) -> RunRecord:
    test = TestRecord(direction="pc_to_pi", mode="half", mean_mbps=mbps, together=together)
    return RunRecord(device_id=1, started_at=T0, plan_name="quick", nic=nic, complete=True,
                     tests=[test], **kw)  # fmt: skip


def _seed_004(own: float, together: TogetherRecord | None) -> list[RunRecord]:
    alone = [_record(n, 940.0, None, id=i + 1) for i, n in enumerate(NICS)]
    return alone + [
        _record(n, own, together, id=10 + i, aggregate_id="g") for i, n in enumerate(NICS)
    ]


def test_advise_totals_what_passed_together() -> None:
    # Two ports started 1 s late: own means 810 each (3240, over the cap); together 765 each.
    note = "PC → Pi: together for 2.0 s of 3.0 s: ..."
    runs = _seed_004(810.0, TogetherRecord(765.0, 2.0, 3.0, note))
    advice = advise(_cm4(), runs, load_catalog())
    finding = next(f for f in advice.findings if f.id == "aggregate-bus-bound")
    assert "carry 3060 Mbit/s PC → Pi at once" in finding.summary
    assert any(
        "eth0 765 + eth1 765 + eth2 765 + eth3 765 = 3060 Mbit/s over the 2.0 s of 3.0 s "
        "all NICs ran" in line
        for line in finding.evidence
    ), finding.evidence


def test_advise_gives_no_total_when_the_nics_never_ran_together() -> None:
    runs = _seed_004(765.0, TogetherRecord(None, 0.0, 3.0, "no total"))
    advice = advise(_cm4(), runs, load_catalog())
    assert "aggregate-bus-bound" not in [f.id for f in advice.findings]


def test_saved_runs_keep_the_together_figures_and_old_records_still_load(tmp_path: Path) -> None:
    agg = _measured({"eth0": ETH0, "eth1": ETH1})
    plan = plan_named("quick")
    with History.open(tmp_path / "h.sqlite3") as history:
        ids = save_aggregate(history, Target("pi"), "pi", agg, plan)
        stored = history.runs_in_aggregate(agg.id)
        old = RunRecord(device_id=stored[0].device_id, started_at=T0, plan_name="quick",
                        nic="eth0", tests=[TestRecord("pi_to_pc", "half", mean_mbps=700.0)],
                        aggregate_id="old")  # fmt: skip
        history.save_run(old)
        old_loaded = history.runs_in_aggregate("old")
    assert [r.id for r in stored] == ids
    kept = [r.tests[0].together for r in stored]
    assert all(k is not None for k in kept)
    assert [k.mbps for k in kept if k] == [500.0, 500.0]
    assert kept[0] and kept[0].note and "eth1 started 1.0 s late" in kept[0].note
    assert old_loaded[0].tests[0].together is None  # a run stored before: its own mean counts


def test_exports_give_the_total_over_the_time_all_ran_with_the_note(tmp_path: Path) -> None:
    from sbctune.export import export, gather

    agg = _measured({"eth0": ETH0, "eth1": ETH1})
    with History.open(tmp_path / "h.sqlite3") as history:
        ids = save_aggregate(history, Target("pi"), "pi", agg, plan_named("quick"))
        data = gather(history, ids)
    markdown = export("md", data, tmp_path / "r.md").read_text(encoding="utf-8")
    page = export("html", data, tmp_path / "r.html").read_text(encoding="utf-8")
    document = json.loads(export("json", data, tmp_path / "r.json").read_text(encoding="utf-8"))
    total = (
        "together, Pi → PC (one direction at a time): eth0 500 + eth1 500 = 1000 Mbit/s over "
        "the 2.0 s of 3.0 s all NICs ran"
    )
    note = "Pi → PC: together for 2.0 s of 3.0 s: eth1 started 1.0 s late; the total counts"
    for text in (markdown, page):
        assert "NICs measured together (the total counts only the time every NIC ran)" in text
        assert total in text and note in text
        assert "1293" not in text  # not the sum of each NIC's own mean
    kept = document["runs"][0]["tests"][0]["together"]
    assert kept["mbps"] == 500.0 and kept["seconds"] == pytest.approx(2.0, abs=0.05)
