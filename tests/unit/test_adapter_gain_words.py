"""The "Expected" line of a faster adapter is a figure a user reads as a heading (the s12 walk on
cm4-i340-igb: "Expected: from 946 to ~2350 Mbit/s (Realtek r8125 9.007.01 installed with
raspberrypi-kernel-headers and ./autorun.sh; 'regardless of other traffic on the PCIe bus')"):
the source's set-up notes stay in the evidence, the heading names the driver it was measured
with."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from sbctune.advice import advise
from sbctune.advice.inspect import inspect_bundle
from sbctune.catalog import load_catalog
from sbctune.history.records import RunRecord, TestRecord
from sbctune.inventory.model import Nic

PROFILES = Path(__file__).resolve().parents[2] / "resources" / "lab" / "profiles"


def test_faster_adapter_gain_is_a_figure_and_its_driver() -> None:
    inventory = inspect_bundle(PROFILES / "cm4-i340-igb")
    inventory.nics.append(Nic(name="eth1", driver="igb", bus="pci", link_speed_mbps=1000))
    run = RunRecord(
        device_id=1, started_at=dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc),
        plan_name="quick", nic="eth1", complete=True, id=1,
        tests=[TestRecord(direction="pi_to_pc", mode="half", mean_mbps=944),
               TestRecord(direction="pc_to_pi", mode="half", mean_mbps=937)],
    )  # fmt: skip
    advice = advise(inventory, [run], load_catalog())
    (rec,) = [r for r in advice.recommendations if r.kind == "adapter" and "RTL8125" in r.title]
    assert rec.expected_gain.startswith("from 944 to ~2350 Mbit/s")
    assert "r8125 driver" in rec.expected_gain
    assert "autorun" not in rec.expected_gain and "'" not in rec.expected_gain
    assert any("autorun" in e for e in rec.evidence)  # the source's set-up, kept as evidence
