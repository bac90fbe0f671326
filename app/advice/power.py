"""Throttling or under-voltage during a test, from the Pi sampler's power summary.

The sampler records the firmware's get_throttled flags, the SoC temperature and the CPU clock
with every sample (`TestRecord.pi_cpu["power"]`, a `sbctune.measure.sampler.PowerSummary`). A
test during which the Pi was under-voltage, frequency-capped, throttled or at its soft
temperature limit measured a slowed-down Pi: its figures understate the hardware, and the fix
(power or cooling) comes before any other conclusion resting on them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sbctune.advice.evidence import cite
from sbctune.advice.runs import Figure, NicRuns
from sbctune.catalog import Catalog
from sbctune.inventory.model import Finding, Inventory, Recommendation
from sbctune.inventory.parsers.vcgencmd import throttle_events
from sbctune.wording import counted

FINDING_ID = "throttled-during-test"
# A title ending in this ranks with the "measure again" recommendations (sbctune.advice.rank):
# the figures measured while the Pi was slowed down cannot carry other conclusions.
THEN_MEASURE = ", then measure again"
# The Arm cores are throttled progressively from 80 °C (rpi-doc-frequency-management).
HOT_C = 80.0
_SLOWED = {"under-voltage", "arm frequency capped", "throttled"}

# Official supplies per board (rpi-doc-power-supplies; the Pi 5's 5 A from rpi-doc-hardware).
_PSU: dict[str, tuple[str, list[str]]] = {
    "pi5": ("5.1 V 5 A (27 W) USB-C", ["rpi-doc-hardware"]),
    "pi500": ("5.1 V 5 A (27 W) USB-C", ["rpi-doc-hardware"]),
    "pi4b": ("5.1 V 3 A USB-C", ["rpi-doc-power-supplies"]),
    "pi400": ("5.1 V 3 A USB-C", ["rpi-doc-power-supplies"]),
    "pi3b": ("5.1 V 2.5 A micro USB", ["rpi-doc-power-supplies"]),
    "pi3b-plus": ("5.1 V 2.5 A micro USB", ["rpi-doc-power-supplies"]),
    "pi3a-plus": ("5.1 V 2.5 A micro USB", ["rpi-doc-power-supplies"]),
}


@dataclass(frozen=True)
class Throttling:
    """One test during which the Pi reported a throttle flag."""

    figure: Figure
    events: list[str]
    flags: int
    first_flags: int | None
    first_s: float | None
    flagged_samples: int
    samples: int
    max_temp_c: float | None
    min_mhz: float | None
    max_mhz: float | None

    @property
    def severe(self) -> bool:
        return bool(_SLOWED & set(self.events))

    def evidence(self) -> str:
        run = f"run {self.figure.run_id}, " if self.figure.run_id is not None else ""
        when = f" from {self.first_s:.1f} s into the test" if self.first_s is not None else ""
        parts = [
            f"{run}{self.figure.label}: get_throttled 0x{self.first_flags or self.flags:x}"
            f"{when} ({', '.join(self.events)}; "
            f"{self.flagged_samples} of {counted(self.samples, 'reading')})"
        ]
        if self.max_temp_c is not None:
            parts.append(f"SoC up to {self.max_temp_c:.1f} °C")
        if self.min_mhz is not None and self.max_mhz is not None:
            parts.append(f"CPU clock {self.min_mhz:.0f}-{self.max_mhz:.0f} MHz")
        return "; ".join(parts)


def _num(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def throttling_of(figure: Figure) -> Throttling | None:
    """The test's throttle flags, if any were seen (stored JSON is read defensively)."""
    power = figure.pi_cpu.get("power") if isinstance(figure.pi_cpu, dict) else None
    if not isinstance(power, dict):
        return None
    flags = _int(power.get("throttled_any"))
    if not flags:
        return None
    events = throttle_events(flags)
    if not events:
        return None
    return Throttling(
        figure=figure,
        events=events,
        flags=flags,
        first_flags=_int(power.get("first_flags")),
        first_s=_num(power.get("first_event_s")),
        flagged_samples=_int(power.get("flagged_samples")) or 0,
        samples=_int(power.get("samples")) or 0,
        max_temp_c=_num(power.get("max_temp_c")),
        min_mhz=_num(power.get("min_cpu_mhz")),
        max_mhz=_num(power.get("max_cpu_mhz")),
    )


def throttled_tests(digests: dict[str | None, NicRuns]) -> list[Throttling]:
    """Every test (latest per NIC, direction and mode) during which the Pi was slowed down.
    Both directions of a full-duplex test share one power summary: reported once."""
    found: list[Throttling] = []
    seen: set[tuple[int | None, str]] = set()
    for runs in digests.values():
        for figure in runs.figures.values():
            throttling = throttling_of(figure)
            if throttling is None:
                continue
            key = (figure.run_id, repr(sorted((figure.pi_cpu or {}).get("power", {}).items())))
            if key in seen:
                continue
            seen.add(key)
            found.append(throttling)
    return found


def power_advice(
    inventory: Inventory,
    digests: dict[str | None, NicRuns],
    catalog: Catalog,
    findings: list[Finding],
    recommendations: list[Recommendation],
) -> None:
    """Append the finding and the power/cooling recommendations (board level: nic None)."""
    tests = throttled_tests(digests)
    if not tests:
        return
    events = sorted({e for t in tests for e in t.events}, key=_order)
    severe = any(t.severe for t in tests)
    hottest = max((t.max_temp_c for t in tests if t.max_temp_c is not None), default=None)
    evidence = [t.evidence() for t in tests]
    at_limit = any(f.id == "at-physical-limit" for f in findings)
    consequence = (
        "The figures still reached the link's limit, so the network was not held back, but "
        "the Pi ran without headroom."
        if at_limit
        else "Its CPU clock was cut while it moved the traffic, so these figures understate "
        "what the hardware can do."
    )
    findings.append(
        Finding(
            FINDING_ID,
            "problem" if severe else "warning",
            None,
            f"The Pi reported {', '.join(events)} during "
            + ("a test" if len(tests) == 1 else counted(len(tests), "test"))
            + f". {consequence}",
            evidence,
        )
    )
    then = "" if at_limit else THEN_MEASURE
    if "under-voltage" in events:
        psu, psu_sources = _PSU.get(inventory.board.catalog_id or "", ("", ["rpi-doc-hardware"]))
        what = (
            f"the official {psu} power supply"
            if psu
            else "the official power supply for this model (5.1 V; 3 A for a Pi 4, 5 A for a Pi 5)"
        )
        recommendations.append(
            Recommendation(
                "power",
                None,
                f"Use {what}{then}",
                "The supply voltage fell below the Pi's under-voltage threshold (about 4.63 V) "
                f"during the test, and the firmware slows the CPU when it does. Use {what} with "
                "its own cable (thin USB cables drop the voltage), and power hungry USB devices "
                "(disks, some adapters) from a powered hub.",
                "the full CPU clock during tests; the figures measured while it was cut "
                "understate the hardware",
                cite(catalog, [*psu_sources, "rpi-doc-power-supplies", "rpi-doc-get-throttled"]),
                evidence=evidence,
            )
        )
    thermal = {"soft temperature limit"} & set(events) or (hottest or 0) >= HOT_C
    if thermal or (severe and "under-voltage" not in events):
        temp = f" (it reached {hottest:.0f} °C)" if hottest is not None else ""
        recommendations.append(
            Recommendation(
                "power",
                None,
                f"Cool the Pi: a heatsink or a fan{then}",
                f"The Pi got hot enough to slow its CPU during the test{temp}: the firmware "
                "throttles the Arm cores from 80 °C (earlier on models with a soft limit). A "
                "heatsink or small fan reduces throttling: the official Case Fan on a Pi 4, the "
                "Active Cooler or the fan case on a Pi 5; mount the board vertically for air.",
                "the full CPU clock during tests",
                cite(catalog, ["rpi-doc-frequency-management", "rpi-doc-get-throttled"]),
                evidence=evidence,
            )
        )


def _order(event: str) -> int:
    order = ["under-voltage", "arm frequency capped", "throttled", "soft temperature limit"]
    return order.index(event) if event in order else len(order)
