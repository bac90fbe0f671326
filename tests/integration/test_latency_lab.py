"""Latency under load on the virtual Pi lab: the Pi's probes (our program under the lab's real
python3, over real SSH) to this PC's responder show the shaped link's queue while a test loads
it, and none on the idle link before it.

The pi1b-smsc95xx profile (94 Mbit/s each way) is used on purpose: even a busy 2-core machine
fills its link, so its 1000-frame queue (~130 ms full, app/lab/shaping.py) builds for real.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sbctune.measure.latency import during
from sbctune.measure.latency.during import LiveLatency
from sbctune.measure.latency.stats import results, trial_added
from sbctune.measure.plans import plan_named
from sbctune.measure.runner import Event, measure
from tests.lab_support import connect_to_lab

pytestmark = [pytest.mark.lab]

PLAN = plan_named("quick").with_overrides(duration=4, omit=1, streams=4, trials=1)


async def test_a_loaded_link_shows_added_latency_and_an_idle_one_does_not(
    lab_factory: Any, tmp_path: Path
) -> None:
    lab = lab_factory(profile="pi1b-smsc95xx")
    events: list[Event] = []
    async with await connect_to_lab(lab, tmp_path) as session:
        run = await measure(session, PLAN, nic=lab.test_nic.name, on_event=events.append)
    assert run.complete
    found = {r.key: r for r in results(run.latency)}
    assert set(found) == {"half/pi_to_pc", "half/pc_to_pi"}, run.latency
    for key, result in found.items():
        idle, loaded = result.idle, result.loaded
        # ~20 idle probes (2 s at 10/s) and ~40 loaded (4 s), nearly all answered.
        assert idle.count >= 12 and loaded.count >= 25, (key, idle, loaded)
        assert idle.p50 is not None and loaded.p50 is not None
        # Idle: no queue. Its round trip is the machine's scheduling (0.3 ms quiet, ~8 ms with
        # other work), never the ~130 ms a full queue holds nor half the loaded one.
        assert idle.p50 < 20.0 and idle.p50 < loaded.p50 / 2, (key, idle, loaded)
        # Loaded: the queue in front of the 94 Mbit/s link holds up to ~130 ms; TCP keeps part
        # of it filled (17 to 30 ms measured). A probe that skips the queue (the lab's small
        # packet class did) measures ~idle and fails here.
        print(f"{key}: idle {idle.text()}; loaded {loaded.text()}")  # the figures, with -s
        assert result.added_ms is not None and result.added_ms > 5.0, (key, idle, loaded)
        assert "the link queues" in result.verdict()
        # Each trial's own added latency is kept too (the keep rule's interval): one trial here.
        (trial,) = trial_added(run.latency, key)
        assert trial == pytest.approx(result.added_ms, abs=0.01)
    live = [e for e in events if isinstance(e, LiveLatency)]
    idle_live = [e for e in live if e.phase == "idle" and e.rtt_ms is not None]
    loaded_live = [e for e in live if e.phase == "loaded" and e.rtt_ms is not None]
    assert idle_live and loaded_live
    assert all(e.t <= 0 for e in idle_live) and all(e.t > 0 for e in loaded_live)  # t rounded


async def test_a_pi_without_python3_still_measures_throughput_and_says_why(
    lab_factory: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The interpreter's name is the one thing changed: `exec` finds no such program on the
    # lab's real shell and exits 127, as on a Pi without python3.
    monkeypatch.setattr(during, "PROBE_ARGV", ("python3-not-installed", "-"))
    lab = lab_factory(profile="pi4-ax88179")
    async with await connect_to_lab(lab, tmp_path) as session:
        run = await measure(session, PLAN, nic=lab.test_nic.name)
    assert run.complete and all(t.mean_mbps for t in run.tests)
    assert run.latency is not None
    assert run.latency.get("notes") == [during.NO_PYTHON]
    assert results(run.latency) == []  # no empty "not enough probes" rows
