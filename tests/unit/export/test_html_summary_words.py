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


def test_the_plan_table_has_one_row_per_test_with_its_trials(
    seeded: tuple[History, list[int]], tmp_path: Path
) -> None:
    """Walk 18: "How it was measured" listed every trial as a row of its own, the same test
    over and over with nothing to tell the rows apart (the thorough plan: 20 rows of 4 tests)."""
    history, ids = seeded
    out = tmp_path / "r.html"
    export("html", gather(history, ids), out)
    html = out.read_text(encoding="utf-8")
    table = html[html.index("<th>Test</th>") :]
    table = table[: table.index("</table>")]
    assert "<th>Trials</th>" in table
    rows = [re.sub(r"<[^>]+>", "|", r) for r in table.split("<tr>")[1:]]
    assert len(rows) == 4, rows  # one way each way, both at once, both at once PC-capped
    assert all(r.rstrip("|").endswith("|5") for r in rows), rows  # 5 trials each
