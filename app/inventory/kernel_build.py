"""What the kernel's build says of itself in `uname -v` (UTS_VERSION): whether it runs every
interrupt handler in a thread. init/Makefile (Debian 6.1, 6.12, 7.2) writes "#<n> [SMP]
[PREEMPT|PREEMPT_DYNAMIC|PREEMPT_RT] <timestamp>"; with CONFIG_PREEMPT_RT, force_irqthreads()
is true (include/linux/interrupt.h), so a driver's handler runs in an "irq/N-name" thread whose
CPUs follow the interrupt only through its chip's effective affinity
(kernel/irq/manage.c: irq_thread_check_affinity). The RT patch before mainline printed it as two
words ("#1 PREEMPT RT Sun Apr 1 ...", 4.14.31-rt25 in raspberrypi/linux issue 2244)."""

from __future__ import annotations

import itertools

RT = "PREEMPT_RT"


def irq_threads(version: str | None) -> str | None:
    """The flag that makes the kernel thread its interrupt handlers ("PREEMPT_RT"), read from
    uname's version field, else None. Only its own words count: the build number and the flags
    before the timestamp (a builder's timestamp text could say anything after them)."""
    words = (version or "").split()[:5]  # "#9", "SMP", the preemption flag, then the time
    if not words or not words[0].startswith("#"):
        return None
    flags = words[1:4]
    if RT in flags or any(a == "PREEMPT" and b == "RT" for a, b in itertools.pairwise(flags)):
        return RT
    return None
