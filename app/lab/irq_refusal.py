"""The errno the lab's kernel gives a write to the smp_affinity of an interrupt it cannot move.

The profile says which interrupts refuse (`[lab] irq_refuse`, the ones Inspect calls fixed);
how they refuse is the interrupt chip's and the kernel's, from resources/tuning/driver_caps.json
(`_kernel` facts):

- a chip whose `irq_set_affinity` refuses answers with that function's errno (the fact's
  `errno`: the Pi 4's PCIe MSI chip up to 6.1, `brcm_msi_set_affinity` returning -EINVAL, seed
  000's "Invalid argument");
- a chip with no `irq_set_affinity` at all (the Pi 1-3's `armctrl_chip`; the Pi 4's MSI chip in
  6.12, `MSI_FLAG_NO_AFFINITY`) is refused by `write_irq_affinity` itself (kernel/irq/proc.c):
  EIO in 6.1, EPERM in 6.12 (`irq_affinity_refusal_errno`).

The kernel's series is the profile's (`[lab] kernel`); a kernel older than every series of the
table answers as the oldest (5.15 as 6.1: both the MSI chip's callback and the EIO predate
6.1). Where the series is not known, or the chip is not in the table, the lab answers EINVAL.
"""

from __future__ import annotations

import re
from typing import Any

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


def refusal(chip: str | None, kernel: str | None) -> str:
    """The errno name a write to an interrupt of `chip` gets under `kernel`."""
    series = series_of(kernel)
    if not chip:
        return DEFAULT
    facts = driver_caps.table()["hand"].get("_kernel", [])
    if series is None:
        return _between(facts, chip.strip(), kernel)
    mine = [f for f in facts if f["fact"] == "irqchip_without_affinity"
            and f.get("shown_as") == chip.strip() and series in f["kernels"]]  # fmt: skip
    if not mine:
        return DEFAULT
    if mine[0].get("errno"):
        return str(mine[0]["errno"])
    core = [f["value"] for f in facts
            if f["fact"] == "irq_affinity_refusal_errno" and series in f["kernels"]]  # fmt: skip
    return str(core[0]) if core else DEFAULT


def _between(facts: list[dict[str, Any]], chip: str, kernel: str | None) -> str:
    """A kernel between or after the table's series (6.6, 6.8, 6.18): a chip that every series
    lists without an errno of its own (the Pi 1-3's armctrl_chip) is refused by
    write_irq_affinity itself, whose errno the core fact's release range dates (EIO until 6.12,
    eb29369fa543; audit 37 row 7). Anything else (the Pi 4's MSI chip, whose change is not
    dated) or an undated kernel: DEFAULT."""
    known = {str(k) for k in driver_caps.table()["kernels"]}
    mine = [f for f in facts
            if f["fact"] == "irqchip_without_affinity" and f.get("shown_as") == chip]  # fmt: skip
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
        out[str(number)] = refusal(irq.controller if irq is not None else None, kernel)
    return out
