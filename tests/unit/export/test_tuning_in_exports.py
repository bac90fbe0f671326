"""Every export carries what each tweak did alone ("Find what helps") and marks a run whose
tuning changed while it ran, from the runs as the history keeps them."""

from __future__ import annotations

import csv
import json
import statistics
from pathlib import Path

from sbctune.export import export, gather
from sbctune.history import History
from sbctune.history.records import RunRecord, TestRecord
from sbctune.history.run_tuning import CHANGED
from tests.unit.export.seed_runs import START

CHANGED_STATE = {
    "session": "20261126T140000Z-abcdef", "state": None, "tweaks": [], "read_back": True,
    "changed_during_run": True,
    "start": {"session": "20261126T140000Z-abcdef", "state": "armed",
              "in_force": ["cpu-governor-performance"], "readable": True},
    "end": {"session": None, "state": None, "in_force": [], "readable": True},
}  # fmt: skip


def _run(device: int, trials: list[float], state: dict[str, object] | None) -> RunRecord:
    test = TestRecord("pi_to_pc", "half", mean_mbps=statistics.fmean(trials), trial_means=trials)
    return RunRecord(device, START, "quick", finished_at=START, nic="eth1", complete=True,
                     tests=[test], tuning_state=state)  # fmt: skip


def test_contributions_and_a_changed_run_in_every_format(tmp_path: Path) -> None:
    with History.open(tmp_path / "h.sqlite3") as history:
        device = history.add_device("198.18.0.2", 22, "pi").id or 0
        base = history.save_run(_run(device, [736.0, 737.0, 735.0], None))
        step = {"tweaks": ["cpu-governor-performance"], "read_back": True,
                "changed_during_run": False, "step": {"tweak": "cpu-governor-performance",
                                                      "of": base}}  # fmt: skip
        gov = history.save_run(_run(device, [834.0, 830.0, 832.0], step))
        fired = history.save_run(_run(device, [800.0, 790.0, 795.0], CHANGED_STATE))
        data = gather(history, [base, gov, fired])
        html = export("html", data, tmp_path / "r.html").read_text(encoding="utf-8")
        md = export("md", data, tmp_path / "r.md").read_text(encoding="utf-8")
        doc = json.loads(export("json", data, tmp_path / "r.json").read_text(encoding="utf-8"))
        with open(export("csv", data, tmp_path / "r.csv"), newline="", encoding="utf-8") as fh:
            rows = list(csv.DictReader(fh))
    for text in (html, md):
        assert "What each tweak did on its own" in text and "yes: it helped" in text
        assert f"run {fired}: {CHANGED} (at start: 1 tweak in force (on trial under the " in text
        assert "armed" not in text  # the guard's raw state word (s10 walk)
    assert "<svg" in html.split("What each tweak did on its own")[1]  # the waterfall
    (found,) = doc["contributions"]
    assert found["tweak"] == "cpu-governor-performance" and found["helps"]
    (effect,) = found["effects"]
    assert 0 < effect["low_mbps"] < effect["high_mbps"] and effect["verdict"] == "faster"
    by_run = {r["run_id"]: r for r in rows}
    assert by_run[str(fired)]["tuning_changed_during_run"] == "yes"
    assert by_run[str(fired)]["tuning"].endswith(CHANGED)
    assert by_run[str(base)]["tuning"] == "untuned"


def test_a_tuned_run_says_the_guard_state_in_words() -> None:
    """`sbctune history` said "tuning applied ... (3 tweaks, armed, read back)" (s10 walk)."""
    from sbctune.history.run_tuning import tuning_text

    state = {"session": "20261128T211513Z-a9ca8e", "state": "armed", "read_back": True,
             "tweaks": ["cpu-governor-performance", "rps-rfs"],
             "changed_during_run": False}  # fmt: skip
    text = tuning_text(_run(1, [834.0, 830.0], state))
    assert text.endswith("(2 tweaks, on trial under the guard)"), text
    assert "armed" not in text and "read back" not in text and "a9ca8e" not in text
