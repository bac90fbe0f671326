"""UDP tests in the HTML report (worded as the Markdown export words them) and in comparisons:
per direction the rate received, jitter and loss, their change against the first run when
both were paced at the same target, and "not compared" when the targets differ."""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from sbctune.cli.main import main
from sbctune.compare import compare
from sbctune.compare.udp import udp_rows
from sbctune.export import export, gather
from sbctune.export.tables import comparison_table, text
from sbctune.history import History
from sbctune.history.records import UdpRecord
from tests.unit.export.seed_runs import seed_run

BEFORE = [
    UdpRecord("pi_to_pc", 50.0, 48.0, 0.012, 523, 13389, 3.9, None, True),
    UdpRecord("pc_to_pi", 50.0, 49.9, 0.147, 3, 10344, 0.029, 2, True),
]
AFTER = [  # tuned: the Pi -> PC loss gone, PC -> Pi a little more jitter
    UdpRecord("pi_to_pc", 50.0, 49.8, 0.010, 5, 13390, 0.04, None, True),
    UdpRecord("pc_to_pi", 50.0, 49.9, 0.2, 4, 10344, 0.039, 0, True),
]
OTHER_TARGET = [UdpRecord("pi_to_pc", 80.0, 79.0, 0.02, 100, 21000, 0.48, None, True)]


@pytest.fixture
def history(tmp_path: Path) -> Iterator[History]:
    with History.open(tmp_path / "h.sqlite3") as h:
        yield h


def _save(history: History, udp: list[UdpRecord], minutes: int) -> int:
    device = history.add_device("pi", 22, "pi")
    assert device.id is not None
    run = seed_run("ax88179", 1500, device.id, minutes=minutes)
    run.udp = udp
    return history.save_run(run)


def test_html_report_lists_the_udp_tests_as_the_markdown_does(
    history: History, tmp_path: Path
) -> None:
    run_id = _save(history, BEFORE, 0)
    data = gather(history, [run_id])
    page = export("html", data, tmp_path / "r.html").read_text(encoding="utf-8")
    markdown = export("md", data, tmp_path / "r.md").read_text(encoding="utf-8")
    assert "<h3>UDP, paced (the receiver's figures)</h3>" in page
    items = re.findall(r"<li>(run \d+: [^<]*(?:Pi|PC) → [^<]*)</li>", page)
    assert items == [
        f"run {run_id}: Pi → PC at 50 Mbit/s: 48.0 Mbit/s received, jitter 0.012 ms, loss 3.90 % "
        "(523 of 13389 datagrams)",
        f"run {run_id}: PC → Pi at 50 Mbit/s: 49.9 Mbit/s received, jitter 0.147 ms, loss 0.03 % "
        "(3 of 10344 datagrams), 2 out of order",
    ]
    for item in items:  # the same words as the Markdown export's list
        assert f"- {item}" in markdown


def test_html_report_without_udp_tests_has_no_udp_section(history: History, tmp_path: Path) -> None:
    data = gather(history, [_save(history, [], 0)])
    assert "UDP, paced" not in export("html", data, tmp_path / "r.html").read_text(encoding="utf-8")


def test_compare_gives_udp_changes_at_the_same_target(history: History) -> None:
    ids = [_save(history, BEFORE, 0), _save(history, AFTER, 10)]
    comparison = compare([history.run(i) for i in ids])
    pi_to_pc, pc_to_pi = comparison.udp
    cell = pi_to_pc.cells[1]
    assert cell is not None and cell.compared
    assert cell.delta_received_mbps == pytest.approx(1.8)
    assert cell.delta_loss_points == pytest.approx(0.04 - 3.9)
    header, rows = comparison_table(comparison)
    udp = [r for r in rows if r[1] == "UDP at 50 Mbit/s"]
    assert udp[0] == [
        "Pi → PC", "UDP at 50 Mbit/s", "48.0 Mbit/s, jitter 0.012 ms, loss 3.90 %",
        "49.8 Mbit/s, jitter 0.010 ms, loss 0.04 %",
        "received +1.8 Mbit/s, jitter −0.002 ms, loss −3.86 points",
    ]  # fmt: skip
    assert udp[1][0] == "PC → Pi" and udp[1][4].endswith("jitter +0.053 ms, loss +0.01 points")
    assert all(len(r) == len(header) for r in udp)
    assert pc_to_pi.cells[1] is not None
    assert "udp" in json.loads(json.dumps(comparison.to_json()))


def test_compare_says_when_the_targets_differ(history: History) -> None:
    ids = [_save(history, BEFORE, 0), _save(history, OTHER_TARGET, 10)]
    rows = udp_rows([history.run(i) for i in ids])
    table = text(comparison_table(compare([history.run(i) for i in ids])))
    line = next(ln for ln in table.splitlines() if ln.startswith("Pi → PC") and "UDP" in ln)
    assert "at 80 Mbit/s: 79.0 Mbit/s" in line
    assert "not compared: paced at 80 Mbit/s, the first run at 50" in line
    assert rows[0].cells[1] is not None and not rows[0].cells[1].compared
    assert rows[1].cells[1] is None  # the second run had no PC -> Pi UDP test
    pc_line = next(ln for ln in table.splitlines() if ln.startswith("PC → Pi") and "UDP" in ln)
    assert "no UDP test" in pc_line


def test_runs_without_udp_give_no_udp_rows(history: History) -> None:
    ids = [_save(history, [], 0), _save(history, [], 10)]
    assert compare([history.run(i) for i in ids]).udp == []


def test_cli_compare_and_exports_show_the_udp_rows(
    history: History, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    ids = [_save(history, BEFORE, 0), _save(history, OTHER_TARGET, 10), _save(history, AFTER, 20)]
    monkeypatch.setenv("SBCTUNE_DATA_DIR", str(tmp_path / "data"))
    with History.open() as cli_history:  # the CLI's own history, in SBCTUNE_DATA_DIR
        device = cli_history.add_device("pi", 22, "pi")
        assert device.id is not None
        for i in ids:
            run = history.run(i)
            run.id, run.device_id = None, device.id
            cli_history.save_run(run)
    assert main(["compare", "1", "2", "3"]) == 0
    out = capsys.readouterr().out
    assert "not compared: paced at 80 Mbit/s, the first run at 50" in out
    assert "received +1.8 Mbit/s, jitter −0.002 ms, loss −3.86 points" in out
    assert "compared only at the same target rate" in out
    data = gather(history, ids)
    page = export("html", data, tmp_path / "c.html").read_text(encoding="utf-8")
    assert "received +1.8 Mbit/s, jitter −0.002 ms, loss −3.86 points" in page
    assert "not compared: paced at 80 Mbit/s" in page
    md = export("md", data, tmp_path / "c.md").read_text(encoding="utf-8")
    assert "| Pi → PC | UDP at 50 Mbit/s | 48.0 Mbit/s, jitter 0.012 ms, loss 3.90 % |" in md
    with open(export("csv", data, tmp_path / "c.csv"), newline="", encoding="utf-8") as fh:
        udp = [r for r in csv.DictReader(fh) if r["mode"] == "udp"]
    by_run = {(r["run_id"], r["direction"]): r for r in udp}
    third = by_run[(str(ids[2]), "pi_to_pc")]
    assert third["delta_mbps"] == "1.80" and "loss −3.86 points" in third["verdict_text"]
    assert by_run[(str(ids[1]), "pi_to_pc")]["delta_mbps"] == ""  # another target: no change
