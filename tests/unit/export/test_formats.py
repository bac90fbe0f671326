"""Exports read back with the tools a user would use: csv, json, the Markdown of seed 000."""

from __future__ import annotations

import csv
import json
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest

from sbctune.advice.inspect import inspect_bundle
from sbctune.errors import UserError
from sbctune.export import ReportData, export, gather, register, unregister
from sbctune.history import History
from sbctune.inventory.bundle import read_bundle
from sbctune.resources import resource_root
from tests.unit.export.seed_runs import SEED_000, seed_history


@pytest.fixture
def seeded(tmp_path: Path) -> Iterator[tuple[History, list[int]]]:
    history, ids = seed_history(tmp_path / "history.sqlite3")
    yield history, ids
    history.close()


@pytest.fixture
def data(seeded: tuple[History, list[int]]) -> ReportData:
    history, ids = seeded
    return gather(history, ids)


def test_csv_has_one_row_per_run_direction_and_mode(data: ReportData, tmp_path: Path) -> None:
    path = export("csv", data, tmp_path / "runs.csv")
    with open(path, newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 4 * 6
    got = {(r["run_id"], r["direction"], r["mode"]): float(r["mean_mbps"]) for r in rows}
    for run_id, figures in zip(data.runs, SEED_000.values(), strict=True):
        for (direction, mode), mbps in figures.items():
            assert got[(str(run_id.id), direction, mode)] == mbps
    rtl = next(r for r in rows if r["run_id"] == str(data.runs[2].id) and r["mode"] == "half"
               and r["direction"] == "pi_to_pc")  # fmt: skip
    assert float(rtl["delta_mbps"]) == 213.0 and rtl["verdict"] == "unknown"


def test_json_holds_everything_with_a_schema_version(data: ReportData, tmp_path: Path) -> None:
    doc = json.loads(export("json", data, tmp_path / "all.json").read_text(encoding="utf-8"))
    assert doc["schema_version"] == 1
    assert [r["id"] for r in doc["runs"]] == [r.id for r in data.runs]
    assert doc["runs"][0]["tests"][0]["mean_mbps"] == 736
    nics = [n for inv in doc["inventories"].values() for n in inv["nics"]]
    chips = {n["chip"] for n in nics if n["chip"]}  # a NIC seen only in /proc/interrupts: unknown
    assert any("AX88179" in c for c in chips) and any("RTL8153" in c for c in chips)
    assert doc["tuning_sessions"][0]["data"]["id"] == "20220108T101000Z-a1b2c3"
    assert doc["comparison"]["rows"][0]["cells"][1]["delta_mbps"] == 98
    assert doc["recommendations"] and doc["advice_source"] == "advise"


def test_markdown_is_shaped_like_seed_000(data: ReportData, tmp_path: Path) -> None:
    text = export("md", data, tmp_path / "post.md").read_text(encoding="utf-8")
    lines = text.splitlines()
    assert "| Run | Direction | One way | Both ways | Both ways, PC held back |" in lines
    assert "|  | Pi → PC | 736 Mbit/s | 163 Mbit/s | 412 Mbit/s |" in lines  # seed line 129
    assert "|  | PC → Pi | 933 Mbit/s | 847 Mbit/s | 403 Mbit/s |" in lines  # seed line 175
    assert any(line.startswith("| Pi → PC | One way | 736 Mbit/s | 834 Mbit/s | +98")
               for line in lines)  # fmt: skip


def test_markdown_of_one_run_is_the_plain_seed_table(seeded: tuple[History, list[int]],
                                                     tmp_path: Path) -> None:  # fmt: skip
    history, ids = seeded
    text = export("md", gather(history, ids[:1]), tmp_path / "one.md").read_text(encoding="utf-8")
    assert "| Direction | One way | Both ways | Both ways, PC held back |" in text
    assert "| Pi → PC | 736 Mbit/s | 163 Mbit/s | 412 Mbit/s |" in text
    assert "vs run" not in text


def test_reports_name_the_modes_in_the_windows_words(data: ReportData, tmp_path: Path) -> None:
    """The walk: the reports said "Half-duplex" where the app says "One way" (one source)."""
    from sbctune.ui.mode_words import MODE_WORDS

    for fmt in ("md", "html"):
        text = export(fmt, data, tmp_path / f"r.{fmt}").read_text(encoding="utf-8")
        for stale in ("Half-duplex", "Full-duplex", "Full (PC throttled)"):
            assert stale not in text, (fmt, stale)
        assert all(words in text for words in MODE_WORDS.values()), fmt


def test_svg_charts_parse_as_xml(data: ReportData, tmp_path: Path) -> None:
    root = ET.parse(export("svg", data, tmp_path / "charts.svg")).getroot()
    texts = {t.text for t in root.iter("{http://www.w3.org/2000/svg}text")}
    assert {"736", "949", "163", "743"} <= texts


def test_png_without_the_gui_says_what_it_needs(data: ReportData, tmp_path: Path) -> None:
    unregister("png")
    with pytest.raises(UserError) as refused:
        export("png", data, tmp_path / "c.png")
    assert "PNG export needs the GUI libraries" in refused.value.hint
    assert not (tmp_path / "c.png").exists()


def test_the_registry_takes_a_renderer_from_another_layer(data: ReportData,
                                                          tmp_path: Path) -> None:  # fmt: skip
    def fake_png(report: ReportData, path: Path) -> Path:
        path.write_bytes(b"\x89PNG" + str(len(report.runs)).encode())
        return path

    register("png", fake_png)
    try:
        assert export("png", data, tmp_path / "c.png").read_bytes() == b"\x89PNG4"
    finally:
        unregister("png")


def test_bundle_without_raw_outputs_says_what_is_possible(data: ReportData,
                                                          tmp_path: Path) -> None:  # fmt: skip
    with pytest.raises(UserError) as refused:
        export("bundle", data, tmp_path / "pi.zip")
    assert "not the raw command outputs" in refused.value.message
    assert "sbctune collect root@lbox -o pi.zip" in refused.value.hint


def test_bundle_from_stored_raw_outputs_reads_back(data: ReportData, tmp_path: Path) -> None:
    profile = Path(str(resource_root() / "lab" / "profiles" / "pi4-ax88179"))
    original = read_bundle(profile)
    inventory_id = data.inventory_id_for(data.runs[-1])
    assert inventory_id is not None
    data.inventories[inventory_id]["raw"] = {
        "host": original.host, "commands": original.commands, "files": original.files,
        "exit_codes": original.exit_codes,
    }  # fmt: skip
    written = export("bundle", data, tmp_path / "pi.zip")
    again = read_bundle(written)
    assert again.commands == original.commands and again.files == original.files
    assert inspect_bundle(written).nic("eth1").chip == inspect_bundle(profile).nic("eth1").chip  # type: ignore[union-attr]


def test_unknown_format_and_missing_folder_are_user_errors(data: ReportData,
                                                           tmp_path: Path) -> None:  # fmt: skip
    with pytest.raises(UserError, match="Unknown export format"):
        export("docx", data, tmp_path / "x.docx")
    with pytest.raises(UserError, match="does not exist"):
        export("csv", data, tmp_path / "nope" / "x.csv")


def test_udp_figures_reach_csv_json_and_markdown(
    seeded: tuple[History, list[int]], tmp_path: Path
) -> None:
    from sbctune.history.records import UdpRecord

    history, ids = seeded
    run = history.run(ids[0])
    run.id = None
    run.udp = [UdpRecord("pc_to_pi", 50.0, 49.9, 0.147, 3, 10344, 0.029, 1, True)]
    udp_id = history.save_run(run)
    data = gather(history, [ids[0], udp_id])
    with open(export("csv", data, tmp_path / "r.csv"), newline="", encoding="utf-8") as fh:
        rows = [r for r in csv.DictReader(fh) if r["mode"] == "udp"]
    assert [
        (r["run_id"], r["direction"], r["jitter_ms"], r["lost"], r["packets"]) for r in rows
    ] == [(str(udp_id), "pc_to_pi", "0.147", "3", "10344")]
    doc = json.loads(export("json", data, tmp_path / "r.json").read_text(encoding="utf-8"))
    assert [r["udp"] for r in doc["runs"]][1][0]["out_of_order"] == 1
    text = export("md", data, tmp_path / "r.md").read_text(encoding="utf-8")
    assert (
        "PC → Pi at 50 Mbit/s: 49.9 Mbit/s received, jitter 0.147 ms, loss 0.03 % (3 of 10344"
        in text
    )


def test_the_method_line_says_which_server_in_words(seeded: tuple[History, list[int]]) -> None:
    """The reports said "builtin endpoint on the PC" (s10 walk): the reader gets words."""
    from sbctune.export.describe import method_line

    history, ids = seeded
    run = history.run(ids[0])
    assert method_line(run).endswith(", the iperf3 server on the PC")
    run.endpoint_kind = "builtin"
    assert method_line(run).endswith(", sbctune's built-in iperf3 server on the PC")
    assert "endpoint" not in method_line(run)
