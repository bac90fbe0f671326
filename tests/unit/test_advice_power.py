"""The "throttled (or under-voltage) during the test" finding and its power/cooling advice."""

from __future__ import annotations

import datetime as dt
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from sbctune.advice import advise
from sbctune.advice.inspect import inspect_bundle
from sbctune.advice.power import throttled_tests
from sbctune.advice.runs import digest
from sbctune.catalog import load_catalog
from sbctune.history.records import RunRecord, TestRecord
from tests.unit.test_advice_seeds import PROFILES


def _power(flags: int, temp: float = 52.0, first: float | None = 2.5) -> dict[str, Any]:
    return {
        "samples": 8,
        "cores": [],
        "power": {
            "samples": 8,
            "throttled_any": flags,
            "first_flags": flags or None,
            "first_event_s": first if flags else None,
            "flagged_samples": 5 if flags else 0,
            "max_temp_c": temp,
            "min_cpu_mhz": 600.0 if flags else 1500.0,
            "max_cpu_mhz": 1500.0,
        },
    }


def _run(pi_cpu: dict[str, Any], run_id: int = 7) -> RunRecord:
    tests = [
        TestRecord(direction="pi_to_pc", mode="half", mean_mbps=700, pi_cpu=pi_cpu),
        TestRecord(direction="pc_to_pi", mode="half", mean_mbps=940, pi_cpu=_power(0)),
    ]
    started = dt.datetime(2024, 1, 1, tzinfo=dt.timezone.utc)
    return RunRecord(1, started, "quick", nic="eth1", tests=tests, id=run_id)


def test_under_voltage_during_a_test_is_found_with_its_evidence_and_ranked_first() -> None:
    inventory = inspect_bundle(PROFILES / "pi4-ax88179")  # a Pi 4 (seed 000)
    inventory.board.catalog_id = "pi4b"  # the bundle has no model line; the lab's Pi has one
    advice = advise(inventory, [_run(_power(0x50005, temp=63.0))], load_catalog())
    finding = next(f for f in advice.findings if f.id == "throttled-during-test")
    assert finding.severity == "problem"
    assert "under-voltage, throttled during a test" in finding.summary
    (line,) = finding.evidence
    assert "run 7, Pi → PC (one direction at a time): get_throttled 0x50005" in line
    assert "from 2.5 s into the test" in line and "CPU clock 600-1500 MHz" in line
    top = advice.top
    assert top is not None and top.kind == "power", top
    assert top.title == "Use the official 5.1 V 3 A USB-C power supply, then measure again"
    assert any("power-supplies.adoc" in s for s in top.sources)
    assert not any(r.title.startswith("Cool the Pi") for r in advice.recommendations)  # 63 °C
    inventory.board.catalog_id = "pi5"
    pi5 = advise(inventory, [_run(_power(0x50005))], load_catalog()).top
    assert pi5 is not None and "5.1 V 5 A (27 W) USB-C" in pi5.title


def test_soft_temperature_limit_is_a_warning_with_cooling_advice() -> None:
    inventory = inspect_bundle(PROFILES / "pi4-ax88179")
    advice = advise(inventory, [_run(_power(0x80008, temp=81.5))], load_catalog())
    finding = next(f for f in advice.findings if f.id == "throttled-during-test")
    assert finding.severity == "warning" and "SoC up to 81.5 °C" in finding.evidence[0]
    cool = next(r for r in advice.recommendations if r.title.startswith("Cool the Pi"))
    assert "81 °C" in cool.detail or "82 °C" in cool.detail
    assert any("frequency-management.adoc" in s for s in cool.sources)
    assert not any("power supply" in r.title for r in advice.recommendations)


def test_a_healthy_pi_or_a_run_without_power_readings_gets_no_finding() -> None:
    inventory = inspect_bundle(PROFILES / "pi4-ax88179")
    for pi_cpu in (_power(0), {"samples": 3, "cores": []}, {"power": None}):
        advice = advise(inventory, [_run(pi_cpu)], load_catalog())
        assert "throttled-during-test" not in [f.id for f in advice.findings]
        assert advice.top is not None and advice.top.kind != "power"


def test_full_duplex_directions_sharing_a_summary_are_reported_once() -> None:
    shared = _power(0x50005)
    run = _run(shared)
    run.tests = [
        TestRecord(direction="pi_to_pc", mode="full", mean_mbps=300, pi_cpu=shared),
        TestRecord(direction="pc_to_pi", mode="full", mean_mbps=800, pi_cpu=shared),
    ]
    assert len(throttled_tests(digest([run]))) == 1


@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
        lambda c: st.lists(c) | st.dictionaries(st.text(), c),
    )
)
def test_stored_power_summaries_survive_garbage(data: Any) -> None:
    run = _run({"power": data})
    throttled_tests(digest([run]))
