"""The latency results as the CLI, exports and compare show them."""

from __future__ import annotations

from typing import Any

from sbctune.measure.latency.stats import LatencyResult, RttStats, results
from sbctune.wording import MODE_WORDS

# A test's mode in the window's words (the s12 walk: "Pi → PC (half duplex)" under a
# throughput table saying "One way").
ROW_LABEL = {
    "half/pi_to_pc": f"Pi → PC, {MODE_WORDS['half'].lower()}",
    "half/pc_to_pi": f"PC → Pi, {MODE_WORDS['half'].lower()}",
    "full": MODE_WORDS["full"],
    "full_throttled": MODE_WORDS["full_throttled"],
}
HEADER = ["Latency under load", "idle p50/p95/p99", "loaded p50/p95/p99", "added", "grade"]


def _ms(stats: RttStats) -> str:
    if stats.p50 is None or stats.p95 is None or stats.p99 is None:
        return "no answers"
    lost = f" ({stats.loss_pct:.0f} % lost)" if stats.lost else ""
    return f"{stats.p50:.1f} / {stats.p95:.1f} / {stats.p99:.1f} ms{lost}"


def row(result: LatencyResult) -> list[str]:
    added = result.added_ms
    return [
        ROW_LABEL.get(result.key, result.key),
        _ms(result.idle),
        _ms(result.loaded),
        "—" if added is None else f"+{added:.1f} ms",
        result.grade or "—",
    ]


def notes(latency: dict[str, Any] | None) -> list[str]:
    found = latency.get("notes") if isinstance(latency, dict) else None
    if not isinstance(found, list):
        return []
    return [str(n)[:300] for n in found[:5]]


def text_lines(latency: dict[str, Any] | None) -> list[str]:
    """An aligned table, the verdicts under it, and why latency was not measured if it wasn't."""
    return table_lines(latency) + sentence_lines(latency)


def table_lines(latency: dict[str, Any] | None) -> list[str]:
    """The aligned table alone (a terminal's width never breaks its rows)."""
    found = results(latency)
    rows = [HEADER, *(row(r) for r in found)]
    if not found:
        return []
    widths = [max(len(r[i]) for r in rows) for i in range(len(HEADER))]
    fmt = [("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True))).rstrip() for r in rows]
    return [fmt[0], "  ".join("-" * w for w in widths), *fmt[1:]]


def sentence_lines(latency: dict[str, Any] | None) -> list[str]:
    """The verdicts under the table and the notes: sentences, which a terminal may wrap."""
    return [f"  {r.verdict()}" for r in results(latency)] + notes(latency)


def markdown_lines(latency: dict[str, Any] | None) -> list[str]:
    found = results(latency)
    out: list[str] = []
    if found:
        out += ["| " + " | ".join(HEADER) + " |", "| --- |" + " --- |" * (len(HEADER) - 1)]
        out += ["| " + " | ".join(row(r)) + " |" for r in found]
        out += [""] + [f"- {r.verdict()}" for r in found]
    out += [f"- {n}" for n in notes(latency)]
    return out


def summary_json(latency: dict[str, Any] | None) -> list[dict[str, Any]]:
    return [r.to_json() for r in results(latency)]


def worst(latency: dict[str, Any] | None) -> LatencyResult | None:
    """The result with the most added latency (what one line about a run names)."""
    found = [r for r in results(latency) if r.added_ms is not None]
    return max(found, key=lambda r: r.added_ms or 0.0, default=None)
