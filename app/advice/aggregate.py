"""Findings from NICs measured together (seed 004): does a shared bus cap their total?

Runs that share an `aggregate_id` were measured at the same time, one per NIC. When their sum
in a direction sits near what a PCIe Gen 2 x1 link carried in total (catalog: buses.json) while
each NIC measured alone does clearly more than its share, the NICs are capped together: adding
ports adds nothing. Figures measured alone come from the runs without an aggregate id.

The total is what passed TOGETHER: each NIC's figure over the time every NIC ran
(sbctune.measure.together, kept with each run); a run stored before those were kept adds each
NIC's own mean, as it did then.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sbctune.advice import thresholds as th
from sbctune.advice.evidence import cite
from sbctune.advice.measured import Measured
from sbctune.advice.runs import LABEL, MODE_LABEL, NicRuns
from sbctune.catalog import Catalog
from sbctune.catalog.model import Figure as BusFigure
from sbctune.history.records import Direction, Mode, RunRecord, TestRecord
from sbctune.inventory.model import Finding, Inventory, Nic, Recommendation
from sbctune.wording import percent

BUS = "pcie-gen2-x1"
# Together below this share of the sum alone: the NICs share a limit (run-to-run spread in the
# seeds is ~5%; seed 004: 3060 together against 5 x 940 = 4700 alone, 65%).
SHARED_RATIO = 0.90


@dataclass(frozen=True)
class Together:
    """One direction and mode of an aggregate: each NIC's figure and the sum."""

    direction: Direction
    mode: Mode
    per_nic: dict[str, float]
    run_ids: list[int | None]
    seconds: float | None = None  # how long every NIC ran together (None: an older record)
    longest_s: float | None = None

    @property
    def total(self) -> float:
        return sum(self.per_nic.values())

    def cite(self) -> str:
        parts = " + ".join(f"{nic} {mbps:.0f}" for nic, mbps in self.per_nic.items())
        runs = ", ".join(str(r) for r in self.run_ids if r is not None)
        shorter = ""
        if self.seconds is not None and self.longest_s and self.seconds < self.longest_s - 0.25:
            shorter = f" over the {self.seconds:.1f} s of {self.longest_s:.1f} s all NICs ran"
        return (
            f"together, {LABEL[self.direction]} ({MODE_LABEL[self.mode]}): {parts} = "
            f"{self.total:.0f} Mbit/s{shorter}" + (f" (runs {runs})" if runs else "")
        )


def latest_aggregate(runs: Sequence[RunRecord]) -> list[RunRecord]:
    """The runs of the most recent aggregate measurement (one per NIC), or []."""
    groups: dict[str, list[RunRecord]] = {}
    for run in runs:
        if run.aggregate_id:
            groups.setdefault(run.aggregate_id, []).append(run)
    if not groups:
        return []
    latest = max(groups.values(), key=lambda g: max((r.started_at, r.id or 0) for r in g))
    return sorted(latest, key=lambda r: r.id or 0)  # stored in the order the NICs were named


def together_figures(group: Sequence[RunRecord]) -> list[Together]:
    """Per direction and mode measured on every NIC of the group, with a figure for each:
    what each carried while all of them ran, or (records from before that was kept) each
    NIC's own mean."""
    keys: list[tuple[Direction, Mode]] = []
    for run in group:
        for test in run.tests:
            if (test.direction, test.mode) not in keys:
                keys.append((test.direction, test.mode))
    out = []
    for direction, mode in keys:
        tests: list[TestRecord | None] = [
            next((t for t in run.tests if (t.direction, t.mode) == (direction, mode)), None)
            for run in group
        ]
        timed = [t.together for t in tests if t is not None and t.together is not None]
        per_nic: dict[str, float] = {}
        for run, found in zip(group, tests, strict=True):
            if found is None or not run.nic:
                break  # a NIC without a figure: no total
            mbps = _figure(found, bool(timed))
            if mbps is None:
                break  # no figure, or the NICs never ran together: no total
            per_nic[run.nic] = mbps
        else:
            seconds = min((t.seconds for t in timed), default=None)
            longest = max((t.longest_s for t in timed), default=None)
            out.append(Together(direction, mode, per_nic, [r.id for r in group], seconds, longest))
    return out


def _figure(test: TestRecord, timed: bool) -> float | None:
    """A NIC's share of the total: over the time every NIC ran when the aggregate kept it,
    else (an older record) the NIC's own mean, as before."""
    if timed:
        return test.together.mbps if test.together is not None else None
    return test.mean_mbps


def _nic(inventory: Inventory, name: str) -> Nic:
    return inventory.nic(name) or Nic(name=name)


def aggregate_advice(
    inventory: Inventory,
    runs: Sequence[RunRecord],
    alone: dict[str | None, NicRuns],
    catalog: Catalog,
    out: Measured,
) -> None:
    """Add the aggregate's finding (and what it calls for) to `out`; `alone`: the per-NIC
    digest of the runs measured one NIC at a time."""
    group = latest_aggregate(runs)
    bus = catalog.bus(BUS)
    if len(group) < 2 or bus is None:
        return
    measured = bus.figures_named("measured_aggregate_mbps")
    encoded = bus.figure("encoded_mbps")
    if not measured:
        return
    cap = min(measured, key=lambda f: f.value)
    nics = [_nic(inventory, r.nic or "") for r in group]
    known = [n.bus for n in nics if n.bus not in (None, "unknown")]
    if len(known) == len(nics) and "pci" not in known:
        return  # none of them is on PCIe: another bus is for other checks
    figures = together_figures(group)
    best = max(figures, key=lambda f: f.total, default=None)
    if best is None:
        return
    ceiling = encoded.value if encoded else float("inf")
    if not th.PCIE_BOUND_SHARE * cap.value <= best.total <= ceiling:
        return
    each = {n: alone[n].get(best.direction, "half") for n in best.per_nic if n in alone}
    singles = {n: f.mbps for n, f in each.items() if f is not None}
    if len(singles) < len(best.per_nic) or best.total > SHARED_RATIO * sum(singles.values()):
        return  # not each measured alone, or together they do about what they do alone
    _finding(nics, best, singles, cap, encoded, out)
    _overclock(inventory, best, bus.figures_named("measured_aggregate_mbps"), catalog, out)


def _at_link(nic: Nic, mbps: float) -> bool:
    link = nic.link_speed_mbps
    return bool(link) and mbps >= th.AT_LIMIT_SHARE * float(link or 0)


def _finding(
    nics: list[Nic],
    best: Together,
    singles: dict[str, float],
    cap: BusFigure,
    encoded: BusFigure | None,
    out: Measured,
) -> None:
    names = list(best.per_nic)
    by_name = {n.name: n for n in nics}
    at_link = all(_at_link(by_name.get(n) or Nic(name=n), singles[n]) for n in names)
    alone_total = sum(singles.values())
    alone_text = (
        "each reaches its link rate alone" if at_link else "each does far more alone"
    ) + f" ({', '.join(f'{n} {singles[n]:.0f}' for n in names)} Mbit/s)"
    lines = [
        best.cite(),
        "each alone, "
        + LABEL[best.direction]
        + ": "
        + " + ".join(f"{n} {singles[n]:.0f}" for n in names)
        + f" = {alone_total:.0f} Mbit/s"
        + f" (together {percent(best.total, alone_total)} of that)",
        f"catalog: a PCIe Gen 2 x1 link carried ~{cap.value:.0f} Mbit/s in total"
        + (f" ({cap.conditions})" if cap.conditions else ""),
    ]
    if encoded is not None:
        lines.append(f"PCIe Gen 2 x1: {encoded.value:.0f} Mbit/s after 8b/10b encoding")
    finding = Finding(
        "aggregate-bus-bound",
        "warning",
        "+".join(names),
        f"The bus caps the NICs together: {', '.join(names)} carry {best.total:.0f} Mbit/s "
        f"{LABEL[best.direction]} at once, near the ~{cap.value:.0f} Mbit/s that a PCIe Gen 2 "
        f"x1 link carried in total on a CM4, while {alone_text}. More ports add no "
        "throughput beyond that total.",
        lines,
    )
    out.findings.append(finding)


def _overclock(
    inventory: Inventory,
    best: Together,
    figures: Sequence[BusFigure],
    catalog: Catalog,
    out: Measured,
) -> None:
    """Seed 004: the total rose with the CPU clock (1.5 GHz ~3.06, 2.147 GHz ~3.2-3.4)."""
    if inventory.board.catalog_id == "pi5":
        return  # another SoC and PCIe set-up: the CM4's clock figures do not apply
    base = min((f.cpu_mhz for f in figures if f.cpu_mhz), default=None)
    faster = [f for f in figures if f.cpu_mhz and base and f.cpu_mhz > base]
    if not faster:
        return
    low = min(f.value for f in faster) - best.total
    high = max(f.value for f in faster) - best.total
    if high <= 0:
        return
    mhz = max(f.cpu_mhz or 0 for f in faster)
    out.recommendations.append(
        Recommendation(
            "tweak",
            "+".join(best.per_nic),
            "Raise the CPU clock (over-clock) to lift the NICs' total",
            f"The NICs together stop near {best.total:.0f} Mbit/s. On a CM4 the total rose with "
            f"the CPU clock: ~{min(f.value for f in faster):.0f}-"
            f"{max(f.value for f in faster):.0f} Mbit/s at {mhz / 1000:.3g} GHz against "
            f"~{min(f.value for f in figures):.0f} at {(base or 0) / 1000:.3g} GHz. Needs good "
            "cooling and power; the tuning keeps a backup of config.txt.",
            f"from {best.total:.0f} to ~{min(f.value for f in faster):.0f}-"
            f"{max(f.value for f in faster):.0f} Mbit/s in total",
            cite(catalog, list(dict.fromkeys(f.source for f in faster))),
            gain_low_mbps=max(low, 0.0),
            gain_high_mbps=high,
            evidence=[best.cite()],
            tweak_ids=["boot-arm-freq"],
        )
    )


def advice_runs(stored: Sequence[RunRecord], chosen: RunRecord | None = None) -> list[RunRecord]:
    """The runs to advise from: `chosen` (default: the newest of `stored`); when an aggregate
    was measured, its runs (chosen's own aggregate if it has one, else the newest) and each of
    its NICs' newest run measured alone, which the aggregate finding compares against."""
    newest_first = sorted(stored, key=lambda r: (r.started_at, r.id or 0), reverse=True)
    chosen = chosen or (newest_first[0] if newest_first else None)
    if chosen is None:
        return []
    if chosen.aggregate_id:
        same = [r for r in newest_first if r.aggregate_id == chosen.aggregate_id] or [chosen]
        group = sorted(same, key=lambda r: r.id or 0)
    else:
        group = latest_aggregate(newest_first)
    picked = [chosen] if not chosen.aggregate_id else []
    picked += group
    for nic in dict.fromkeys(r.nic for r in group):
        solo = next((r for r in newest_first if r.nic == nic and not r.aggregate_id), None)
        if solo is not None:
            picked.append(solo)
    seen: set[int] = set()
    out = []
    for run in picked:
        if run.id is None or run.id not in seen:
            out.append(run)
            if run.id is not None:
                seen.add(run.id)
    return out
