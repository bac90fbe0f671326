"""A kernel trace's lines (a part of dmesg_patterns, kept apart to keep that module small): its
head (a WARNING, a failed allocation, a soft lockup, an RCU stall) and its frames, read by
inventory.trace_watch. First in the shapes: a frame is never another kind's line.

- lib/bug.c report_bug() → __warn() (kernel/panic.c): "WARNING: CPU: %d PID: %d at %pS"
  ("at FILE:LINE func+0x../0x.. [module]"); 3.x kernels printed "WARNING: at FILE:LINE func()".
- mm/page_alloc.c warn_alloc(): "%s: page allocation failure: order:%u, mode:%#x(%pGg) ...".
- kernel/watchdog.c watchdog_timer_fn(): "BUG: soft lockup - CPU#%d stuck for %us! [%s:%d]".
- kernel/rcu/tree_stall.h print_other_cpu_stall(): "rcu: INFO: %s detected stalls on CPUs/tasks:".
- Frames: ARM's "[<addr>] (fn+0x0/0xf0) from [<addr>] (fn2+0x..)" (3.x), "[<addr>] (fn) from
  [<addr>] (fn2+0x..)" (4.x), " fn from fn2+0x18/0x1c" (5.x+, arch/arm/kernel/traps.c
  dump_backtrace_entry()); arm64/x86 " fn+0x../0x.. [module]", "[<addr>] ? fn+0x../0x..".
"""

from __future__ import annotations

from sbctune.inventory.parsers.lazy_pattern import Lazy as _Lazy

_FN = r"[A-Za-z_][\w.]{0,80}"
_OFF = r"\+0x[0-9a-f]+/0x[0-9a-f]+"
_ADDR = r"\[<[0-9a-f]{8,16}>\] "

TRACE_PATTERNS: list[tuple[str, _Lazy]] = [
    (
        "trace_head",
        _Lazy(
            r"^WARNING: (?:CPU: \d+ PID: \d+ )?at (?P<file>\S+?)(?::\d+)? (?P<func>\S+?)"
            r"(?:\(\))?(?: \[(?P<module>[\w-]+)(?:@[^\]\s]*)?\](?:\(\))?)?$"
        ),
    ),
    ("trace_head", _Lazy(r"^(?P<task>\S.{0,40}?): page allocation failure: order:(?P<order>\d+)")),
    ("trace_head", _Lazy(r"^(?:watchdog: )?BUG: soft lockup - CPU#(?P<cpu>\d+) stuck for")),
    ("trace_head", _Lazy(r"^(?:rcu: )?INFO: (?P<rcu>rcu_\w+) (?:self-)?detected stalls?\b")),
    (
        "trace_frame",
        _Lazy(
            rf"^\s*(?P<frame>(?:{_ADDR})?(?:\? )?\(?{_FN}(?:{_OFF})?\)?"
            rf"(?: from (?:{_ADDR})?\(?{_FN}{_OFF}\)?| \[[\w-]+\]|\(\))*)\s*$"
        ),
    ),
]
TRACE_NEEDLES: dict[str, tuple[str, ...]] = {
    "trace_head": ("WARNING: ", "page allocation failure", "soft lockup", "detected stall"),
    "trace_frame": ("+0x",),
}
