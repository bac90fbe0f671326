"""How numbers read in what the user reads on Results and in the reports (s30 walk, Results
scrolled: "55666 segments were sent again during Pi → PC (one direction at a time) (4.5% of
~1249724)"): a percent as the window's tables write it ("11.3 %"), a large count grouped by
thousands, and never two bracket groups in a row."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from sbctune.advice import advise
from sbctune.advice.cpu import irq_bound_core
from sbctune.catalog import load_catalog
from sbctune.history.records import Interval, RunRecord, TestRecord
from sbctune.inventory.model import Inventory, Nic
from sbctune.wording import counted, grouped, percent

# a percent sign right after a digit, or a run of 5+ digits: the two styles the walk read
_OLD_STYLE = re.compile(r"\d%|\d{5,}")


def test_percent_and_counts_read_one_way() -> None:
    assert percent(0.045) == "4.5 %"
    assert percent(63, 100) == "63 %"
    assert percent(0.0028) == "0.28 %"
    assert percent(0.941, places=1) == "94.1 %"
    assert percent(1, 0) == "?"
    assert grouped(1664606.4) == "1,664,606"
    assert counted(55666, "segment") == "55,666 segments"
    assert counted(1, "segment") == "1 segment"


def _run(figures: dict[tuple[str, str], float], **extra: Any) -> RunRecord:
    tests = [
        TestRecord(direction=d, mode=m, mean_mbps=v, **extra)  # type: ignore[arg-type]
        for (d, m), v in figures.items()
    ]
    return RunRecord(
        1, dt.datetime(2024, 1, 1, tzinfo=dt.timezone.utc), "quick", nic="eth0", tests=tests, id=7
    )


def test_the_walks_retransmit_finding_reads_as_one_sentence() -> None:
    """The walk's figures: 55666 retransmits at 804 Mbit/s for 18 s (~1,249,724 segments)."""
    inventory = Inventory(nics=[Nic(name="eth0", link_speed_mbps=1000)])
    intervals = [Interval(float(t), 804.0) for t in range(1, 19)]
    run = _run({("pi_to_pc", "half"): 804}, retransmits=55666, intervals=intervals)
    advice = advise(inventory, [run], load_catalog())
    finding = next(f for f in advice.findings if f.id == "many-retransmits")
    assert finding.summary.startswith(
        "55,666 segments were sent again during Pi → PC (one direction at a time), 4.5 % of "
        "the ~1,249,"
    ), finding.summary
    assert ") (" not in finding.summary
    assert not _OLD_STYLE.search(finding.summary + " ".join(finding.evidence))


def test_every_measured_finding_writes_percents_one_way() -> None:
    """A run that trips the asymmetry, the full-duplex, the CPU and the retransmit checks: no
    finding or evidence line writes "63%" or an ungrouped count."""
    cores = {
        "samples": 10,
        "cores": [
            {"cpu": 0, "mean_busy": 99, "mean_irq_softirq": 92},
            {"cpu": 1, "mean_busy": 3.2, "mean_irq_softirq": 0},
        ],
    }
    inventory = Inventory(nics=[Nic(name="eth0", link_speed_mbps=1000)])
    intervals = [Interval(float(t), 500.0) for t in range(1, 11)]
    figures = {
        ("pi_to_pc", "half"): 500,
        ("pc_to_pi", "half"): 940,
        ("pi_to_pc", "full"): 160,
        ("pc_to_pi", "full"): 500,
    }
    run = _run(figures, retransmits=20000, intervals=intervals, pi_cpu=cores)
    advice = advise(inventory, [run], load_catalog())
    ids = {f.id for f in advice.findings}
    assert {"asymmetric", "many-retransmits"} <= ids, ids
    said = [f.summary for f in advice.findings] + [e for f in advice.findings for e in f.evidence]
    assert [s for s in said if _OLD_STYLE.search(s)] == []
    assert any(re.search(r"\d %", s) for s in said), said


def test_cpu_summary_writes_percents_as_the_tables_do() -> None:
    cores = [{"cpu": 0, "mean_busy": 99, "mean_irq_softirq": 92}]
    cores.append({"cpu": 1, "mean_busy": 3.2, "mean_irq_softirq": 0})
    found = irq_bound_core({"samples": 10, "cores": cores})
    assert found is not None
    assert found.summary == "CPU0 99 % busy, 92 % of it in irq/softirq; others CPU1 3.2 %"
