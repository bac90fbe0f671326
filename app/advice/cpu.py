"""Reading the Pi sampler's per-core summary (TestRecord.pi_cpu, a SamplerSummary as JSON)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sbctune.advice import thresholds as th
from sbctune.wording import percent


@dataclass(frozen=True)
class IrqBound:
    core: int
    summary: str
    lines: list[str]


def _num(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def irq_bound_core(pi_cpu: dict[str, Any] | None) -> IrqBound | None:
    """The core that was saturated in irq/softirq while the others idled, if there was one."""
    if not isinstance(pi_cpu, dict):
        return None
    if isinstance(pi_cpu.get("lab_cpu"), dict):
        return None  # the virtual Pi lab's cores are its host's (sampler_data.LabCpu): not the Pi's
    listed = pi_cpu.get("cores")
    cores = []
    for core in listed if isinstance(listed, list) else []:
        if not isinstance(core, dict):
            continue
        cpu = core.get("cpu")
        busy, irq = _num(core.get("mean_busy")), _num(core.get("mean_irq_softirq"))
        if isinstance(cpu, int) and busy is not None and irq is not None:
            cores.append((cpu, busy, irq))
    if len(cores) < 2:
        return None  # one core: "the others idle" cannot be told apart from a busy CPU
    cpu, busy, irq = max(cores, key=lambda c: (c[2], c[1]))
    others = [c for c in cores if c[0] != cpu]
    others_busy = sum(c[1] for c in others) / len(others)
    saturated = irq >= th.IRQ_CORE_SHARE or (
        busy >= th.BUSY_CORE_SHARE and irq >= th.BUSY_CORE_IRQ_SHARE
    )
    if not saturated or others_busy >= th.OTHER_CORES_IDLE_BELOW:
        return None
    rest = ", ".join(f"CPU{c[0]} {percent(c[1], 100)}" for c in others)
    busy_p, irq_p = percent(busy, 100), percent(irq, 100)
    return IrqBound(
        core=cpu,
        summary=f"CPU{cpu} {busy_p} busy, {irq_p} of it in irq/softirq; others {rest}",
        lines=[
            f"Pi sampler: CPU{cpu} mean busy {busy_p}, irq+softirq {irq_p}",
            f"Pi sampler: other cores mean busy {percent(others_busy, 100)} ({rest})",
        ],
    )
