"""`sbctune measure`'s live lines in an 80-column terminal (walk 24, the pi5-macb lab): each
second's line ran to 95 columns with "lab host busiest: cpu0 100% (irq+softirq 0%)", and the
terminal put "(irq+softirq 0%)" on a line of its own under every second. Each live line now
fits on one line (shorter words for the busiest core, then none); a pipe, or a terminal wide
enough, still gets the full words. Four NICs measured at once fit too."""

from __future__ import annotations

import pytest

from sbctune.cli import fit as fit_module
from sbctune.cli.measure_live import Progress, TogetherProgress
from sbctune.measure import plans
from sbctune.measure.aggregate import AggregateRun, AggregateStarted, NicEvent
from sbctune.measure.outcome import Interval
from sbctune.measure.run_events import LiveInterval, PiLoad
from sbctune.measure.sampler_data import CpuLoad, LabCpu, PiSample

SPEC = plans.TestSpec("half", ("pi_to_pc",), 10, 1, 4)


def _load(lab: bool) -> PiLoad:
    core = CpuLoad(0, 60.0, 0.0, 20.0, 4.0, 16.0, 0.0, 0.0, 0.0, 100.0)
    sample = PiSample(1.0, 1.0, 100.0, [core], [], [], [], None, None,
                      lab_cpu=LabCpu(2, 4) if lab else None)  # fmt: skip
    return PiLoad(sample)


def _live(t: float, mbps: float, omitted: bool = False) -> LiveInterval:
    return LiveInterval(0, SPEC, "pi_to_pc", Interval(t, mbps, omitted=omitted), clock_zero=0.0)


def _one_nic(capsys: pytest.CaptureFixture[str], lab: bool) -> list[str]:
    progress = Progress()
    progress(_load(lab))
    progress(_live(1.0, 2345.6, omitted=True))
    progress(_live(2.0, 941.0))
    return capsys.readouterr().err.splitlines()


def _terminal(monkeypatch: pytest.MonkeyPatch, columns: int) -> None:
    monkeypatch.setenv("COLUMNS", str(columns))
    monkeypatch.setattr(fit_module, "_is_terminal", lambda stream: True)


@pytest.mark.parametrize("lab", [True, False])
def test_each_second_is_one_line_in_80_columns(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], lab: bool
) -> None:
    _terminal(monkeypatch, 80)
    lines = _one_nic(capsys, lab)
    assert len(lines) == 2, lines  # one line per second, nothing wrapped under it
    assert all(len(line) < 80 for line in lines), lines
    whose = "lab host" if lab else "Pi"
    assert lines[0].endswith(f"2345.6 Mbit/s (omitted)  {whose} cpu0 100 % (irq 20 %)"), lines


def test_a_pipe_and_a_wide_terminal_keep_the_full_words(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    full = "941.0 Mbit/s   lab host busiest: cpu0 100 % (irq+softirq 20 %)"
    assert _one_nic(capsys, True)[1].endswith(full)  # a pipe
    _terminal(monkeypatch, 120)
    assert _one_nic(capsys, True)[1].endswith(full)


def test_four_nics_at_once_fit_80_columns(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _terminal(monkeypatch, 80)
    nics = ["eth0", "eth1", "eth2", "eth3"]
    progress = TogetherProgress()
    progress(AggregateStarted(AggregateRun("a", "pi", "quick", nics, [], "2026-11-30")))
    progress(_load(True))
    for n, nic in enumerate(nics):
        progress(NicEvent(nic, _live(1.0, 940.0 - n)))
    lines = capsys.readouterr().err.splitlines()
    assert lines == [lines[0]] and len(lines[0]) < 80, lines
    assert "eth0 940 eth1 939 eth2 938 eth3 937 total 3754 Mbit/s" in lines[0]
