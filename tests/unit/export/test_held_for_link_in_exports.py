"""Issue 21: a tweak the one-click flow held back because it would drop the link of the NIC the
app talks through (no consent) is named in every report in plain words, from the run as the
history keeps it: not "not possible", not silently absent."""

from __future__ import annotations

import statistics
from pathlib import Path

from sbctune.export import export, gather
from sbctune.history import History
from sbctune.history.records import RunRecord, TestRecord
from sbctune.history.run_tuning import held_for_link
from sbctune.tuning.words import held_note
from tests.plain_words import jargon
from tests.unit.export.seed_runs import START

TUNED = {
    "session": "20261128T170000Z-abcdef", "state": "armed", "tweaks": ["cpu-governor-performance"],
    "read_back": True, "changed_during_run": False,
    "held_for_link": ["nic-rings", "flow-control"],
}  # fmt: skip


def _run(device: int, trials: list[float], state: dict[str, object] | None) -> RunRecord:
    test = TestRecord("pi_to_pc", "half", mean_mbps=statistics.fmean(trials), trial_means=trials)
    return RunRecord(device, START, "quick", finished_at=START, nic="eth0", complete=True,
                     tests=[test], tuning_state=state)  # fmt: skip


def test_the_held_back_tweaks_are_named_in_the_reports(tmp_path: Path) -> None:
    with History.open(tmp_path / "h.sqlite3") as history:
        device = history.add_device("198.18.0.2", 22, "pi").id or 0
        base = history.save_run(_run(device, [736.0, 737.0, 735.0], None))
        after = history.save_run(_run(device, [740.0, 741.0, 739.0], TUNED))
        assert held_for_link(history.run(after)) == ["nic-rings", "flow-control"]
        data = gather(history, [base, after])
        html = export("html", data, tmp_path / "r.html").read_text(encoding="utf-8")
        md = export("md", data, tmp_path / "r.md").read_text(encoding="utf-8")
        alone = gather(history, [base])  # untuned: nothing was held back in it
        plain = export("html", alone, tmp_path / "b.html").read_text(encoding="utf-8")
    line = held_note(["nic-rings", "flow-control"])
    assert line.startswith("Held back, not applied: NIC rings to the hardware maximum, ")
    assert "drop the network link" in line and "consent" in line
    assert "not possible" not in line
    assert not jargon(line), jargon(line)
    assert line in html
    assert line in md.replace("\\", "")  # Markdown escapes its own punctuation
    assert "Held back" not in plain


def test_a_run_without_the_key_or_with_garbage_holds_nothing_back() -> None:
    assert held_for_link(_run(1, [1.0], None)) == []
    assert held_for_link(_run(1, [1.0], {"held_for_link": "nic-rings"})) == []
    many = {"held_for_link": ["x" * 500] * 100}
    assert [len(t) for t in held_for_link(_run(1, [1.0], many))] == [60] * 20  # bounded
