"""Latency under load (sbctune.measure.latency): a queue that fills while the Pi sends or
receives is a finding; when it is the Pi's own sending that queues, a fair-queueing AQM as the
Pi's qdisc is the remedy bufferbloat.net gives (fq_codel or cake), with BQL for the queue the
driver keeps below the qdisc.

Only from grade B down (30 ms added and more, DSLReports' steps): a few ms of queue on a
gigabit link is what any FIFO of a Pi's txqueuelen holds and nothing a user notices.
"""

from __future__ import annotations

from sbctune.advice.measured_base import NicAdvisorBase
from sbctune.measure.latency.stats import LOAD_WORDS, LatencyResult, results

NOTICEABLE_MS = 30.0  # the end of grade A
SOURCES = ["bufferbloat-grades", "bufferbloat-sqm", "linux-queueing-bql"]


def _cite(result: LatencyResult, run_id: int | None) -> str:
    run = f", run {run_id}" if run_id is not None else ""
    return (
        f"latency under {LOAD_WORDS.get(result.key, result.key)}: idle {result.idle.text()}; "
        f"loaded {result.loaded.text()}{run}"
    )


class LatencyChecks(NicAdvisorBase):
    def latency_under_load(self) -> None:
        found = [
            r
            for r in results(self.runs.latency)
            if r.bloated or (r.added_ms is not None and r.added_ms >= NOTICEABLE_MS)
        ]
        if not found:
            return
        worst = max(found, key=lambda r: r.added_ms if r.added_ms is not None else 1e9)
        evidence = [_cite(r, self.runs.latency_run) for r in found]
        self.finding(
            "latency-under-load",
            "problem" if worst.bloated else "warning",
            worst.verdict()[:1].upper() + worst.verdict()[1:] + ". Calls, SSH and games over "
            f"{self.label} stall while it carries a transfer.",
            evidence,
        )
        if any(r.key in ("half/pi_to_pc", "full", "full_throttled") for r in found):
            self.recommend(
                "setting",
                "Use fq_codel (or cake) as the Pi's qdisc",
                f"The queue fills while the Pi sends. A fair-queueing AQM keeps each flow's "
                f"queue short: try “sudo tc qdisc replace dev {self.label} root fq_codel” (or "
                "“cake bandwidth <rate>” just under the measured rate), measure again, and keep "
                "it with net.core.default_qdisc=fq_codel in /etc/sysctl.d/. What the driver "
                "queues below the qdisc only shrinks with BQL (byte queue limits) in the driver "
                "or smaller TX rings (ethtool -G).",
                "latency under load, not throughput: the added delay should drop to a few ms",
                None,
                None,
                SOURCES,
                evidence,
            )
