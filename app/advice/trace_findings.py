"""A kernel trace that ran in a NIC's driver (inventory.trace_watch): what its head says
happened there, with the head and the frame that names the driver as evidence. The kind of
trace decides the words: a WARNING (lib/bug.c report_bug()), a failed allocation
(mm/page_alloc.c warn_alloc()), a soft lockup (kernel/watchdog.c), an RCU stall
(kernel/rcu/tree_stall.h), an oops or kernel BUG, scheduling while atomic
(kernel/sched/core.c __schedule_bug()) or skb_over_panic (net/core/skbuff.c skb_panic())."""

from __future__ import annotations

import re

from sbctune.inventory.model import Finding, Nic
from sbctune.inventory.trace_watch import named_in

_ORDER = re.compile(r"page allocation failure: order:(\d+)")
_AT = re.compile(r"WARNING: (?:CPU: \d+ PID: \d+ )?at (\S+?)(?::\d+)? ")


def trace_findings(nic: Nic, label: str) -> list[Finding]:
    lines = nic.log.get("kernel_trace")
    if not lines:
        return []
    head = lines[0]
    where = next((n for line in lines if (n := named_in(line))), None)
    ran = f" (the trace shows {where})" if where else ""
    if order := _ORDER.search(head):
        pages = 1 << int(order.group(1))
        summary = (
            f"{label}: a memory allocation of {pages} page{'s' if pages > 1 else ''} at once "
            f"failed while its driver ran{ran}: "
            "a receive buffer it cannot refill means dropped packets. Memory was short or "
            "fragmented at that moment: find what uses it, or keep more free for such "
            "allocations (the vm.min_free_kbytes setting)."
        )
    elif "_panic: " in head:
        summary = (
            f"{label}: the kernel stopped on a packet that did not fit its buffer "
            f"(skb_over_panic / skb_under_panic, net/core/skbuff.c){ran}: the driver's receive "
            "or transmit path wrote past the buffer's end or before its start; the trace is "
            "what to report to the driver's maintainers, with the kernel version."
        )
    elif "Unable to handle kernel" in head or "NULL pointer" in head or "kernel BUG" in head:
        summary = (
            f"{label}: the kernel crashed (an oops) while its driver ran{ran}: the network, or "
            "the whole system, stops until a reboot; the trace is what to report to the "
            "driver's maintainers, with the kernel version."
        )
    elif "scheduling while atomic" in head:
        summary = (
            f"{label}: its driver waited where it must not (BUG: scheduling while atomic){ran}: "
            "such a driver hangs or freezes the system under load; update it or use another."
        )
    elif "soft lockup" in head or "detected stall" in head:
        summary = (
            f"{label}: a CPU was stuck while its driver ran{ran} (the kernel's "
            f"{'soft lockup' if 'soft lockup' in head else 'RCU stall'} detector): the "
            "driver's interrupt or receive work did not give the CPU back, which stalls "
            "traffic; a driver or firmware update is the usual cure."
        )
    else:
        at = _AT.search(head)
        spot = f" at {at.group(1)}" if at else ""
        summary = (
            f"{label}: the kernel warned of a bug or an unexpected state{spot} while its "
            f"driver ran{ran}: the trace is what to report to the driver's maintainers, "
            "with the kernel version."
        )
    return [Finding("driver-complaint", "warning", label, summary, lines)]
