"""The first latency probes can arrive in the same read as the probe's header (seen on the lab:
the idle dots began at -inf seconds, and pyqtgraph painted them with numpy's "invalid value"
RuntimeWarning). When the load starts is known from the header on, so every live probe has a
finite time on the plot's axis: before the test (idle, negative) or after its start.

The Pi's side is a stand-in process that hands over its lines at once (the probe's own
format, as tests/unit/test_latency.py reads it); the lab test
tests/gui/test_wizard_lab.py runs the real probe over real SSH."""

from __future__ import annotations

import math
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from sbctune.measure.latency.during import LatencyMonitor, LiveLatency
from sbctune.measure.plans import plan_named

# The probe's header, then probes 0-2 at 0, 100 and 200 ms: all in one read.
LINES = ["sbctune-latency 1", "r 0 0.0 0.475", "r 1 100.0 0.512", "l 2 200.0"]


@dataclass
class _Ran:
    ok: bool = True


class _BurstProcess:
    """A process whose output is all there at once (one read), then ends."""

    async def lines(self) -> AsyncIterator[str]:
        for line in LINES:
            yield line

    async def wait(self) -> int:
        return 0

    async def cancel(self) -> None:
        return None


class _Session:
    async def run(self, argv: list[str], timeout: float = 0) -> _Ran:
        return _Ran()

    async def start(self, argv: list[str], stdin: Any = None) -> _BurstProcess:
        return _BurstProcess()


async def test_probes_read_with_the_header_have_a_finite_time() -> None:
    seen: list[LiveLatency] = []
    spec = plan_named("quick").tests[0]
    monitor = LatencyMonitor(_Session(), "127.0.0.1", None, seen.append, idle_s=0.3)  # type: ignore[arg-type]
    async with monitor.around(0, spec):
        pass
    assert [e.phase for e in seen] == ["idle", "idle", "idle"]
    assert all(math.isfinite(e.t) for e in seen), [e.t for e in seen]
    # sent 0, 0.1 and 0.2 s after the header; the load starts idle_s (0.3 s) after it
    assert [round(e.t, 1) for e in seen] == [-0.3, -0.2, -0.1]
