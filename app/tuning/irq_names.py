"""How irq-affinity finds a NIC's interrupt again after a reboot: by its handler's name.

Linux allocates interrupt numbers as devices probe (MSI/MSI-X vectors from a dynamic range:
kernel/irq/irqdesc.c irq_domain_alloc_descs), so a NIC's vectors can have other numbers after
the next boot, and its old numbers another device's. What stays is the name its driver asked
for (request_irq's `name`: e1000e and igb name MSI-X vectors "<iface>-rx-0", bcmgenet "eth0",
a USB NIC rides its host controller's "xhci_hcd"), shown last on its /proc/interrupts line. A
change keeps one such name and which of the lines with that name it is
(model.Change.irq_name / irq_ordinal); the scripts look it up exactly
(remote.snippets.WRITE_IRQ_AFFINITY).
"""

from __future__ import annotations

from sbctune.inventory.parsers.procfs import Interrupts, parse_interrupts
from sbctune.tuning.model import MAX_IRQ_ORDINAL, irq_name_ok


def interrupts(text: str) -> Interrupts | None:
    """/proc/interrupts as the probe read it (None: not read, or nothing in it)."""
    if not text.strip():
        return None
    parsed, _warnings = parse_interrupts(text)
    return parsed if parsed.irqs else None


def _rank(name: str, iface: str | None, driver: str | None) -> int:
    """How well a handler name identifies the NIC: its interface's own ("eth0", "eth0-rx-0",
    stmmac's "eth0:rx-0") first, then its driver's, then any other (a host controller's)."""
    if iface and (name == iface or name.startswith((iface + "-", iface + ":"))):
        return 0
    if driver and name == driver:
        return 1
    return 2


def identity(
    table: Interrupts | None, number: int, iface: str | None, driver: str | None
) -> tuple[str, int]:
    """(name, ordinal) of interrupt `number`: the name that best identifies the NIC and the
    place of this line among the lines with that name; ("", 0) where none can be kept (the
    change then names the interrupt by its number, as before)."""
    line = table.get(number) if table is not None else None
    if table is None or line is None:
        return "", 0
    names = [n.rstrip(",") for n in line.names]
    usable = sorted((n for n in names if irq_name_ok(n)), key=lambda n: _rank(n, iface, driver))
    for name in usable:
        same = table.numbers_named(name)
        if number in same and same.index(number) < MAX_IRQ_ORDINAL:
            return name, same.index(number)
    return "", 0
