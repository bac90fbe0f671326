"""The advice's parts: the sampler summary reader, ranking, stored inventories, tuning state."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from sbctune.advice import advise
from sbctune.advice.cpu import irq_bound_core
from sbctune.advice.inspect import inspect_bundle
from sbctune.advice.knowledge import load_knowledge
from sbctune.advice.stored import inventory_from_json
from sbctune.catalog import load_catalog
from sbctune.history.records import Interval, RunRecord, TestRecord, TuningSessionRecord
from sbctune.inventory.model import Inventory, Nic
from tests.lab_profiles import served_bundle
from tests.unit.test_advice_seeds import PROFILES


def _cores(*loads: tuple[float, float]) -> dict[str, Any]:
    return {
        "samples": 10,
        "cores": [
            {"cpu": i, "mean_busy": busy, "mean_irq_softirq": irq}
            for i, (busy, irq) in enumerate(loads)
        ],
    }


def test_one_core_saturated_in_softirq_while_others_idle_is_found() -> None:
    found = irq_bound_core(_cores((99, 92), (12, 1), (8, 0), (5, 0)))
    assert found is not None and found.core == 0
    assert "CPU0 99 % busy, 92 % of it in irq/softirq" in found.summary


def test_busy_everywhere_or_one_core_is_not_irq_bound() -> None:
    assert irq_bound_core(_cores((99, 92), (95, 10), (90, 5), (92, 3))) is None
    assert irq_bound_core(_cores((40, 20), (12, 1))) is None
    assert irq_bound_core(_cores((100, 100))) is None


@given(
    st.recursive(
        st.none() | st.integers() | st.floats() | st.text(),
        lambda c: st.lists(c) | st.dictionaries(st.text(), c),
    )
)
def test_sampler_summary_reader_survives_garbage(data: Any) -> None:
    irq_bound_core(data if isinstance(data, dict) else {"cores": data})


def _run(nic: str, figures: dict[tuple[str, str], float], **extra: Any) -> RunRecord:
    tests = [
        TestRecord(direction=d, mode=m, mean_mbps=v, **extra)  # type: ignore[arg-type]
        for (d, m), v in figures.items()
    ]
    return RunRecord(
        1, dt.datetime(2024, 1, 1, tzinfo=dt.timezone.utc), "quick", nic=nic, tests=tests, id=7
    )


def test_cpu_bound_run_recommends_the_tweaks_with_the_sampler_evidence() -> None:
    inventory = Inventory(nics=[Nic(name="eth0", link_speed_mbps=1000)])
    run = _run("eth0", {("pc_to_pi", "half"): 620}, pi_cpu=_cores((98, 90), (10, 1), (6, 0)))
    advice = advise(inventory, [run], load_catalog())
    finding = next(f for f in advice.findings if f.id == "cpu-bound")
    assert any("CPU0 mean busy 98 %" in line for line in finding.evidence)
    tweak = next(r for r in advice.recommendations if r.kind == "tweak")
    assert {"rps-rfs", "irq-affinity"} <= set(tweak.tweak_ids)


def test_tweaks_already_applied_are_not_recommended_again() -> None:
    inventory = Inventory(nics=[Nic(name="eth0", link_speed_mbps=1000)])
    run = _run("eth0", {("pc_to_pi", "half"): 620}, pi_cpu=_cores((98, 90), (10, 1), (6, 0)))
    tweaks = [{"id": "rps-rfs", "status": "applied"}, {"id": "xps", "status": "not_possible"}]
    applied = TuningSessionRecord(
        1, dt.datetime(2024, 1, 1), "confirmed", {"schema": 1, "tweaks": tweaks}
    )
    advice = advise(inventory, [run], load_catalog(), [applied])
    tweak = next(r for r in advice.recommendations if r.kind == "tweak")
    assert "rps-rfs" not in tweak.tweak_ids and "xps" in tweak.tweak_ids
    reverted = TuningSessionRecord(1, dt.datetime(2024, 1, 1), "reverted", applied.data)
    again = advise(inventory, [run], load_catalog(), [reverted])
    assert "rps-rfs" in next(r for r in again.recommendations if r.kind == "tweak").tweak_ids


def test_traffic_through_another_interface_comes_first_and_stops_conclusions() -> None:
    inventory = inspect_bundle(PROFILES / "pi4-ax88179")
    note = "The route to 198.18.0.1 leaves the Pi through eth0, not eth1."
    run = _run("eth1", {("pi_to_pc", "half"): 700, ("pc_to_pi", "half"): 940})
    run.route_warning = note
    run.note = note
    advice = advise(inventory, [run], load_catalog())
    assert advice.top is not None and advice.top.title == "Measure again over eth1"
    assert "asymmetric" not in [f.id for f in advice.findings]
    assert advice.findings[0].evidence == [note]


def test_a_run_stopped_early_is_not_taken_for_a_route_problem() -> None:
    """The note also says why a run stopped (cancel, link lost): that is no route warning."""
    inventory = inspect_bundle(PROFILES / "pi4-ax88179")
    run = _run("eth1", {("pi_to_pc", "half"): 736, ("pc_to_pi", "half"): 949})
    run.note = "Stopped early: cancelled by the user."
    advice = advise(inventory, [run], load_catalog())
    assert "traffic-routed-elsewhere" not in [f.id for f in advice.findings]
    assert advice.top is not None and "RTL8153" in advice.top.title


def test_many_retransmits_are_found_with_their_share() -> None:
    inventory = Inventory(nics=[Nic(name="eth0", link_speed_mbps=1000)])
    intervals = [Interval(float(t), 800.0) for t in range(1, 11)]
    run = _run("eth0", {("pi_to_pc", "half"): 800}, retransmits=5000, intervals=intervals)
    advice = advise(inventory, [run], load_catalog())
    finding = next(f for f in advice.findings if f.id == "many-retransmits")
    # 800e6 / 8 / 1448 * 10 s segments; one bracket group, the label's (s30 walk)
    assert finding.summary == (
        "5,000 segments were sent again during Pi → PC (one direction at a time), 0.72 % of "
        "the ~690,608 sent: frames are being lost between the Pi and the PC."
    )
    few = _run("eth0", {("pi_to_pc", "half"): 800}, retransmits=100, intervals=intervals)
    assert "many-retransmits" not in [
        f.id for f in advise(inventory, [few], load_catalog()).findings
    ]


def test_stored_inventory_json_round_trips_into_the_same_advice(tmp_path: Path) -> None:
    inventory = inspect_bundle(served_bundle(tmp_path, "cm4-i340-nodriver"))
    again = inventory_from_json(inventory.to_json() | {"new_key": 1})
    assert again.to_json() == inventory.to_json()
    a = advise(inventory, [], load_catalog()).to_json()
    b = advise(again, [], load_catalog()).to_json()
    assert a == b and a["recommendations"][0]["rank"] == 1


def test_knowledge_cites_only_sources_the_catalog_has() -> None:
    catalog, knowledge = load_catalog(), load_knowledge()
    cited = [s for t in knowledge.tweaks_for.values() for s in t.sources]
    cited += [s for d in knowledge.drivers.values() for s in d.sources]
    cited += [s for a in knowledge.adapters for s in a.sources]
    cited += [g.source for g in knowledge.tweak_gains.values()]
    assert [s for s in cited if catalog.source(s) is None] == []
    assert all(catalog.chip(a.chip) for a in knowledge.adapters)
