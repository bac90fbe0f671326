"""Walk 22: `sbctune compare` and the Markdown export of the four runs of `measure --all-nics`
(lab cm4-i340-igb: eth0 767.5, eth1 768.5, eth2 770.0, eth3 767.0 Mbit/s Pi → PC) gave
"run 7 vs run 4: −12 Mbit/s (−1.5 %)" between eth0 and eth3, a difference between ports that
reads as what tuning did, and "What changed on the Pi, run 4 → run 5". Runs of several NICs
are shown side by side with their NIC, with the total of the NICs measured together and no
change; runs of one NIC keep it."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from sbctune.history import History
from sbctune.history.records import RunRecord, TestRecord
from tests.lab_support import cli_run

FIGURES = {"eth0": (767.5, 767.0), "eth1": (768.5, 766.0), "eth2": (770.0, 765.5),
           "eth3": (767.0, 755.5)}  # fmt: skip


def _run(device_id: int, nic: str, minute: int, group: str | None) -> RunRecord:
    start = dt.datetime(2026, 11, 30, 12, minute, tzinfo=dt.timezone.utc)
    up, down = FIGURES[nic]
    return RunRecord(
        device_id=device_id, started_at=start, finished_at=start + dt.timedelta(seconds=8),
        plan_name="custom", nic=nic, endpoint_kind="builtin", complete=True,
        tests=[TestRecord("pi_to_pc", "half", mean_mbps=up, complete=True),
               TestRecord("pc_to_pi", "half", mean_mbps=down, complete=True)],
        aggregate_id=group,
    )  # fmt: skip


@pytest.fixture
def runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    monkeypatch.setenv("SBCTUNE_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("COLUMNS", raising=False)
    with History.open() as history:
        device = history.add_device("198.18.4.2", 22, "pi")
        assert device.id is not None
        ids = [history.save_run(_run(device.id, nic, 46, "agg")) for nic in FIGURES]
        ids.append(history.save_run(_run(device.id, "eth0", 50, None)))
    return ids


def test_compare_of_nics_measured_together_gives_no_change(
    runs: list[int], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = cli_run(["compare", *map(str, runs[:4])], capsys)
    assert code == 0, err
    assert "These runs measured different NICs (eth0, eth1, eth2, eth3)" in " ".join(out.split())
    assert " vs " not in out and "What changed on the Pi" not in out
    header = next(line for line in out.splitlines() if line.startswith("Direction"))
    titles = [f"run {i} {nic}" for i, nic in zip(runs, FIGURES, strict=False)]
    assert " ".join(header.split()[2:]) == " ".join(titles)
    assert "eth0 768 + eth1 768 + eth2 770 + eth3 767 = 3073 Mbit/s" in out


def test_compare_of_one_nic_keeps_the_change(
    runs: list[int], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = cli_run(["compare", str(runs[0]), str(runs[4])], capsys)
    assert code == 0, err
    assert f"run {runs[4]} vs run {runs[0]}" in out and "different NICs" not in out


def test_markdown_export_of_nics_measured_together_gives_no_change(
    runs: list[int], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = tmp_path / "report.md"
    code, _out, err = cli_run(["export", *map(str, runs[:4]), "-f", "md", "-o", str(report)],
                              capsys)  # fmt: skip
    assert code == 0, err
    text = report.read_text(encoding="utf-8")
    assert "Change against the first run" not in text and " vs run " not in text
    assert "These runs measured different NICs (eth0, eth1, eth2, eth3)" in text
    assert "= 3073 Mbit/s" in text


def test_html_export_of_nics_measured_together_gives_no_change(
    runs: list[int], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = tmp_path / "report.html"
    code, _out, err = cli_run(["export", *map(str, runs[:4]), "-f", "html", "-o", str(report)],
                              capsys)  # fmt: skip
    assert code == 0, err
    text = report.read_text(encoding="utf-8")
    assert "Change against the first run" not in text and "What changed on the Pi" not in text
    assert "These runs measured different NICs (eth0, eth1, eth2, eth3)" in text


def test_runs_measured_together_are_not_called_older_than_the_settings(
    runs: list[int], capsys: pytest.CaptureFixture[str]
) -> None:
    # eth0 measured together with the others, then eth0 alone (neither stored the settings)
    code, out, err = cli_run(["compare", str(runs[0]), str(runs[4])], capsys)
    assert code == 0, err
    said = " ".join(out.split())
    words = (f"(no settings stored with run {runs[0]}: measured with other NICs; the NIC's "
             "settings were not read back, only the tuning in force; "
             f"run {runs[4]}: measured before sbctune kept them)")  # fmt: skip
    assert words in said
