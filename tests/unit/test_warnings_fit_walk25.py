"""Walk 25 in an 80-column terminal: `measure` on a Pi with tuning in force printed
"sbctune: warning: Tuning is in force on the Pi. In force now: ..." as one 218-column line on
standard error (the terminal cut it); sbctune's logged warnings went out whole as well. Both
are fit to the terminal now, between words, the continuation indented; a pipe keeps them whole."""

from __future__ import annotations

import logging

import pytest

from sbctune.cli import fit as fit_module
from sbctune.cli.in_force import _warn
from sbctune.cli.log_warnings import warnings_on_stderr

# the walk's words (cm4-i340-igb lab, two tuning sessions applied and kept)
SAID = (
    "Tuning is in force on the Pi. In force now: tuning applied 2026-11-30 22:47 (4 tweaks, "
    "kept): Receive packet steering (RPS) with flow steering (RFS), Transmit packet steering "
    "(XPS), CPU frequency governor: performance, Larger socket buffers and receive backlog."
)


def _a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setattr(fit_module, "_is_terminal", lambda stream: True)


def _said(err: str) -> str:
    return " ".join(err.split())


@pytest.mark.parametrize("how", ["in_force", "logged"])
def test_a_long_warning_fits_80_columns(
    how: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def say() -> None:
        if how == "in_force":
            _warn(SAID)
        else:
            with warnings_on_stderr():
                logging.getLogger("sbctune.walk25").warning(SAID)

    say()
    piped = capsys.readouterr().err
    assert len(piped.splitlines()) == 1  # a pipe: whole, for scripts
    _a_terminal(monkeypatch)
    say()
    lines = capsys.readouterr().err.splitlines()
    assert max(len(line) for line in lines) < 80, lines
    assert lines[0].startswith("sbctune: warning: Tuning is in force")
    assert all(line.startswith("  ") for line in lines[1:])
    assert _said("\n".join(lines)) == _said(piped)
