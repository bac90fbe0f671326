"""The s17 walk, tuning on trial (Pi 3 B+ lan78xx, losing segments): Results still recommended
"Larger socket buffers", applied and on trial, and the lost-segments text still spoke of
overrun receive rings, which lan78xx cannot change (no set_ringparam). A tweak recommendation
names only tweaks not in force and within the driver's reach, in its title and in its why."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from sbctune.advice import advise
from sbctune.advice.inspect import inspect_bundle
from sbctune.catalog import load_catalog
from sbctune.history.records import Interval, RunRecord, TestRecord
from sbctune.inventory.model import Inventory, Nic, Recommendation
from sbctune.tuning.words import tweak_title

PROFILES = Path(__file__).resolve().parents[2] / "resources" / "lab" / "profiles"

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


# --- a recommendation built before the tuning was known (the inventory's, or a measured
# figure's) follows the same rule: its tweaks in force leave its title, why and gain too ---

SEED_000 = RunRecord(
    1, dt.datetime(2024, 1, 1, tzinfo=dt.timezone.utc), "thorough", nic="eth1", id=1,
    complete=True,
    tests=[TestRecord(direction=d, mode=m, mean_mbps=v) for d, m, v in (  # type: ignore[arg-type]
        ("pi_to_pc", "half", 736), ("pc_to_pi", "half", 949),
        ("pi_to_pc", "full", 163), ("pc_to_pi", "full", 902))],
)  # fmt: skip


def _seed_000(tuning: object = None) -> list[Recommendation]:
    inventory = inspect_bundle(PROFILES / "pi4-ax88179")
    inventory.nic("eth1").link_speed_mbps = 1000  # type: ignore[union-attr]
    return advise(inventory, [SEED_000], load_catalog(), tuning).recommendations


def test_the_clock_in_force_leaves_the_over_clock_advice_to_the_governor_alone() -> None:
    before = next(r for r in _seed_000() if r.title == "Raise the CPU clock (over-clock)")
    assert before.tweak_ids == ["boot-arm-freq", "cpu-governor-performance"]
    kept = {"tweaks": [{"id": "boot-arm-freq", "status": "already"}]}
    recs = _seed_000(kept)
    assert not any("over-clock" in r.title for r in recs), [r.title for r in recs]
    (rec,) = [r for r in recs if r.tweak_ids == ["cpu-governor-performance"]]
    assert rec.tweak_ids == ["cpu-governor-performance"]
    assert rec.title == f"Tune the Pi: {tweak_title('cpu-governor-performance')}"
    words = (rec.title + rec.detail).lower()
    assert "clock (over-clock)" not in words and "config.txt" not in words, rec
    assert "performance governor" in rec.detail
    # the over-clock's measured gain (736 -> 834 in seed 000) was the clock's, not the governor's
    assert rec.expected_gain == "unknown until measured" and not rec.gain_high_mbps


def test_a_static_recommendation_with_all_its_tweaks_in_force_goes() -> None:
    kept = {
        "tweaks": [
            {"id": "boot-arm-freq", "status": "applied"},
            {"id": "cpu-governor-performance", "status": "already"},
        ]
    }
    assert not any("boot-arm-freq" in r.tweak_ids for r in _seed_000(kept))


def test_recommendations_worded_anew_read_in_plain_words() -> None:
    """Whatever tweak is in force, what a recommendation shows (title, why, gain, sources)
    reads as plain words: a recommendation worded anew for the tweaks left once cited the
    catalogue's notes ('Source: seed 000 (...), results table'; CI after s17)."""
    from sbctune.tuning import catalog
    from tests.plain_words import jargon

    before = {r.title for r in _seed_000()}
    reworded = 0
    for tweak in catalog.load_tweaks():
        recs = _seed_000({"tweaks": [{"id": tweak.id, "status": "applied"}]})
        reworded += sum(r.title not in before for r in recs)
        for rec in recs:
            for text in (rec.title, rec.detail, rec.expected_gain or "", *rec.sources):
                assert not jargon(text), (tweak.id, text)
    assert reworded, "no recommendation was worded anew: the check read nothing new"
