"""`sbctune measure` with tuning kept on the Pi (walk 14, problem 2, on the command line): the
user is told before anything is measured, on stderr, and the run is kept and shown as
measured with tuning in force, never as a baseline; `--revert-first` puts the tuning back,
reads the Pi back, and measures a baseline. Against the namespace lab, through the CLI only:
apply and keep with `sbctune tune apply --confirm`, then measure."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from sbctune.cli import demo_cmd
from sbctune.lab.model import LabInfo
from sbctune.measure.plans import plan_named
from tests.lab_support import cli_connected, cli_output, cli_run

pytestmark = [pytest.mark.lab]

GOVERNOR = "CPU frequency governor: performance"  # the tweak's title, as the user reads it
SHORT = ["--duration", "2", "--omit", "1", "--trials", "1", "--no-latency"]
WARNING = "sbctune: warning: Tuning is in force on the Pi."


@pytest.fixture
def kept(
    module_lab: LabInfo,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> Iterator[str]:
    """Each test's user: connected once, the governor tweak applied and kept with `tune apply
    --confirm` (`tune status` says so); the lab's ``user@host``. Put back afterwards, pass or
    fail, so the shared lab is left as found (nothing left to put back is no error either)."""
    pi = cli_connected(module_lab, tmp_path, monkeypatch, capsys)
    applied = cli_output(["tune", "apply", pi, "--guard", "60", "--confirm",
                          "--tweak", "cpu-governor-performance"], capsys)  # fmt: skip
    status = cli_output(["tune", "status", pi], capsys)
    assert f"{GOVERNOR}: applied; on the Pi now: in force" in status, (applied, status)
    assert "confirmed" in status, status
    try:
        yield pi
    finally:
        cli_run(["tune", "revert", pi], capsys)


def _nothing_in_force(pi: str, capsys: pytest.CaptureFixture[str]) -> None:
    status = cli_output(["tune", "status", pi], capsys)
    assert "confirmed" not in status and "now: in force" not in status, status


def _saved_run(err: str) -> int:
    """The run's number from `measure`'s "Saved as run N"."""
    return int(err.split("Saved as run ")[1].split()[0])


def _history_row(run_id: int, capsys: pytest.CaptureFixture[str]) -> str:
    listing = cli_output(["history"], capsys)
    rows = [line for line in listing.splitlines() if line.strip().startswith(f"{run_id} ")]
    assert rows, listing
    return rows[0]


def _measure(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[str, str]:
    """`sbctune measure`'s (or `demo`'s) stdout and stderr; it must exit 0 (measured)."""
    code, out, err = cli_run(argv, capsys)
    assert code == 0, (argv, out, err)
    return out, err


def test_measure_with_tuning_kept_warns_and_is_no_baseline(
    kept: str, capsys: pytest.CaptureFixture[str]
) -> None:
    _, err = _measure(["measure", kept, *SHORT], capsys)
    # said before anything is measured, in the tweak's own title
    assert WARNING in err, err
    warned = err.index(WARNING)
    assert err.index("-->") > warned, "the warning comes before the first test"
    assert GOVERNOR in err[warned : err.index("-->")]
    assert "kept until the Pi restarts" in err[warned : err.index("-->")]
    assert "--revert-first" in err, err
    assert f"Measured with tuning in force ({GOVERNOR}): this run is not a baseline." in err
    row = _history_row(_saved_run(err), capsys)
    assert f"with tuning in force: {GOVERNOR}" in row, row

    out, err = _measure(["measure", kept, *SHORT, "--json"], capsys)
    assert WARNING in err, (out, err)
    document = json.loads(out)
    assert document["baseline"] is False
    found = document["before_measuring"]["found"]
    assert found["tweaks"] == ["cpu-governor-performance"], found
    assert document["before_measuring"]["reverted_first"] is False


def test_revert_first_measures_a_baseline_once_the_pi_reads_back_untuned(
    kept: str, capsys: pytest.CaptureFixture[str]
) -> None:
    out, err = _measure(["measure", kept, *SHORT, "--revert-first", "--json"], capsys)
    assert WARNING in err, err
    put_back = "The tuning is put back and the Pi reads back untuned: measuring the baseline."
    assert put_back in err and err.index(put_back) < err.index("-->"), err
    assert "not a baseline" not in err[err.index(put_back) :], err
    document = json.loads(out)
    assert document["baseline"] is True
    assert document["before_measuring"]["reverted_first"] is True
    # the Pi itself: nothing in force any more, and the run's row says no tuning
    _nothing_in_force(kept, capsys)
    _, err = _measure(["measure", kept, *SHORT], capsys)
    assert WARNING not in err, err
    assert "tuning in force" not in _history_row(_saved_run(err), capsys)
    history = json.loads(cli_run(["history", "--json"], capsys)[1])
    runs = history["devices"][0]["runs"]
    assert [r["baseline"] for r in runs] == [True, True], runs


def test_demo_says_its_baseline_had_tuning_in_force_and_reverts_first_when_asked(
    kept: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # One trial per direction, as `measure` above has it: this is about what the demo says
    # before and after its baseline, not the trials (the plan's three, and extra ones when
    # 2 s trials disagreed, took ~40 s of the two demos).
    one_trial = plan_named("quick").with_overrides(duration=2, omit=1, trials=1)
    monkeypatch.setattr(demo_cmd, "plan_named", lambda _name: one_trial)
    demo = ["demo", kept, "--no-tune", "--force"]
    out, err = _measure([*demo, "--report", str(tmp_path / "a.html")], capsys)
    assert WARNING in err and err.index(WARNING) < err.index("Baseline measurement"), err
    assert "it is not a baseline, so it shows the tuned speed" in out, out
    assert f"“sbctune demo {kept} --revert-first”" in out, out
    report = (tmp_path / "a.html").read_text(encoding="utf-8")
    assert "with tuning in force" in report

    out, err = _measure([*demo, "--revert-first", "--report", str(tmp_path / "b.html")], capsys)
    assert "the Pi reads back untuned: measuring the baseline" in err, err
    assert "not a baseline" not in out, out
    _nothing_in_force(kept, capsys)
