"""Walk 14, problem 2, in the reports and `sbctune compare`: a comparison whose first run (its
"before") the Pi read back as tuned says that run is not a baseline, so the changes against it
do not show what the tuning did; a comparison with an untuned first run says nothing of it."""

from __future__ import annotations

import json
import statistics
from pathlib import Path

import pytest

from sbctune.export import export, gather
from sbctune.history import History
from sbctune.history.records import RunRecord, TestRecord
from tests.plain_words import jargon
from tests.unit.export.seed_runs import START

TUNED = {
    "session": "20261129T100000Z-abcdef", "state": "confirmed",
    "tweaks": ["cpu-governor-performance"], "read_back": True, "changed_during_run": False,
}  # fmt: skip
WORDS = (
    "Measured with tuning in force (CPU frequency governor: performance): this run is not a "
    "baseline, so the changes against it do not show what the tuning did."
)


def _run(device: int, trials: list[float], state: dict[str, object] | None) -> RunRecord:
    test = TestRecord("pi_to_pc", "half", mean_mbps=statistics.fmean(trials), trial_means=trials)
    return RunRecord(device, START, "quick", finished_at=START, nic="eth0", complete=True,
                     tests=[test], tuning_state=state)  # fmt: skip


def _history(path: Path) -> tuple[History, int, int, int]:
    history = History.open(path)
    device = history.add_device("198.18.0.2", 22, "pi").id or 0
    tuned = history.save_run(_run(device, [834.0, 835.0, 836.0], TUNED))
    after = history.save_run(_run(device, [836.0, 837.0, 835.0], TUNED))
    fair = history.save_run(_run(device, [738.0, 739.0, 740.0], None))
    return history, tuned, after, fair


def test_reports_say_a_tuned_first_run_is_no_baseline(tmp_path: Path) -> None:
    history, tuned, after, fair = _history(tmp_path / "h.sqlite3")
    with history:
        data = gather(history, [tuned, after])
        html = export("html", data, tmp_path / "r.html").read_text(encoding="utf-8")
        md = export("md", data, tmp_path / "r.md").read_text(encoding="utf-8")
        good = gather(history, [fair, after])
        plain_html = export("html", good, tmp_path / "g.html").read_text(encoding="utf-8")
        plain_md = export("md", good, tmp_path / "g.md").read_text(encoding="utf-8")
    assert WORDS in html
    assert WORDS in md.replace("\\", "")  # Markdown escapes its own punctuation
    assert not jargon(WORDS), jargon(WORDS)
    assert "not a baseline" not in plain_html and "not a baseline" not in plain_md


def _compare(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    from sbctune.cli.main import main

    code = main(["compare", *argv])
    out, _err = capsys.readouterr()
    return code, out


def test_compare_warns_of_a_tuned_first_run_and_names_the_flag(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("SBCTUNE_DATA_DIR", str(tmp_path / "data"))
    (tmp_path / "data").mkdir()
    history, tuned, after, fair = _history(tmp_path / "data" / "history.sqlite3")
    history.close()
    code, out = _compare([str(tuned), str(after)], capsys)
    assert code == 0
    assert f"WARNING: Run {tuned} was measured with tuning in force: " in out, out
    assert "it is not a baseline, so this comparison does not show what the tuning did" in out
    # the Pi the runs were measured on, as typed to reach it (walk 27: it was "HOST")
    assert "“sbctune measure pi@198.18.0.2 --revert-first” puts the tuning back first" in out
    assert "HOST" not in out
    code, out = _compare([str(tuned), str(after), "--json"], capsys)
    document = json.loads(out)
    assert document["first_run_is_baseline"] is False
    assert "not a baseline" in document["not_a_baseline"]
    code, out = _compare([str(fair), str(after)], capsys)
    assert "WARNING" not in out and "not a baseline" not in out, out
    code, out = _compare([str(fair), str(after), "--json"], capsys)
    document = json.loads(out)
    assert document["first_run_is_baseline"] is True and document["not_a_baseline"] is None
