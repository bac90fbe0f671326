"""The s17 walk, tuning on trial (Pi 3 B+ lan78xx, losing segments): Results still recommended
"Larger socket buffers", applied and on trial, and the lost-segments text still spoke of
overrun receive rings, which lan78xx cannot change (no set_ringparam). A tweak recommendation
names only tweaks not in force and within the driver's reach, in its title and in its why."""

from __future__ import annotations

import datetime as dt

from sbctune.advice import advise
from sbctune.catalog import load_catalog
from sbctune.history.records import Interval, RunRecord, TestRecord
from sbctune.inventory.model import Inventory, Nic, Recommendation

LOSSY = RunRecord(
    1, dt.datetime(2026, 11, 29, tzinfo=dt.timezone.utc), "quick", nic="eth0", id=1,
    complete=True,
    tests=[TestRecord(direction="pi_to_pc", mode="half", mean_mbps=300.0, retransmits=3600,
                      intervals=[Interval(float(t), 300.0) for t in range(1, 16)])],
)  # fmt: skip
ON_TRIAL = {"tweaks": [{"id": "socket-buffers", "status": "applied"}]}


def _lost_segments(driver: str, tuning: object = None) -> Recommendation:
    nic = Nic(name="eth0", driver=driver, bus="usb", link_speed_mbps=1000)
    advice = advise(Inventory(nics=[nic]), [LOSSY], load_catalog(), tuning)
    return next(r for r in advice.recommendations if "for this bottleneck" in r.title)


def test_a_tweak_on_trial_is_not_recommended_again_nor_named() -> None:
    before = _lost_segments("lan78xx")
    assert "Larger socket buffers" in before.title
    rec = _lost_segments("lan78xx", ON_TRIAL)
    assert "socket-buffers" not in rec.tweak_ids
    assert "socket buffers" not in (rec.title + rec.detail).lower(), rec
    assert "Energy-Efficient Ethernet off" in rec.title


def test_the_why_speaks_only_of_what_the_driver_can_change() -> None:
    lan78xx = _lost_segments("lan78xx")  # lan78xx_ethtool_ops: no set_ringparam
    assert "ring" not in (lan78xx.title + lan78xx.detail).lower(), lan78xx
    macb = _lost_segments("macb")  # macb_set_ringparam
    assert "NIC rings" in macb.title and "receive rings" in macb.detail
