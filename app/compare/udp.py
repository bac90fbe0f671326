"""The "UDP" rows of a comparison: per direction, each run's UDP test (`measure --udp`): the
rate received, jitter and loss, and their change against the first run's.

Only tests paced at the same target rate are compared: loss and jitter depend on the rate
offered (above the link's rate they measure the overload), so a run at another target gets
its figures and "not compared: …" instead of a change. A run has one UDP test per direction,
so there is no interval to give: the changes are differences, not verdicts.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sbctune.compare.interval import signed
from sbctune.history.records import DIRECTIONS, Direction, RunRecord, UdpRecord

DIRECTION_WORDS: dict[Direction, str] = {"pi_to_pc": "Pi → PC", "pc_to_pi": "PC → Pi"}


@dataclass(frozen=True)
class UdpCell:
    target_mbps: float | None
    received_mbps: float | None
    jitter_ms: float | None
    lost_percent: float | None
    complete: bool = True
    compared: bool = False  # the same target as the first run's, so the changes below are set
    delta_received_mbps: float | None = None
    delta_jitter_ms: float | None = None
    delta_loss_points: float | None = None  # percentage points


@dataclass(frozen=True)
class UdpRow:
    direction: Direction
    label: str  # "Pi → PC"
    target_mbps: float | None  # the first run's target (None: the first run had no UDP test)
    cells: list[UdpCell | None] = field(default_factory=list)  # one per run; None: no test


def last_udp(run: RunRecord, direction: Direction) -> UdpRecord | None:
    found = [u for u in run.udp if u.direction == direction]
    return found[-1] if found else None


def _same_target(a: float | None, b: float | None) -> bool:
    return a is not None and b is not None and abs(a - b) <= 1e-6 * max(abs(a), abs(b))


def _minus(a: float | None, b: float | None) -> float | None:
    return None if a is None or b is None else a - b


def _cell(u: UdpRecord | None, base: UdpCell | None) -> UdpCell | None:
    if u is None:
        return None
    cell = UdpCell(u.target_mbps, u.receiver_mbps, u.jitter_ms, u.lost_percent, u.complete)
    if base is None or not _same_target(u.target_mbps, base.target_mbps):
        return cell
    return UdpCell(
        cell.target_mbps, cell.received_mbps, cell.jitter_ms, cell.lost_percent, cell.complete,
        compared=True,
        delta_received_mbps=_minus(cell.received_mbps, base.received_mbps),
        delta_jitter_ms=_minus(cell.jitter_ms, base.jitter_ms),
        delta_loss_points=_minus(cell.lost_percent, base.lost_percent),
    )  # fmt: skip


def udp_rows(runs: list[RunRecord]) -> list[UdpRow]:
    """A row per direction that any run tested with UDP, in the runs' order."""
    rows = []
    for direction in DIRECTIONS:
        found = [last_udp(r, direction) for r in runs]
        if all(f is None for f in found):
            continue
        base = _cell(found[0], None)
        cells = [base] + [_cell(f, base) for f in found[1:]]
        target = base.target_mbps if base else None
        rows.append(UdpRow(direction, DIRECTION_WORDS[direction], target, cells))
    return rows


def mode_text(row: UdpRow) -> str:
    """The Mode column: "UDP at 50 Mbit/s"."""
    return f"UDP at {row.target_mbps:g} Mbit/s" if row.target_mbps else "UDP"


def cell_text(cell: UdpCell | None, row: UdpRow) -> str:
    """One run's figures: "49.9 Mbit/s, jitter 0.147 ms, loss 0.03 %" (its target when it
    differs from the row's)."""
    if cell is None:
        return "no UDP test"
    if cell.received_mbps is None or cell.jitter_ms is None or cell.lost_percent is None:
        return "no result"
    at = ""
    if cell.target_mbps and not _same_target(cell.target_mbps, row.target_mbps):
        at = f"at {cell.target_mbps:g} Mbit/s: "
    incomplete = "" if cell.complete else " (incomplete)"
    return (
        f"{at}{cell.received_mbps:.1f} Mbit/s, jitter {cell.jitter_ms:.3f} ms, "
        f"loss {cell.lost_percent:.2f} %{incomplete}"
    )


def change_text(cell: UdpCell | None, row: UdpRow) -> str:
    """The change against the first run, or why there is none."""
    if cell is None:
        return "—"
    if not cell.compared:
        if row.target_mbps is None:
            return "not compared: the first run has no UDP test"
        if cell.target_mbps is None:
            return "not compared: no target rate recorded"
        first = row.target_mbps
        return f"not compared: paced at {cell.target_mbps:g} Mbit/s, the first run at {first:g}"
    parts = []
    if cell.delta_received_mbps is not None:
        parts.append(f"received {signed(cell.delta_received_mbps, 1)} Mbit/s")
    if cell.delta_jitter_ms is not None:
        parts.append(f"jitter {signed(cell.delta_jitter_ms, 3)} ms")
    if cell.delta_loss_points is not None:
        parts.append(f"loss {signed(cell.delta_loss_points, 2)} points")
    return ", ".join(parts) or "no result to compare"


def notes(rows: list[UdpRow]) -> list[str]:
    """What a reader of the UDP rows must know: changes are differences of single tests, and
    tests at another target rate were not compared."""
    out = []
    later = [c for row in rows for c in row.cells[1:] if c is not None]
    if any(c.compared for c in later):
        out.append(
            "UDP: one test per direction and run, so its changes are differences, not verdicts."
        )
    if any(not c.compared for c in later):
        out.append(
            "UDP tests are compared only at the same target rate (loss and jitter depend on the "
            "rate offered): a run paced at another rate, or compared with a first run without a "
            "UDP test, shows its figures without a change."
        )
    return out
