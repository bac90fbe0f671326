"""`sbctune measure --no-latency`: the run is asked not to probe, and says so in its report."""

from __future__ import annotations

from typing import Any

from sbctune.cli.main import build_parser
from sbctune.cli.measure_cmd import _request
from sbctune.measure.latency.during import TURNED_OFF, LatencyMonitor
from sbctune.measure.latency.report import text_lines
from sbctune.measure.plans import plan_named


def test_the_flag_reaches_the_runner_and_the_report_says_why() -> None:
    args = build_parser().parse_args(["measure", "pi@198.18.0.2", "--no-latency"])
    assert _request(args, plan_named("quick")).options == {"latency": False}
    default = build_parser().parse_args(["measure", "pi@198.18.0.2"])
    assert "latency" not in _request(default, plan_named("quick")).options  # on by default

    session: Any = None  # never used: nothing is sent when latency is off
    monitor = LatencyMonitor(session, "198.18.0.1", "198.18.0.2", lambda e: None, enabled=False)
    assert text_lines(monitor.record) == [
        "Latency under load was not measured: it was turned off for this run (--no-latency)."
    ]
    assert TURNED_OFF in monitor.record["notes"]
