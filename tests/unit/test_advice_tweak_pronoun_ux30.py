"""A recommendation to apply tweaks says "it" for one and "them" for several (the ux30 walk on
the lab: "Tune the Pi for this bottleneck: Energy-Efficient Ethernet off … Apply them with the
tuning step")."""

from __future__ import annotations

import datetime as dt

from sbctune.advice import advise
from sbctune.catalog import load_catalog
from sbctune.history.records import Interval, RunRecord, TestRecord
from sbctune.inventory.model import Inventory, Nic


def _tweak_texts(in_force: list[str]) -> list[str]:
    inventory = Inventory(nics=[Nic(name="eth0", link_speed_mbps=1000)])
    intervals = [Interval(float(t), 800.0) for t in range(1, 11)]
    run = RunRecord(
        1, dt.datetime(2024, 1, 1, tzinfo=dt.timezone.utc), "quick", nic="eth0", id=7,
        tests=[TestRecord(direction="pi_to_pc", mode="half", mean_mbps=800.0,
                          retransmits=5000, intervals=intervals)],
    )  # fmt: skip
    tuning = {"tweaks": [{"id": t, "status": "applied"} for t in in_force]}
    advice = advise(inventory, [run], load_catalog(), tuning)
    return [r.title + " | " + r.detail for r in advice.recommendations if r.kind == "tweak"]


def test_one_tweak_is_it_several_are_them() -> None:
    several = _tweak_texts([])
    # as on the lab: the socket buffers on trial, the rings out of the driver's reach
    one = _tweak_texts(["socket-buffers", "nic-rings", "flow-control"])
    assert several and one, "the retransmits bottleneck recommends tweaks"
    assert any("Apply it " in text for text in one), one
    for text in several + one:
        title, detail = text.split(" | ", 1)
        several = "," in title.split(": ", 1)[1]
        assert ("Apply them" if several else "Apply it") in detail, text
