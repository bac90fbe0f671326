"""scripts/regen_tables.py, what the regen scripts share: a --check run writes nothing and says
whether the table is its source's; a source's problems write nothing; a row's values are
gathered once; a long table is its head then a row a line, still one JSON document."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from regen_tables import add_once, check_or_write, json_text, write_rows


def test_check_writes_nothing_and_says_whether_the_table_is_its_sources(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = tmp_path / "t.json"
    before = json_text({"a": 1})
    table.write_text(before, encoding="utf-8")
    assert check_or_write(table, before, json_text({"a": 1}), check=True) == 0
    assert check_or_write(table, before, json_text({"a": 2}), check=True) == 1
    assert capsys.readouterr().out.splitlines() == ["up to date", "t.json differs from its source"]
    assert table.read_text(encoding="utf-8") == '{\n "a": 1\n}\n'
    assert check_or_write(table, before, json_text({"a": 2}), check=False) is None
    assert table.read_text(encoding="utf-8") == '{\n "a": 2\n}\n'


def test_a_sources_problems_write_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = tmp_path / "t.json"
    assert check_or_write(table, "", json_text({}), check=False, problems=["gone"]) == 1
    assert not table.exists()
    assert capsys.readouterr().err == "gone\n"


def test_a_rows_values_are_gathered_once() -> None:
    row: dict[str, list[str]] = {"files": [], "series": []}
    for series in ("6.1", "6.12"):
        add_once(row, files="drivers/net/usb/r8152.c", series=series)
    assert row == {"files": ["drivers/net/usb/r8152.c"], "series": ["6.1", "6.12"]}


def test_a_long_table_is_one_json_document_with_a_row_a_line(tmp_path: Path) -> None:
    path = tmp_path / "rows.json"
    rows = [["BCM2711", ["brcm,bcm2711"]], ["Atmel SAMA5", []]]
    write_rows(path, {"about": "x"}, "machines", rows, columns=["name", "compatible"])
    text = path.read_text(encoding="utf-8")
    assert json.loads(text) == {"about": "x", "columns": ["name", "compatible"], "machines": rows}
    assert '\n["BCM2711", ["brcm,bcm2711"]],\n' in text
