"""Latency under load: statistics and verdicts on recorded round trips, the probe output's
parser against garbage, the program text sbctune sends, and the comparison's latency rows."""

from __future__ import annotations

import json
import math
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sbctune.compare import compare
from sbctune.export.tables import comparison_table
from sbctune.history.records import RunRecord, TestRecord
from sbctune.measure.latency import report
from sbctune.measure.latency.parse import Probe, parse, parse_line
from sbctune.measure.latency.program import ProbeConfig, new_token, program
from sbctune.measure.latency.stats import LatencyResult, RttStats, percentile, results

RECORDED = Path(__file__).parents[1] / "captures" / "latency" / "lab_pi4_ax88179_quick.json"


def _recorded() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(RECORDED.read_text(encoding="utf-8"))["latency"]
    return data


def _group(idle: list[float], loaded: list[float], lost: int = 0) -> dict[str, Any]:
    return {"idle_ms": idle, "loaded_ms": loaded, "idle_lost": 0, "loaded_lost": lost}


def test_percentiles_interpolate_like_numpy() -> None:
    values = [float(v) for v in range(1, 101)]  # 1..100
    assert percentile(values, 50) == pytest.approx(50.5)
    assert percentile(values, 95) == pytest.approx(95.05)
    assert percentile(values, 99) == pytest.approx(99.01)
    assert percentile([7.0], 99) == 7.0
    assert percentile([], 50) is None


def test_the_recorded_lab_run_shows_the_queue_under_load() -> None:
    found = {r.key: r for r in results(_recorded())}
    assert set(found) == {"half/pi_to_pc", "half/pc_to_pi"}
    for result in found.values():
        assert result.idle.count >= 60 and result.loaded.count >= 140
        assert result.idle.p50 is not None and result.loaded.p50 is not None
        # Idle: well under a millisecond on the veth; loaded: the 1000-frame FIFO's queue.
        assert result.idle.p50 < 1.0 < 4.0 < result.loaded.p50
        assert result.added_ms is not None and 4.0 < result.added_ms < 20.0
        assert result.grade == "A"
        assert result.verdict().startswith("the link queues ")
        assert not result.bloated


def test_a_bloated_upload_is_called_bufferbloat() -> None:
    idle = [20.0 + (i % 5) * 0.2 for i in range(20)]
    loaded = [200.0 + (i % 7) for i in range(50)]
    (result,) = results({"groups": {"half/pi_to_pc": _group(idle, loaded)}})
    assert result.added_ms == pytest.approx(182.6)
    assert result.grade == "C" and result.bloated
    assert result.verdict().startswith("the link queues 183 ms under upload from the Pi")
    assert result.verdict().endswith(", 1 probe in 20 over 206 ms: bufferbloat")
    assert "p95" not in result.verdict() and ") (" not in result.verdict()  # words, one aside


@pytest.mark.parametrize(
    ("added", "grade"),
    [(1.0, "A+"), (4.9, "A+"), (5.0, "A"), (29.0, "A"), (45.0, "B"), (150.0, "C"),
     (399.0, "D"), (600.0, "F")],
)  # fmt: skip
def test_grades_follow_dslreports_steps(added: float, grade: str) -> None:
    result = LatencyResult("full", RttStats.of([1.0] * 10), RttStats.of([1.0 + added] * 10))
    assert result.grade == grade
    assert result.bloated == (added >= 60)


def test_an_idle_link_has_no_added_latency() -> None:
    same = [0.3, 0.4, 0.35, 0.5, 0.3, 0.32, 0.41]
    (result,) = results({"groups": {"half/pc_to_pi": _group(same, list(reversed(same)))}})
    assert result.added_ms == 0.0 and result.grade == "A+"
    assert "no added latency" in result.verdict()


def test_too_few_answers_give_no_verdict_and_most_lost_is_bloat() -> None:
    (few,) = results({"groups": {"full": _group([1.0, 1.1], [5.0, 6.0])}})
    assert few.added_ms is None and few.grade is None
    assert few.verdict().startswith("not enough probes answered")
    (lost,) = results({"groups": {"full": _group([1.0] * 10, [300.0] * 3, lost=40)}})
    assert lost.bloated and lost.grade == "F" and "no answer within 2 s" in lost.verdict()


@given(st.recursive(st.none() | st.integers() | st.floats() | st.text(max_size=5),
                    lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=12), c,
                                                                          max_size=4),
                    max_leaves=20))  # fmt: skip
@settings(max_examples=200, deadline=None)
def test_a_damaged_stored_record_never_crashes(value: Any) -> None:
    for record in (value, {"groups": value}, {"groups": {"full": value}}):
        for result in results(record):  # type: ignore[arg-type]
            result.verdict()
        report.text_lines(record if isinstance(record, dict) else None)


def test_parser_reads_the_probes_lines() -> None:
    probes, warnings = parse(
        "sbctune-latency 1\nr 0 0.0 0.475\nl 1 100.3\nl 2 200.0 OSError\nend 3"
    )
    assert probes == [Probe(0, 0.0, 0.475), Probe(1, 100.3, None), Probe(2, 200.0, None)]
    assert warnings == []


@pytest.mark.parametrize(
    "line",
    ["r 1 2", "r -1 0 1", "r 1 0 nan", "r 1 0 inf", "r 1 0 99999", "x 1 2 3", "r 1e3 0 1",
     "r 1 0 1 extra", "r 9999999 0 1", "\x1b[31m r 1 0 1", "r " + "9" * 300],
)  # fmt: skip
def test_parser_skips_wrong_lines_with_a_warning(line: str) -> None:
    probe, warning = parse_line(line)
    assert probe is None and warning is not None
    assert "\x1b" not in warning.message and len(warning.message) < 200


@given(st.text(max_size=3000))
@settings(max_examples=300, deadline=None)
def test_parser_survives_garbage(text: str) -> None:
    probes, warnings = parse(text)
    assert len(warnings) <= 21
    for probe in probes:
        assert probe.seq >= 0 and math.isfinite(probe.t_ms)
        assert probe.rtt_ms is None or 0 <= probe.rtt_ms <= 10_000


def test_program_prepends_only_checked_values() -> None:
    token = new_token()
    text = program(ProbeConfig("198.18.0.1", 5201, token, seconds=10, bind="198.18.0.2"))
    first, _, rest = text.decode().partition("\n")
    assert first.startswith("CONFIG = {'host': '198.18.0.1', 'port': 5201, 'token': '")
    assert token in first and "import socket" in rest
    for bad in (
        ProbeConfig("pi; rm -rf /", 1, token, 1),
        ProbeConfig("198.18.0.1", 0, token, 1),
        ProbeConfig("198.18.0.1", 1, "'); import os #" + "a" * 17, 1),
        ProbeConfig("198.18.0.1", 1, token, 1, bind="$(reboot)"),
    ):
        with pytest.raises(ValueError):
            program(bad)


def _run(run_id: int, latency: dict[str, Any] | None, complete: bool = True) -> RunRecord:
    test = TestRecord(direction="pi_to_pc", mode="half", mean_mbps=700.0, complete=True,
                      trial_means=[699.0, 700.0, 701.0])  # fmt: skip
    return RunRecord(device_id=1, started_at=datetime(2026, 11, 23, tzinfo=timezone.utc),
                     plan_name="quick", tests=[test], id=run_id, latency=latency,
                     complete=complete)  # fmt: skip


def test_compare_has_a_latency_row_with_the_change() -> None:
    bloated = {"groups": {"half/pi_to_pc": _group([1.0] * 20, [120.0] * 50)}}
    calm = {"groups": {"half/pi_to_pc": _group([1.0] * 20, [4.0] * 50)}}
    comparison = compare([_run(1, bloated), _run(2, calm), _run(3, None)])
    (row,) = comparison.latency
    assert row.key == "half/pi_to_pc"
    assert row.cells[1] is not None and row.cells[1].delta_ms == pytest.approx(-116.0)
    assert row.cells[2] is None
    _header, rows = comparison_table(comparison)
    latency = [r for r in rows if r[1] == "Latency under load"]
    assert latency == [["Pi → PC", "Latency under load", "+119.0 ms (C)", "+3.0 ms (A+)",
                        "less queueing: −116.0 ms", "not measured", "—"]]  # fmt: skip
    assert "latency" in comparison.to_json()


def _advice_for(latency: dict[str, Any] | None) -> Any:
    from sbctune.advice import advise
    from sbctune.catalog import load_catalog
    from sbctune.inventory.model import Inventory, Nic

    inventory = Inventory(nics=[Nic(name="eth1", link_speed_mbps=1000)])
    run = _run(7, latency)
    run.nic = "eth1"
    return advise(inventory, [run], load_catalog())


def test_advice_recommends_fq_codel_when_the_pis_sending_queues() -> None:
    bloated = {"groups": {"half/pi_to_pc": _group([0.5] * 20, [180.0] * 50)}}
    advice = _advice_for(bloated)
    finding = next(f for f in advice.findings if f.id == "latency-under-load")
    assert finding.severity == "problem"
    assert finding.summary.startswith("The link queues 180 ms under upload from the Pi")
    assert "bufferbloat" in finding.summary
    assert any("run 7" in line for line in finding.evidence)
    rec = next(r for r in advice.recommendations if "fq_codel" in r.title)
    assert "tc qdisc replace dev eth1 root fq_codel" in rec.detail and "BQL" in rec.detail
    assert any("dslreports.com/faq/17930" in s for s in rec.sources)
    assert any("bufferbloat.net" in s for s in rec.sources)


def test_no_latency_advice_for_a_short_queue_or_for_download_only() -> None:
    calm = {"groups": {"half/pi_to_pc": _group([0.5] * 20, [7.0] * 50)}}
    assert not any(f.id == "latency-under-load" for f in _advice_for(calm).findings)
    assert not any(f.id == "latency-under-load" for f in _advice_for(None).findings)
    # PC → Pi queues on the PC's side or the switch: a finding, no qdisc for the Pi.
    down = {"groups": {"half/pc_to_pi": _group([0.5] * 20, [90.0] * 50)}}
    advice = _advice_for(down)
    assert any(f.id == "latency-under-load" for f in advice.findings)
    assert not any("fq_codel" in r.title for r in advice.recommendations)


def test_probes_of_a_run_that_stopped_early_are_no_finding() -> None:
    """walk19: the link went down for 4 s in Measure again; the run stopped, incomplete, and
    the PC → Pi probes sent meanwhile went unanswered. Results said "98 % of the probes got no
    answer within 2 s: ... bufferbloat", a problem the link's loss made, not a queue."""
    from sbctune.advice import advise
    from sbctune.catalog import load_catalog
    from sbctune.inventory.model import Inventory, Nic

    calm = {"groups": {"half/pc_to_pi": _group([0.5] * 20, [5.0] * 50)}}
    lost = {"groups": {"half/pc_to_pi": _group([0.5] * 20, [5.0], lost=49)}}
    before, stopped = _run(10, calm), _run(11, lost, complete=False)
    before.nic = stopped.nic = "eth0"
    inventory = Inventory(nics=[Nic(name="eth0", link_speed_mbps=1000)])
    advice = advise(inventory, [before, stopped], load_catalog())
    assert not any(f.id == "latency-under-load" for f in advice.findings)
    # The same probes in a run that completed are a finding (the rule, not the data, decides).
    completed = _run(12, lost)
    completed.nic = "eth0"
    advice = advise(inventory, [before, completed], load_catalog())
    assert any(f.id == "latency-under-load" and "no answer" in f.summary for f in advice.findings)


def test_latency_survives_the_history_and_older_runs_read_none(tmp_path: Path) -> None:
    from sbctune.history import History

    with History.open(tmp_path / "h.sqlite3") as history:
        device = history.add_device("pi.local", 22, "pi")
        assert device.id is not None
        with_latency, without = _run(0, _recorded()), _run(0, None)
        with_latency.device_id = without.device_id = device.id
        with_latency.id = without.id = None
        a, b = history.save_run(with_latency), history.save_run(without)
        assert history.run(a).latency == _recorded()
        assert history.run(b).latency is None
        assert [r.key for r in results(history.run(a).latency)] == [
            "half/pi_to_pc",
            "half/pc_to_pi",
        ]


def test_the_flows_verdict_lines_end_with_the_latency() -> None:
    from sbctune.compare.words import verdict_lines

    bloated = {"groups": {"half/pi_to_pc": _group([1.0] * 20, [120.0] * 50)}}
    calm = {"groups": {"half/pi_to_pc": _group([1.0] * 20, [4.0] * 50)}}
    lines = verdict_lines(compare([_run(1, bloated), _run(2, calm)]))
    assert lines[-1] == (
        "no added latency to speak of under upload from the Pi (Pi → PC) (+3.0 ms) "
        "(less queueing: −116.0 ms)"
    )


async def test_udp_tests_are_not_probed() -> None:
    """A UDP test's paced load is not the TCP load the verdicts speak of: no probe, no row."""
    from dataclasses import replace

    from sbctune.measure.latency.during import LatencyMonitor
    from sbctune.measure.plans import plan_named

    spec = replace(plan_named("quick").tests[0], udp_mbps=50.0)
    monitor = LatencyMonitor(None, "127.0.0.1", None, lambda e: None)  # type: ignore[arg-type]
    async with monitor.around(0, spec):  # a session would be used at once if it probed
        pass
    assert monitor.record["groups"] == {} and "notes" not in monitor.record
