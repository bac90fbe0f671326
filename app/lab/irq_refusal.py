"""The errno the lab's kernel gives a write to the smp_affinity of an interrupt it cannot move.

The profile says which interrupts refuse (`[lab] irq_refuse`), and so does every line of its
/proc/interrupts whose chip the table says cannot move it (`fixed_lines`, the inventory's
`irq_chips.fixed_irqs` over every line: what Inspect calls fixed, audit 36a); how they refuse
is the interrupt chip's and the kernel's, from resources/tuning/driver_caps.json (`_kernel`
facts):

- a chip whose `irq_set_affinity` refuses answers with that function's errno (the fact's
  `errno`: the Pi 4's PCIe MSI chip up to 6.1, `brcm_msi_set_affinity` returning -EINVAL, seed
  000's "Invalid argument");
- a chip with no `irq_set_affinity` at all (the Pi 1-3's `armctrl_chip`; the Pi 4's MSI chip in
  6.12, `MSI_FLAG_NO_AFFINITY`; lan78xx's own `lan78xx-irqs`; the Pi 5's `rp1_irq_chip` on a
  mainline kernel from 6.18, not on the Raspberry Pi tree's: audit 46), or a per-CPU line of a
  chip that steers its others (the GIC's 0-31), or a line its requester pins (IRQF_NOBALANCING:
  the PMU's "arm-pmu"), is refused by `write_irq_affinity` itself
  (kernel/irq/proc.c): EIO in 6.1, EPERM in 6.12 (`irq_affinity_refusal_errno`).

The kernel's series is the profile's (`[lab] kernel`); a kernel older than every series of the
table answers as the oldest (5.15 as 6.1: both the MSI chip's callback and the EIO predate
6.1). Where the series is not known, or the chip is not in the table, the lab answers EINVAL.
"""

from __future__ import annotations

import re
from typing import Any

from sbctune.inventory.irq_chips import fixed_irqs, per_device_fact, pinned_line, upstream_fact
from sbctune.inventory.parsers.procfs import parse_interrupts
from sbctune.tuning import driver_caps
from sbctune.tuning.driver_caps_series import release_holds

_VERSION = re.compile(r"(\d+)\.(\d+)")
DEFAULT = "EINVAL"


def _key(series: str) -> tuple[int, int]:
    major, minor = series.split(".")[:2]
    return int(major), int(minor)


def series_of(kernel: str | None) -> str | None:
    """The table's series the kernel answers as: its own, or the oldest for an older kernel."""
    known: list[str] = sorted((str(k) for k in driver_caps.table()["kernels"]), key=_key)
    match = _VERSION.search(kernel or "")
    if not match or not known:
        return None
    running = (int(match.group(1)), int(match.group(2)))
    for series in known:
        if _key(series) == running:
            return series
    return known[0] if running < _key(known[0]) else None


def _per_cpu(facts: list[dict[str, Any]], chip: str, series: str, hwirq: str | None) -> bool:
    """A per-CPU line of a chip that steers its others (the GIC's 0-31: irqchip_percpu_hwirqs)."""
    if hwirq is None or not (hwirq.isascii() and hwirq.isdigit()):
        return False
    return any(f["fact"] == "irqchip_percpu_hwirqs" and f.get("shown_as") == chip
               and series in f["kernels"]
               and f["value"][0] <= int(hwirq) <= f["value"][1] for f in facts)  # fmt: skip


def refusal(
    chip: str | None, kernel: str | None, hwirq: str | None = None, pinned: bool = False
) -> str:
    """The errno name a write to an interrupt of `chip` (its line `hwirq`; `pinned` by its
    requester, IRQF_NOBALANCING) gets under `kernel`."""
    series = series_of(kernel)
    if not chip:
        return DEFAULT
    facts = driver_caps.table()["hand"].get("_kernel", [])
    named = per_device_fact(chip)
    if named is not None:  # a chip named per device: no irq_set_affinity, write_irq_affinity
        return _core_at(facts, str(named["since"]["release"]))  # refuses (EPERM from 6.12)
    if upstream_fact(chip, kernel) is not None:  # no irq_set_affinity on the upstream tree
        return _core_at(facts, str(kernel))  # (the Pi 5's rp1_irq_chip on 7.2: EPERM)
    if series is None:
        known = [str(k) for k in driver_caps.table()["kernels"]]
        # a per-CPU line in every series is, like a pinned one, the core's own refusal
        per_cpu = all(_per_cpu(facts, chip.strip(), s, hwirq) for s in known)
        return _between(facts, chip.strip(), kernel, pinned or per_cpu)
    if pinned:  # write_irq_affinity's own refusal, whatever the chip
        return _core(facts, series)
    mine = [f for f in facts if f["fact"] == "irqchip_without_affinity"
            and f.get("shown_as") == chip.strip() and series in f["kernels"]]  # fmt: skip
    if not mine and not _per_cpu(facts, chip.strip(), series, hwirq):
        return DEFAULT
    if mine and mine[0].get("errno"):
        return str(mine[0]["errno"])
    return _core(facts, series)


def _core(facts: list[dict[str, Any]], series: str) -> str:
    """write_irq_affinity's errno for an interrupt that cannot be moved (EIO 6.1, EPERM 6.12)."""
    core = [f["value"] for f in facts
            if f["fact"] == "irq_affinity_refusal_errno" and series in f["kernels"]]  # fmt: skip
    return str(core[0]) if core else DEFAULT


def _core_at(facts: list[dict[str, Any]], release: str) -> str:
    """write_irq_affinity's errno as of `release` (a per-device chip's first: 6.17, EPERM)."""
    kind = "irq_affinity_refusal_errno"
    dated = [
        str(f["value"])
        for f in facts
        if f["fact"] == kind
        and (f.get("since") or f.get("until"))
        and release_holds(f, release) is True
    ]
    return dated[0] if len(dated) == 1 else DEFAULT


def fixed_lines(interrupts_text: str | None, kernel: str | None) -> list[int]:
    """Every line of `interrupts_text` the kernel cannot move, by its chip (and hwirq)."""
    parsed = parse_interrupts(interrupts_text)[0] if interrupts_text else None
    if parsed is None:
        return []
    numbers = [i.number for i in parsed.irqs if i.number is not None]
    return fixed_irqs(parsed, numbers, kernel or None)[0]


def _between(facts: list[dict[str, Any]], chip: str, kernel: str | None, core: bool) -> str:
    """A kernel between or after the table's series (6.6, 6.8, 6.18): a line the core refuses
    whatever its chip (`core`: pinned by its requester, or a per-CPU line), or a chip that every
    series lists without an errno of its own (the Pi 1-3's armctrl_chip), is refused by
    write_irq_affinity itself, whose errno the core fact's release range dates (EIO until 6.12,
    eb29369fa543; audit 37 row 7). Anything else (the Pi 4's MSI chip, whose change is not
    dated) or an undated kernel: DEFAULT."""
    if not core:
        known = {str(k) for k in driver_caps.table()["kernels"]}
        kind = "irqchip_without_affinity"
        mine = [f for f in facts if f["fact"] == kind and f.get("shown_as") == chip]
        if not mine or any(f.get("errno") for f in mine):
            return DEFAULT
        if not known <= {str(s) for f in mine for s in f["kernels"]}:
            return DEFAULT
    dated = [str(f["value"]) for f in facts
             if f["fact"] == "irq_affinity_refusal_errno" and (f.get("since") or f.get("until"))
             and release_holds(f, kernel) is True]  # fmt: skip
    return dated[0] if len(dated) == 1 else DEFAULT


def refusals(interrupts_text: str | None, refused: list[int], kernel: str | None) -> dict[str, str]:
    """{IRQ: errno name} for the profile's refused interrupts."""
    parsed = parse_interrupts(interrupts_text or "")[0] if interrupts_text else None
    out: dict[str, str] = {}
    for number in refused:
        irq = parsed.get(number) if parsed is not None else None
        out[str(number)] = refusal(
            irq.controller if irq is not None else None,
            kernel,
            irq.hwirq if irq else None,
            irq is not None and pinned_line(irq.names, kernel) is not None,
        )
    return out
