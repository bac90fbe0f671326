"""`sbctune measure` with tuning kept on the Pi (walk 14, problem 2, on the command line): the
user is told before anything is measured, on stderr, and the run is kept and shown as
measured with tuning in force, never as a baseline; `--revert-first` puts the tuning back,
reads the Pi back, and measures a baseline. Against the namespace lab, through the CLI only:
apply and keep with `sbctune tune apply --confirm`, then measure."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sbctune.lab.model import LabInfo
from tests.lab_support import cli_connected, cli_output

pytestmark = [pytest.mark.lab]

GOVERNOR = "CPU frequency governor: performance"  # the tweak's title, as the user reads it
SHORT = ["--duration", "2", "--omit", "1", "--trials", "1", "--no-latency"]
WARNING = "sbctune: warning: Tuning is in force on the Pi."


def _cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    from sbctune.cli.main import main

    try:
        code = main(argv)
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def _keep_governor(pi: str, capsys: pytest.CaptureFixture[str]) -> None:
    kept = cli_output(["tune", "apply", pi, "--guard", "60", "--confirm",
                       "--tweak", "cpu-governor-performance"], capsys)  # fmt: skip
    status = cli_output(["tune", "status", pi], capsys)
    assert f"{GOVERNOR}: applied; on the Pi now: in force" in status, (kept, status)
    assert "confirmed" in status, status


def _history_row(run_id: int, capsys: pytest.CaptureFixture[str]) -> str:
    listing = cli_output(["history"], capsys)
    rows = [line for line in listing.splitlines() if line.strip().startswith(f"{run_id} ")]
    assert rows, listing
    return rows[0]


def test_measure_with_tuning_kept_warns_and_is_no_baseline(
    module_lab: LabInfo,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    pi = cli_connected(module_lab, tmp_path, monkeypatch, capsys)
    _keep_governor(pi, capsys)
    try:
        code, out, err = _cli(["measure", pi, *SHORT], capsys)
        assert code == 0, (out, err)
        # said before anything is measured, in the tweak's own title
        assert WARNING in err, err
        warned = err.index(WARNING)
        assert err.index("-->") > warned, "the warning comes before the first test"
        assert GOVERNOR in err[warned : err.index("-->")]
        assert "kept until the Pi restarts" in err[warned : err.index("-->")]
        assert "--revert-first" in err, err
        assert f"Measured with tuning in force ({GOVERNOR}): this run is not a baseline." in err
        run_id = int(err.split("Saved as run ")[1].split()[0])
        row = _history_row(run_id, capsys)
        assert f"with tuning in force: {GOVERNOR}" in row, row

        code, out, err = _cli(["measure", pi, *SHORT, "--json"], capsys)
        assert code == 0 and WARNING in err, (out, err)
        document = json.loads(out)
        assert document["baseline"] is False
        found = document["before_measuring"]["found"]
        assert found["tweaks"] == ["cpu-governor-performance"], found
        assert document["before_measuring"]["reverted_first"] is False
    finally:
        _cli(["tune", "revert", pi], capsys)  # nothing left to put back: no error either


def test_revert_first_measures_a_baseline_once_the_pi_reads_back_untuned(
    module_lab: LabInfo,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    pi = cli_connected(module_lab, tmp_path, monkeypatch, capsys)
    _keep_governor(pi, capsys)
    try:
        code, out, err = _cli(["measure", pi, *SHORT, "--revert-first", "--json"], capsys)
        assert code == 0, (out, err)
        assert WARNING in err, err
        put_back = "The tuning is put back and the Pi reads back untuned: measuring the baseline."
        assert put_back in err and err.index(put_back) < err.index("-->"), err
        assert "not a baseline" not in err[err.index(put_back) :], err
        document = json.loads(out)
        assert document["baseline"] is True
        assert document["before_measuring"]["reverted_first"] is True
        # the Pi itself: nothing in force any more, and the run's row says no tuning
        status = cli_output(["tune", "status", pi], capsys)
        assert "confirmed" not in status and "now: in force" not in status, status
        code, out, err = _cli(["measure", pi, *SHORT], capsys)
        assert code == 0 and WARNING not in err, err
        run_id = int(err.split("Saved as run ")[1].split()[0])
        assert "tuning in force" not in _history_row(run_id, capsys)
        history = json.loads(_cli(["history", "--json"], capsys)[1])
        runs = history["devices"][0]["runs"]
        assert [r["baseline"] for r in runs] == [True, True], runs
    finally:
        _cli(["tune", "revert", pi], capsys)  # nothing left to put back: no error either


def test_demo_says_its_baseline_had_tuning_in_force_and_reverts_first_when_asked(
    module_lab: LabInfo,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    pi = cli_connected(module_lab, tmp_path, monkeypatch, capsys)
    _keep_governor(pi, capsys)
    demo = ["demo", pi, "--no-tune", "--duration", "2", "--force"]
    try:
        code, out, err = _cli([*demo, "--report", str(tmp_path / "a.html")], capsys)
        assert code == 0, (out, err)
        assert WARNING in err and err.index(WARNING) < err.index("Baseline measurement"), err
        assert "it is not a baseline, so it shows the tuned speed" in out, out
        assert "“sbctune demo HOST --revert-first”" in out, out
        report = (tmp_path / "a.html").read_text(encoding="utf-8")
        assert "with tuning in force" in report

        code, out, err = _cli([*demo, "--revert-first", "--report", str(tmp_path / "b.html")],
                              capsys)  # fmt: skip
        assert code == 0, (out, err)
        assert "the Pi reads back untuned: measuring the baseline" in err, err
        assert "not a baseline" not in out, out
        status = cli_output(["tune", "status", pi], capsys)
        assert "confirmed" not in status and "now: in force" not in status, status
    finally:
        _cli(["tune", "revert", pi], capsys)
