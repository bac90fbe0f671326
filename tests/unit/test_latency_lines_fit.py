"""`sbctune measure` in an 80-column terminal (walk s23, pi5-macb lab): the latency verdicts
under the table ran to 89 columns ("  the link queues 5 ms under upload from the Pi (Pi → PC),
1 probe in 20 over 17 ms: mild") and the terminal cut them mid-word; the table's rows are left
whole (a wrapped row no longer lines up with its header)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from sbctune.cli import fit as fit_module
from sbctune.cli.measure_cmd import _print_run
from sbctune.measure.outcome import MeasureRun

# the lab's recorded probes (tests/captures/latency, pi4-ax88179): verdicts of 87 columns
RECORDED = Path(__file__).parents[1] / "captures" / "latency" / "lab_pi4_ax88179_quick.json"


def _run() -> MeasureRun:
    run = MeasureRun("pi", "eth0", "quick", "builtin", "198.18.0.1", "198.18.0.2",
                     "2026-11-30T15:20:00+00:00", complete=True)  # fmt: skip
    run.latency = json.loads(RECORDED.read_text(encoding="utf-8"))["latency"]
    return run


def test_latency_verdicts_fit_an_80_column_terminal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setattr(fit_module, "_is_terminal", lambda stream: True)
    assert _print_run(argparse.Namespace(json=False), _run(), "Saved as run 1.") == 0
    lines = capsys.readouterr().out.splitlines()
    assert max(len(line) for line in lines) < 80, [line for line in lines if len(line) >= 80]
    at = next(i for i, line in enumerate(lines) if line.startswith("  the link queues 6 ms"))
    assert lines[at + 1].startswith("    ")  # its continuation, indented under it
    said = " ".join(" ".join(lines).split())
    assert "(Pi → PC), 1 probe in 20 over 11 ms: mild" in said, said
    header = next(line for line in lines if line.startswith("Latency under load"))
    assert header.endswith("grade")  # the table's header whole


def test_a_pipe_keeps_the_verdicts_whole(capsys: pytest.CaptureFixture[str]) -> None:
    assert _print_run(argparse.Namespace(json=False), _run(), "Saved as run 1.") == 0
    out = capsys.readouterr().out.splitlines()
    assert ("  the link queues 6 ms under upload from the Pi (Pi → PC), 1 probe in 20 over 11 "
            "ms: mild") in out  # fmt: skip


def test_the_words_under_the_run_fit_too(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # the same walk, a run measured with tuning kept: its last line was 150 columns (stderr)
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setattr(fit_module, "_is_terminal", lambda stream: True)
    saved = ("Saved as run 2 in the history.\nTuning: tuning applied 2026-11-30 15:37 (2 tweaks, "
             "kept).\nMeasured with tuning in force (Receive packet steering (RPS) with flow "
             "steering (RFS), CPU frequency governor: performance): this run is not a "
             "baseline.")  # fmt: skip
    assert _print_run(argparse.Namespace(json=False), _run(), saved) == 0
    err = capsys.readouterr().err.splitlines()
    assert max(len(line) for line in err) < 80, err
    assert " ".join(" ".join(err).split()) == " ".join(saved.split())
