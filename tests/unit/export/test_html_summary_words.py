"""The HTML report's summary line agrees with its count (s11 walk: "1 of the changes against
run 1 are beyond noise")."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from sbctune.export import export, gather
from sbctune.history import History
from tests.unit.export.seed_runs import seed_history


@pytest.fixture
def seeded(tmp_path: Path) -> Iterator[tuple[History, list[int]]]:
    history, ids = seed_history(tmp_path / "history.sqlite3")
    yield history, ids
    history.close()


def test_summary_counts_agree(seeded: tuple[History, list[int]], tmp_path: Path) -> None:
    history, ids = seeded
    out = tmp_path / "r.html"
    export("html", gather(history, ids), out)
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", out.read_text(encoding="utf-8")))
    found = re.search(r"(\d+) of the (\d+) changes? against \S+ \S+ (is|are) beyond noise", text)
    assert found, text[:600]
    assert found[3] == ("is" if found[1] == "1" else "are")
