"""Walk 27: the HTML report exported while the tuning was on trial said "State: armed", the
guard's own word, where `history` and the app say "on trial under the guard" (and a reverted
session "reverted", where they say "put back"). Every export words a session's state as
`history` does (sbctune.history.run_tuning.RUN_STATE_WORDS); the playbook's refusal too."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from sbctune.errors import UserError
from sbctune.export import export, gather
from sbctune.history.run_tuning import RUN_STATE_WORDS
from tests.unit.export.seed_runs import seed_history


@pytest.mark.parametrize(("state", "words"), sorted(RUN_STATE_WORDS.items()))
def test_the_report_says_the_state_in_words(tmp_path: Path, state: str, words: str) -> None:
    history, ids = seed_history(tmp_path / "history.sqlite3")
    with history:
        data = gather(history, ids)
    data = dataclasses.replace(
        data, tuning_sessions=[dataclasses.replace(s, state=state) for s in data.tuning_sessions]
    )
    html = export("html", data, tmp_path / "report.html").read_text(encoding="utf-8")
    assert f"<dt>State</dt><dd>{words}</dd>" in html
    assert f"<dd>{state}</dd>" not in html


def test_the_playbook_refusal_says_the_state_in_words(tmp_path: Path) -> None:
    history, ids = seed_history(tmp_path / "history.sqlite3")
    with history:
        data = gather(history, ids)
    data = dataclasses.replace(
        data, tuning_sessions=[dataclasses.replace(s, state="armed") for s in data.tuning_sessions]
    )
    with pytest.raises(UserError) as caught:
        export("ansible", data, tmp_path / "play.yml")
    assert "(it is on trial under the guard)" in caught.value.message
    assert "armed" not in caught.value.message
