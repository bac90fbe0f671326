"""Interrupts the kernel cannot move to another CPU: the interrupt chip that /proc/interrupts
names for them has no way to steer them. One fact per NIC (`Nic.fixed_irqs`), shown by Inspect
(the "interrupts on CPU0" finding) and read by the tuning planner (moving the NIC's interrupts
is then not applicable), so the two cannot disagree.

The chips are hand facts of resources/tuning/driver_caps.json ("irqchip_without_affinity" under
"_kernel"): the name the chip shows in /proc/interrupts ("shown_as"), plain words for it, and the
kernel source that makes it so, checked against Debian's source by
tests/test_driver_caps_source.py. A chip counts where the running kernel's series has the fact,
or, for a kernel the table has no series for (or an unknown one), where every series has it.
A chip that can steer its other lines may map some per CPU ("irqchip_percpu_hwirqs": the GIC's
hwirqs 0-31, gic_irq_domain_map): those cannot be moved either (irqd_can_balance is false), so
the lab refuses them as the kernel does, and so are the lines their requester pins
("irq_action_no_balancing": armpmu_request_irq's "arm-pmu", IRQF_NOBALANCING; audit 36a).
A chip only mainline leaves without affinity, where the Raspberry Pi tree's own driver of the
same name gave it one, holds by its release ("since") on a kernel of the upstream tree only
("upstream_chip": the Pi 5's rp1_irq_chip, drivers/misc/rp1 against the tree's drivers/mfd/rp1.c
with rp1_irq_set_affinity; audit 46 row 1).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from sbctune.catalog.kernel_tree import release_holds, tree_of
from sbctune.catalog.table_cache import cached_file
from sbctune.inventory.parsers.procfs import Interrupts
from sbctune.resources import resource_root

_SERIES = re.compile(r"(\d+)\.(\d+)")
# a chip without irq_set_affinity; a chip's per-CPU hwirqs (value: [first, last]); a line its
# requester pins with IRQF_NOBALANCING (shown_as: the action's name, "arm-pmu")
_FACTS = ("irqchip_without_affinity", "irqchip_percpu_hwirqs", "irq_action_no_balancing")


@dataclass(frozen=True)
class FixedChip:
    chip: str  # as /proc/interrupts shows it: "BRCM STB PCIe MSI"
    words: str  # what it is, in plain words: "the PCIe controller of the Pi 4 ..."
    where: str  # the kernel source: "drivers/pci/controller/pcie-brcmstb.c: brcm_msi_set_affinity"


@lru_cache(maxsize=1)
def _facts() -> tuple[tuple[str, ...], tuple[dict[str, Any], ...]]:
    """The table's kernel series and its facts of chips without affinity (only those are kept:
    the rest of the table is the planner's)."""
    path = resource_root().joinpath("tuning").joinpath("driver_caps.json")
    # 900 kB for a few facts: those kept in the cache (table_cache), read when it changed
    kernels, facts = cached_file("irq-chips-fixed-percpu", path, _read_facts, _fits)
    return tuple(kernels), tuple(facts)


def _read_facts(raw: bytes) -> list[list[Any]]:
    data = json.loads(raw.decode("utf-8"))
    facts = [f for f in data["hand"].get("_kernel", []) if f["fact"] in _FACTS]
    return [list(data["kernels"]), facts]


def _fits(value: object) -> bool:
    return (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(part, list) for part in value)
        and all(isinstance(f, dict) for f in value[1])
    )


def _series(kernel: str | None, known: tuple[str, ...]) -> set[str]:
    match = _SERIES.search(kernel or "")
    running = f"{match.group(1)}.{match.group(2)}" if match else None
    return {running} if running in known else set(known)


def _per_cpu(fact: dict[str, Any], hwirq: str | None) -> bool:
    """Whether a line of hwirq `hwirq` is one of the chip's per-CPU lines."""
    first, last = fact["value"]
    return bool(
        hwirq and hwirq.isascii() and hwirq.isdigit() and int(first) <= int(hwirq) <= int(last)
    )


def pinned_line(names: list[str], kernel: str | None = None) -> FixedChip | None:
    """The fact of a line whose requester pins it to one CPU (IRQF_NOBALANCING), by the name it
    was requested under, else None."""
    known, facts = _facts()
    series = _series(kernel, known)
    mine = [f for f in facts if f["fact"] == "irq_action_no_balancing" and f["shown_as"] in names
            and series <= set(f["kernels"])]  # fmt: skip
    if not mine:
        return None
    fact = mine[0]
    return FixedChip(str(fact["shown_as"]), str(fact["words"]), f"{fact['file']}: {fact['symbol']}")


# A PCI device's address as dev_name() spells it: domain:bus:device.function
_PCI_DEVICE = re.compile(r"[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]")


def per_device_fact(chip: str | None) -> dict[str, Any] | None:
    """The fact of a chip without affinity that the kernel names per device: a per-device MSI
    domain's chip is "$(PREFIX)$(CHIPNAME)-$(DEVNAME)" (kernel/irq/msi.c
    msi_create_device_irq_domain), so the Pi 4's PCIe MSI reads 'BRCM-PCI-MSI-0000:01:00.0'
    from 6.17 on (pcie-brcmstb's msi_parent_ops, audit 41 row 2): the fact's shown_as, a dash
    and a PCI address. Such a name exists only on kernels that have the fact."""
    text = (chip or "").strip()
    for fact in _facts()[1]:
        name = str(fact.get("shown_as", ""))
        if (fact["fact"] == "irqchip_without_affinity" and fact.get("per_device")
                and text.startswith(name + "-")
                and _PCI_DEVICE.fullmatch(text[len(name) + 1 :])):  # fmt: skip
            return fact
    return None


def upstream_fact(chip: str | None, kernel: str | None) -> dict[str, Any] | None:
    """The fact of a chip that only the upstream tree leaves without irq_set_affinity, where it
    holds on `kernel`: from its release on ("since") and only where the kernel is not a build of
    the Raspberry Pi tree (tree_of, for the fact's chip); None otherwise, and for a kernel whose
    release is not known (the write then says)."""
    text = (chip or "").strip()
    for fact in _facts()[1]:
        if (fact["fact"] == "irqchip_without_affinity" and fact.get("upstream_chip")
                and fact.get("shown_as") == text and release_holds(fact, kernel) is True
                and tree_of(kernel, str(fact["upstream_chip"])) == "debian"):  # fmt: skip
            return fact
    return None


def fixed_chip(
    chip: str | None, kernel: str | None = None, hwirq: str | None = None
) -> FixedChip | None:
    """The chip's fact when the kernel cannot move its interrupts (or this line of it, by its
    hwirq), else None (a chip the table does not name can be steered as far as sbctune knows:
    the write then says)."""
    if not chip:
        return None
    known, facts = _facts()
    named = per_device_fact(chip)
    if named is not None:  # its name alone dates it: no kernel before the fact names a chip so
        return FixedChip(chip.strip(), str(named["words"]), f"{named['file']}: {named['symbol']}")
    dated = upstream_fact(chip, kernel)
    if dated is not None:
        return FixedChip(chip.strip(), str(dated["words"]), f"{dated['file']}: {dated['symbol']}")
    series = _series(kernel, known)
    mine = [f for f in facts if f.get("shown_as") == chip.strip() and not f.get("per_device")
            and not f.get("upstream_chip")
            and (f["fact"] == "irqchip_without_affinity"
                 or (f["fact"] == "irqchip_percpu_hwirqs" and _per_cpu(f, hwirq)))]  # fmt: skip
    if not mine or not series <= {s for f in mine for s in f["kernels"]}:
        return None
    cites = [f"{f['file']}: {f['symbol']}" for f in mine if series & set(f["kernels"])]
    return FixedChip(chip.strip(), str(mine[0]["words"]), "; ".join(dict.fromkeys(cites)))


def fixed_irqs(
    interrupts: Interrupts | None, irqs: list[int], kernel: str | None
) -> tuple[list[int], str | None]:
    """Which of a NIC's interrupts cannot be moved, and why: plain words, then the kernel
    source in brackets (None when every one can be moved, as far as the table knows)."""
    if interrupts is None:
        return [], None
    fixed: list[int] = []
    chips: list[FixedChip] = []
    for number in irqs:
        irq = interrupts.get(number)
        found = (
            None
            if irq is None
            else (fixed_chip(irq.controller, kernel, irq.hwirq) or pinned_line(irq.names, kernel))
        )
        if found is not None:
            fixed.append(number)
            chips += [found] if found not in chips else []
    if not chips:
        return [], None
    it, comes, them = ("it", "comes", "it") if len(fixed) == 1 else ("they", "come", "them")
    why = "; ".join(
        f"{it} {comes} through {c.words}, which gives the kernel no way to move {them} to"
        f" another CPU ({c.where})"
        for c in chips
    )
    return fixed, why
