"""Benchmark: how often `compare` calls noise a change (A/A) and finds a real one (A/B).

On the virtual Pi lab (pi4-ax88179), each round measures a baseline run, applies the lab's
modelled tuning (performance governor + RPS on eth1: Pi → PC 736 → 834 Mbit/s; PC → Pi
unchanged) under the guard, measures a tuned run, and reverts. Pairs:
  - A/A: consecutive baseline runs, and consecutive tuned runs (nothing changed between);
  - A/B: each round's baseline vs tuned run, Pi → PC (the modelled effect);
  - A/B': the same pair, PC → Pi (no modelled effect: must not be called a change).
Prints, per kind, how many verdicts were "no change detected", "faster/slower" and "too
noisy". Bar (issue 15): A/A "no change detected" ≥ 19 in 20; the modelled Pi → PC gain
detected ≥ 19 in 20. Run as root on Linux (about 100 s per round with the quick plan):

    .venv/bin/python tests/bench/bench_noise.py [--rounds 8] [--plan quick]
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import itertools
import tempfile
from pathlib import Path

from sbctune import lab, tuning
from sbctune.advice.inspect import inspect_host
from sbctune.compare import compare
from sbctune.history import History
from sbctune.history.records import RunRecord
from sbctune.measure.plans import plan_named
from sbctune.remote import KnownHosts, Secret, Session, Target
from sbctune.workflow.measuring import MeasureRequest, measure_and_keep

TWEAKS = ("cpu-governor-performance", "rps-rfs")
NAME = "p-bench-noise"


def verdict(first: RunRecord, second: RunRecord, direction: str) -> str:
    row = compare([first, second]).row(direction, "half")  # type: ignore[arg-type]
    return row.cells[1].verdict if row is not None else "missing"


async def rounds(session: Session, history: History, nic: str, count: int, plan_name: str
                 ) -> tuple[list[RunRecord], list[RunRecord]]:  # fmt: skip
    inventory, _ = await inspect_host(session)
    request = MeasureRequest(plan_named(plan_name), nic=nic)
    base, tuned = [], []
    for i in range(count):
        base.append((await measure_and_keep(session, history, request)).record)
        plan = await tuning.plan(session, inventory, nic, TWEAKS)
        applied = await tuning.apply(session, plan, guard_seconds=120)
        try:
            tuned.append((await measure_and_keep(session, history, request)).record)
        finally:
            await tuning.revert(session, applied.id)
        print(f"round {i + 1}/{count}: base {_figures(base[-1])}; tuned {_figures(tuned[-1])}",
              flush=True)  # fmt: skip
    return base, tuned


def _figures(run: RunRecord) -> str:
    return ", ".join(
        f"{t.direction} {t.mean_mbps:.0f} {[round(m) for m in t.trial_means]}"
        for t in run.tests
        if t.mean_mbps is not None
    )


def report(base: list[RunRecord], tuned: list[RunRecord]) -> None:
    kinds: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for runs in (base, tuned):
        for a, b in itertools.pairwise(runs):
            for direction in ("pi_to_pc", "pc_to_pi"):
                kinds["A/A (nothing changed)"][verdict(a, b, direction)] += 1
    for a, b in zip(base, tuned, strict=True):
        kinds["A/B Pi → PC (modelled +98)"][verdict(a, b, "pi_to_pc")] += 1
        kinds["A/B PC → Pi (no effect)"][verdict(a, b, "pc_to_pi")] += 1
    for kind, counts in kinds.items():
        total = sum(counts.values())
        parts = ", ".join(f"{v} {n}/{total}" for v, n in counts.most_common())
        print(f"{kind}: {parts}")
    aa = kinds["A/A (nothing changed)"]
    ab = kinds["A/B Pi → PC (modelled +98)"]
    fp = (aa["faster"] + aa["slower"]) / max(1, sum(aa.values()))
    print(f"false-positive rate (A/A called a change): {fp:.1%}")
    detected = ab["faster"] / max(1, sum(ab.values()))
    print(f"detection rate (modelled gain called faster): {detected:.1%}")


async def main(count: int, plan_name: str) -> None:
    info = lab.up("pi4-ax88179", name=NAME)
    try:
        target = Target(info.host, info.port, info.user, password=Secret(info.password))
        with tempfile.TemporaryDirectory() as tmp:
            known = KnownHosts(read_from=[], write_to=Path(tmp) / "kh")
            with History.open(Path(tmp) / "history.sqlite3") as history:
                async with await Session.connect(
                    target, known_hosts=known, accept_new_host_key=True
                ) as session:
                    base, tuned = await rounds(
                        session, history, info.test_nic.name, count, plan_name
                    )
    finally:
        lab.down(NAME)
    print(f"plan {plan_name}, {count} rounds")
    report(base, tuned)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--plan", default="quick")
    args = parser.parse_args()
    asyncio.run(main(args.rounds, args.plan))
