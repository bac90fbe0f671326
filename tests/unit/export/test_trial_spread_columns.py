"""walk18: the CSV's `stdev_mbps` (the per-second readings' spread, ~15) sat beside
`samples=3` and trial means whose spread is ~2.3, read as the trials' spread. Each spread now
has a name that says which it is; the JSON keeps its keys and adds the trials' spread."""

from __future__ import annotations

import csv
import datetime as dt
import json
import statistics
from pathlib import Path

from sbctune.export import export, gather
from sbctune.history import History
from sbctune.history.records import Interval, RunRecord, TestRecord

TRIALS = [722.0, 725.0, 727.5]  # three trials' means: spread ~2.8
SECONDS = [700.0, 745.0, 722.0, 703.0, 748.0, 725.0, 706.0, 749.0, 727.0]  # spread ~18


def _run(device_id: int) -> RunRecord:
    seconds = [Interval(float(t), v) for t, v in enumerate(SECONDS, 1)]
    test = TestRecord("pi_to_pc", "half", mean_mbps=statistics.fmean(TRIALS),
                      stdev_mbps=statistics.pstdev(SECONDS), trial_means=list(TRIALS),
                      intervals=seconds)  # fmt: skip
    return RunRecord(device_id, dt.datetime(2026, 11, 29, tzinfo=dt.timezone.utc), "quick",
                     nic="eth1", complete=True, tests=[test])  # fmt: skip


def test_each_spread_is_named_for_what_it_is(tmp_path: Path) -> None:
    with History.open(tmp_path / "h.sqlite3") as history:
        device = history.add_device("pi", 22, "pi")
        assert device.id is not None
        data = gather(history, [history.save_run(_run(device.id))])
        path = export("csv", data, tmp_path / "r.csv")
        doc = json.loads(export("json", data, tmp_path / "r.json").read_text(encoding="utf-8"))
    with open(path, newline="", encoding="utf-8") as fh:
        row = next(csv.DictReader(fh))
    assert "stdev_mbps" not in row and "samples" not in row  # the names that misled
    assert row["trials"] == "3"
    assert float(row["trials_stdev_mbps"]) == round(statistics.stdev(TRIALS), 2)
    assert float(row["per_second_stdev_mbps"]) == round(statistics.pstdev(SECONDS), 2)
    assert float(row["per_second_stdev_mbps"]) > 5 * float(row["trials_stdev_mbps"])
    cell = doc["comparison"]["rows"][0]["cells"][0]
    assert cell["samples"] == 3 and cell["stdev_mbps"] == statistics.pstdev(SECONDS)
    assert cell["trials_stdev_mbps"] == statistics.stdev(TRIALS)
    assert doc["runs"][0]["tests"][0]["stdev_mbps"] == statistics.pstdev(SECONDS)
