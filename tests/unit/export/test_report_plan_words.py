"""The reports name a run's plan as the CLI, History and the app do (walk s23: `sbctune export
1 -f md` of a `measure --duration 3 --omit 1 --trials 1` run said "custom: custom plan (4
streams, 3 s (+1 s omitted))" where History and the window say "Custom, from Quick (1 trial ×
3 s per direction, 4 streams, 1 s omitted)")."""

from __future__ import annotations

from datetime import datetime, timezone

from sbctune.compare import run_description
from sbctune.export.describe import method_line
from sbctune.history.records import RunRecord

TITLE = "Custom, from Quick (1 trial × 3 s per direction, 4 streams, 1 s omitted)"
TESTS = [{"streams": 4, "duration": 3, "omit": 1}]


def _run(plan: dict[str, object]) -> RunRecord:
    return RunRecord(1, datetime(2026, 11, 30, 15, 20, tzinfo=timezone.utc), "custom",
                     plan=plan, nic="eth0", endpoint_kind="builtin", iperf3_pi_version="3.12.0",
                     complete=True)  # fmt: skip


def test_a_run_with_its_plans_title_is_named_by_it() -> None:
    run = _run({"title": TITLE, "tests": TESTS})
    line = f"{run_description(run)}: {method_line(run)}"
    assert line.endswith(
        " · eth0 · Custom, from Quick: 1 trial × 3 s per direction, 4 streams, 1 s omitted, "
        "iperf3 3.12.0 on the Pi, sbctune's built-in iperf3 server on the PC"
    ), line
    assert "custom plan" not in line and "· custom" not in line


def test_an_older_record_without_a_title_keeps_its_shape() -> None:
    run = _run({"tests": TESTS})
    assert method_line(run).startswith("custom plan (4 streams, 3 s (+1 s omitted))")
