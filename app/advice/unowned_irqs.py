"""The board's network interrupts all on CPU0 when no NIC can be told apart by them.

A driver that requests its interrupt with its own name (mvneta's ``request_irq(...,
"mvneta", ...)`` on older kernels, a Wi-Fi driver's "mwlwifi") shows in /proc/interrupts by that
name alone: two lines of one name may be two ports or two vectors of one port, so no NIC is made
of them and the per-NIC ``irq-on-cpu0`` finding has nobody to name. What a reader still states
is the board-wide fact: every interrupt of the network drivers lands on CPU0 while other CPUs
take none of them. The drivers are the kernel's network drivers by name (drivers.json's, the
wired and Wi-Fi ones under drivers/net/ethernet, drivers/net/wireless, drivers/net/usb and
staging); lines some NIC already holds are that NIC's and are left to the per-NIC rule.
"""

from __future__ import annotations

from sbctune.advice.advisor import Advisor
from sbctune.catalog.kernel_drivers import KernelDriver, load_kernel_drivers
from sbctune.inventory.irq_chips import fixed_chip
from sbctune.wording import counted

# drivers/net/ folders of NICs; not can/, phy/, mdio/, pcs/, dsa/ (a switch's own interrupt is
# no port's), wwan/
_NIC_FOLDERS = ("drivers/net/ethernet/", "drivers/net/wireless/", "drivers/net/usb/")


def _nic_driver(driver: KernelDriver | None) -> bool:
    return driver is not None and (
        driver.file.startswith(_NIC_FOLDERS) or (driver.wireless and "staging/" in driver.file)
    )


def network_irqs_on_cpu0(adv: Advisor) -> None:
    """One board-level irq-on-cpu0 finding for network interrupts no NIC holds, when each
    that fired fired only on CPU0 of two or more."""
    interrupts = adv.parsed.interrupts
    if interrupts is None or any(f.id == "irq-on-cpu0" for f in adv.inv.findings):
        return
    held = {n for nic in adv.inv.nics for n in nic.irqs}
    table = load_kernel_drivers()
    lines = []
    for irq in interrupts.irqs:
        if irq.number is None or irq.number in held or len(irq.counts) < 2 or not irq.total:
            continue
        names = [n.rstrip(",") for n in irq.names]
        if not any(table.knows(n) and _nic_driver(table.get(n)) for n in names):
            continue
        if any(irq.counts[1:]):
            return  # one of them is served elsewhere: not all on CPU0
        lines.append(irq)
    if not lines:
        return
    drivers = sorted({n.rstrip(",") for irq in lines for n in irq.names if table.knows(n)})
    fixed = {c.chip for irq in lines if (c := fixed_chip(irq.controller, adv.inv.board.kernel))}
    evidence = [irq.line.rstrip() for irq in lines if irq.line][:4]
    adv.finding(
        "irq-on-cpu0",
        "info",
        None,
        f"Every network interrupt that fired ({counted(len(lines), 'line')} of "
        f"{', '.join(drivers)}) lands on CPU0, the other {len(lines[0].counts) - 1} CPU(s) "
        "taking none; the lines name only their drivers, so which interface each serves is "
        "not shown."
        + (f" The interrupt chip ({', '.join(sorted(fixed))}) cannot move them." if fixed else ""),
        evidence,
    )
