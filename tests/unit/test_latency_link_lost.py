"""The probes of a test whose link was lost are left out of the run's latency (walk19: on
pi5-macb the lab's link went down for 4 s in Measure again; the PC → Pi probes sent meanwhile
went unanswered and the run's latency read "98 % of the probes got no answer within 2 s: the
link holds or drops them: bufferbloat", grade F, in Results and every export).

The Pi's side is a stand-in process handing over the probe's own lines, as in
tests/unit/test_latency_first_probe.py."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from sbctune.measure.latency.during import LatencyMonitor, LiveLatency
from sbctune.measure.latency.stats import results
from sbctune.measure.plans import plan_named

ANSWERED = ["sbctune-latency 1"] + [f"r {i} {i * 100.0} 0.5" for i in range(12)]
UNANSWERED = (
    ["sbctune-latency 1"]
    + [f"r {i} {i * 100.0} 0.5" for i in range(3)]
    + [f"l {i} {i * 100.0}" for i in range(3, 40)]
)


class _Ran:
    ok = True


class _Process:
    def __init__(self, lines: list[str]) -> None:
        self._lines = lines

    async def lines(self) -> AsyncIterator[str]:
        for line in self._lines:
            yield line

    async def wait(self) -> int:
        return 0

    async def cancel(self) -> None:
        return None


class _Session:
    def __init__(self) -> None:
        self.outputs = [ANSWERED, UNANSWERED]

    async def run(self, argv: list[str], timeout: float = 0) -> _Ran:
        return _Ran()

    async def start(self, argv: list[str], stdin: Any = None) -> _Process:
        return _Process(self.outputs.pop(0))


async def _two_trials(link_lost_in_second: bool) -> dict[str, Any]:
    seen: list[LiveLatency] = []
    spec = plan_named("quick").tests[0]
    monitor = LatencyMonitor(_Session(), "127.0.0.1", None, seen.append, idle_s=0.05)  # type: ignore[arg-type]
    async with monitor.around(0, spec):
        pass
    first = {k: dict(v) for k, v in monitor.record["groups"].items()}
    async with monitor.around(1, spec):
        pass
    if link_lost_in_second:
        monitor.forget_last_trial()
    return {"first": first, "record": monitor.record}


async def test_a_stopped_tests_probes_are_left_out_with_a_note() -> None:
    got = await _two_trials(link_lost_in_second=True)
    record = got["record"]
    assert {k: dict(v) for k, v in record["groups"].items()} == got["first"]
    assert not any(r.loaded.loss_pct > 50 for r in results(record))
    assert any("left out" in note and "link" in note for note in record["notes"])


async def test_without_a_stop_the_unanswered_probes_count() -> None:
    record = (await _two_trials(link_lost_in_second=False))["record"]
    # The same probes, with no stop, are what the run measured: mostly lost under load.
    assert any(r.loaded.loss_pct > 50 for r in results(record))
