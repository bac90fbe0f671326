"""An interrupt whose handler runs in a thread that an affinity write would not move.

On a kernel that threads every handler (uname -v's "PREEMPT_RT": the inventory's
`Board.irq_threads`), the NIC's receive work runs in its "irq/N-name" thread, and that thread
takes the CPUs of the interrupt chip's effective mask, not of smp_affinity (hand fact
`irq_thread_affinity_from_effective`: kernel/irq/manage.c irq_thread_check_affinity). A chip that
forwards the affinity to its parent without filling its own effective mask (the Raspberry Pi
tree's rp1_irq_chip: raspberrypi/linux issues 7101 and 7301) leaves it empty, so the thread
stays where the scheduler put it while /proc/interrupts shows the hard interrupt moved (audit 46
row 2). The Pi says which chip that is: an interrupt set up on some CPUs (smp_affinity) whose
effective_affinity reads no CPU at all; a chip that fills it did so when the line started
(irq_startup -> irq_setup_affinity), so its mask is never empty there."""

from __future__ import annotations

from sbctune.tuning import driver_caps
from sbctune.tuning.knobs import mask_value
from sbctune.tuning.plan_context import Context

FACT = "irq_thread_affinity_from_effective"


def staying(ctx: Context, irqs: list[int]) -> tuple[list[int], str] | None:
    """The interrupts of `irqs` whose handler thread an affinity write would not move, and why
    (plain words, then the kernel source); None where there are none or the kernel does not
    thread its handlers."""
    flag = ctx.inventory.board.irq_threads
    found = driver_caps.kernel_fact(FACT, ctx.inventory.board.kernel) if flag else None
    if not flag or found is None:
        return None
    stay: list[int] = []
    shown = ""
    for irq in irqs:
        own = ctx.facts.knob(f"/proc/irq/{int(irq)}/smp_affinity")
        effective = ctx.facts.knob(f"/proc/irq/{int(irq)}/effective_affinity")
        if own is None or effective is None or not own.ok or not effective.ok:
            continue
        if mask_value(own.text) and mask_value(effective.text) == 0:
            stay.append(irq)
            reads = f"{effective.text.strip()} while smp_affinity reads {own.text.strip()}"
            shown = shown or f"effective_affinity reads {reads}"
    if not stay:
        return None
    it, runs = ("its handler", "runs") if len(stay) == 1 else ("their handlers", "run")
    why = (
        f"this kernel ({flag}) runs every interrupt handler in a thread, and {it} {runs} on the"
        " CPUs of the interrupt chip's effective affinity, which this chip does not report"
        f" ({shown}): the hard interrupt would move, the receive work would not ({found[1]})"
    )
    return stay, why
