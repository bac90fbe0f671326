"""The command line's tables and reports say what the window says (the s12 walk): a test's mode
as "One way" / "Both ways" (sbctune.wording.MODE_WORDS, the one source), never "Half-duplex"
or "Full-duplex"; a rate in "Mbit/s", never "Mb/s" or "Gb/s" beside it. What the Pi printed
(a finding's evidence line) stays verbatim. `inspect` of the captured bundles and the lab's
profiles, the `measure` table (text and Markdown), the several-NIC table, the repeat's
run-to-run lines and the history's table are scanned."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from sbctune.cli.history_cmd import runs_table
from sbctune.cli.main import main as cli_main
from sbctune.compare.calibration import report_lines
from sbctune.export.tables import text as table_text
from sbctune.history.records import RunRecord, TestRecord
from sbctune.measure.aggregate import AggregateRun, aggregate_text
from sbctune.measure.outcome import DirectionOutcome, MeasureRun
from sbctune.measure.table import markdown, text
from sbctune.wording import MODE_WORDS
from tests.plain_words import stale_terms

ROOT = Path(__file__).resolve().parents[2]
BUNDLES = [
    *sorted((ROOT / "tests" / "captures" / "bundles").iterdir()),
    *sorted((ROOT / "resources" / "lab" / "profiles").iterdir()),
]
MODES = ("half", "full", "full_throttled")


def test_the_scan_sees_the_old_words_and_spares_evidence_and_quotes() -> None:
    assert len(stale_terms("Direction  Half-duplex  Full-duplex  Full (PC throttled)")) == 3
    assert stale_terms("eth0: 2.5 Gb/s link") == ["Gb/s: 'eth0: 2.5 Gb/s link'"]
    assert stale_terms("      > Speed: 1000Mb/s") == []  # the Pi's own line, as evidence
    assert stale_terms("source: Jeff Geerling, '5 Gbps Ethernet on the Pi'") == []
    assert stale_terms("1000 Mbit/s full duplex; Half duplex usually means a bad cable") == []


def _run() -> MeasureRun:
    run = MeasureRun(
        host="pi@198.18.0.2", nic="eth1", plan="thorough", endpoint="builtin",
        pc_address="198.18.0.1", pi_address="198.18.0.2", started="2026-11-29T04:00:00+00:00",
    )  # fmt: skip
    for mode, mbps in zip(MODES, (736.0, 163.0, 412.0), strict=True):
        for direction in ("pi_to_pc", "pc_to_pi"):
            run.tests.append(
                DirectionOutcome(direction, mode, mean_mbps=mbps, complete=True)  # type: ignore[arg-type]
            )
    return run


def test_the_measure_table_names_the_modes_as_the_window_does() -> None:
    run = _run()
    for shown in (text(run), markdown(run)):
        assert not stale_terms(shown), stale_terms(shown)
        header = shown.splitlines()[0]
        assert all(MODE_WORDS[m] in header for m in MODES), header


def test_the_several_nic_table_names_the_modes_as_the_window_does() -> None:
    agg = AggregateRun(
        id="a1", host="pi@198.18.0.2", plan="thorough", nics=["eth0", "eth1"],
        runs=[_run(), _run()], started="2026-11-29T04:00:00+00:00",
    )  # fmt: skip
    agg.runs[0].nic = "eth0"
    shown = aggregate_text(agg)
    assert not stale_terms(shown), stale_terms(shown)
    assert f"Pi → PC {MODE_WORDS['half']}" in shown.splitlines()[0]


def _record(mbps: float) -> RunRecord:
    return RunRecord(
        device_id=1, started_at=dt.datetime(2026, 11, 29, 4, 0, tzinfo=dt.timezone.utc),
        plan_name="quick", nic="eth1", complete=True, id=1,
        tests=[TestRecord(direction=d, mode=m, mean_mbps=mbps)  # type: ignore[arg-type]
               for m in ("half", "full") for d in ("pi_to_pc", "pc_to_pi")],
    )  # fmt: skip


def test_the_repeat_and_the_history_name_the_modes_as_the_window_does() -> None:
    lines = report_lines(_record(737.0), _record(735.0))
    assert lines and lines[0].startswith(f"Pi → PC, {MODE_WORDS['half']}: 737 then 735")
    history = table_text(runs_table([_record(737.0)]))
    assert MODE_WORDS["full"] in history.splitlines()[0], history  # was "Full Pi→PC/PC→Pi"
    shown = "\n".join([*lines, history])
    assert not stale_terms(shown), stale_terms(shown)


@pytest.mark.parametrize("bundle", BUNDLES, ids=[b.name for b in BUNDLES])
def test_inspect_says_mbit_s_and_plain_duplex(
    bundle: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cli_main(["inspect", str(bundle)])
    out = capsys.readouterr().out
    assert "NIC" in out or "Board" in out  # it did print the inventory
    assert not stale_terms(out), stale_terms(out)
