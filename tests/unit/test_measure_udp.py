"""UDP tests in a plan, their figures on the outcome, the table line and the history."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from sbctune.errors import UserError
from sbctune.history import History
from sbctune.history.records import RunRecord, UdpRecord
from sbctune.measure.iperf_output import parse_text_line
from sbctune.measure.outcome import MeasureRun, split_udp, summarize
from sbctune.measure.plans import plan_named
from sbctune.measure.table import text

CAPTURES = Path(__file__).resolve().parents[1] / "captures" / "iperf3_udp"


def test_with_udp_adds_one_paced_test_per_direction() -> None:
    quick = plan_named("quick")
    plan = quick.with_udp(40)
    added = plan.tests[len(quick.tests) :]
    assert [t.directions for t in added] == [("pi_to_pc",), ("pc_to_pi",)]
    assert all(t.udp_mbps == 40 and t.protocol == "udp" and t.streams == 1 for t in added)
    assert "UDP at 40 Mbit/s" in added[0].label
    assert quick.with_udp(None) is quick
    with pytest.raises(UserError):
        quick.with_udp(-1)


def _receiver_from_capture(name: str, reverse: bool) -> MeasureRun:
    lines = (CAPTURES / name).read_text(encoding="utf-8").splitlines()
    records = [parse_text_line(x, reverse=reverse, udp=True) for x in lines]
    summaries = [r for r in records if r is not None and r.summary]
    direction = "pc_to_pi" if reverse else "pi_to_pc"
    outcome = summarize(direction, "half", [], summaries, complete=True)
    outcome.udp_target_mbps = 50
    run = MeasureRun("pi", "eth0", "quick", "builtin", "198.18.0.1", None, "now")
    run.udp, run.tests = split_udp([outcome])
    return run


def test_outcome_and_table_carry_the_receivers_figures() -> None:
    run = _receiver_from_capture("fwd_3.12.txt", reverse=False)
    assert run.tests == [] and len(run.udp) == 1
    udp = run.udp[0]
    assert (udp.protocol, udp.jitter_ms, udp.lost, udp.packets) == ("udp", 0.012, 523, 13389)
    assert udp.out_of_order is None  # the PC received: iperf3's results do not carry it
    line = text(run).splitlines()[-1]
    assert line == (
        "UDP Pi → PC at 50 Mbit/s: 48.0 Mbit/s received, jitter 0.012 ms, "
        "loss 3.91 % (523 of 13389 datagrams)"
    )
    back = _receiver_from_capture("rev_3.12.txt", reverse=True).udp[0]
    assert back.direction == "pc_to_pi" and back.out_of_order == 0
    assert json.loads(json.dumps(run.to_json()))["udp"][0]["lost"] == 523


def test_history_keeps_udp_figures_and_skips_damaged_ones(tmp_path: Path) -> None:
    history = History.open(tmp_path / "h.sqlite3")
    device = history.add_device("pi", 22, "pi")
    assert device.id is not None
    run = RunRecord(
        device_id=device.id,
        started_at=dt.datetime.now(dt.timezone.utc),
        plan_name="quick",
        udp=[UdpRecord("pi_to_pc", 50.0, 48.0, 0.012, 523, 13389, 3.9, None, True)],
    )
    run_id = history.save_run(run)
    assert history.run(run_id).udp == run.udp
    plain = RunRecord(device.id, dt.datetime.now(dt.timezone.utc), "quick")
    assert history.run(history.save_run(plain)).udp == []  # runs without UDP tests
    conn = history._conn  # a damaged entry: left out, the rest kept
    row = conn.execute("SELECT json FROM run_proof WHERE run_id = ?", (run_id,)).fetchone()
    raw = json.loads(row[0])
    raw["udp"] = [{"direction": "sideways"}, "x", {**raw["udp"][0], "lost": "many"}]
    conn.execute("UPDATE run_proof SET json=? WHERE run_id=?", (json.dumps(raw), run_id))
    kept = history.run(run_id).udp
    assert len(kept) == 1 and kept[0].lost is None and kept[0].packets == 13389
