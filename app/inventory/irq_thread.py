"""A stack dump taken in a threaded interrupt handler names the driver that asked for the
interrupt (the sixty-third set: an ENC424J600 on SPI, whose "eth1: hw csum failure" dump ran in
`irq/136-encx24j`).

kernel/irq/manage.c setup_irq_thread() names an interrupt's handler thread "irq/%d-%s" (its
secondary thread "irq/%d-s-%s") after the IRQ number and the name the driver passed to
request_threaded_irq() (encx24j600.c encx24j600_open(): DRV_NAME); a task's name holds
TASK_COMM_LEN - 1 = 15 characters (include/linux/sched.h), so a long name is cut. A stack dump
prints the running task's name in its "CPU: %d PID: %d Comm: %.20s ..." line
(lib/dump_stack.c dump_stack_print_info(); 6.1 and 6.12 alike). The network driver of that
name (or, cut, the one whose name begins with it) is the code that ran. SPI and I2C network
chips take their interrupts in such threads (their bus sleeps), so their dumps show them.

net/core/dev.c netdev_rx_csum_fault() prints "%s: hw csum failure" with the interface's name
and then dumps the stack: the dump right after that line is that interface's, so its driver is
the interface's driver. Any other dump is keyed by the driver's source directory, as
trace_watch's frames are, and tie_traces ties it to the one device the log shows of it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from pathlib import PurePosixPath

from sbctune.catalog.kernel_drivers import load_kernel_drivers
from sbctune.inventory.parsers.dmesg import DmesgEvent
from sbctune.inventory.sightings import Sighting, iface_key

_SRC = "dmesg"
_COMM_LEN = 15  # TASK_COMM_LEN - 1: the characters a task's name keeps
# the dump's task line: "CPU: 0 PID: 399 Comm: irq/136-encx24j Not tainted 4.14.159 #4"
_COMM = re.compile(r"\bPID: \d{1,10} Comm: (irq/\d{1,6}-(?:s-)?([\w.-]{1,15}))(?: |$)")
_LOOK_BACK = 2  # the fault's own line is the one before the dump (an excerpt may skip none)


def thread_driver(text: str) -> str | None:
    """The network driver whose threaded interrupt handler a dump's task line names: the
    driver of that name, or, when the task's name was cut at 15 characters, the one network
    driver whose name begins with what is left; None for any other task."""
    m = _COMM.search(text)
    if m is None:
        return None
    return _driver_named(m.group(2), cut=len(m.group(1)) >= _COMM_LEN)


@functools.cache
def _driver_named(name: str, cut: bool) -> str | None:
    table = load_kernel_drivers()
    if not cut:
        driver = table.get(name)
        return driver.name if driver is not None and driver.file else None
    found = {
        n
        for n in table.names()
        if n.startswith(name) and (d := table.get(n)) is not None and d.file
    }
    return next(iter(found)) if len(found) == 1 else None


def irq_thread_sighting(event_at: Callable[[int], DmesgEvent], index: int) -> Sighting | None:
    """What the dump's task line at `index` (the log's events by place: `event_at`) says: the
    interface of the checksum fault just before it has the thread's driver; with no such line,
    a trace keyed by the driver's source directory (tied by trace_watch.tie_traces to that
    driver's one device)."""
    event = event_at(index)
    driver = thread_driver(event.text)
    if driver is None:
        return None
    why = (
        f"{event.text[:200]} (the threaded interrupt handler of {driver}: kernel/irq/manage.c "
        "setup_irq_thread() names it irq/<IRQ>-<the name its driver asked for the IRQ with>)"
    )
    for place in range(index - 1, max(0, index - _LOOK_BACK) - 1, -1):
        before = event_at(place)
        if before.kind == "csum_failure" and (key := iface_key(before.fields.get("iface"))):
            sighting = Sighting([key])
            sighting.add("driver", driver, _SRC, why, event.line)
            return sighting
    table_driver = load_kernel_drivers().get(driver)
    if table_driver is None or not table_driver.file:
        return None
    sighting = Sighting([("trace", str(PurePosixPath(table_driver.file).parent))])
    sighting.add("kernel_trace", event.text, _SRC, event.text, event.line)
    sighting.add("trace_driver", driver, _SRC, why, event.line)
    return sighting
