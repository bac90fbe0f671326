"""A kernel trace's lines (a part of dmesg_patterns, kept apart to keep that module small): its
head (a WARNING, a failed allocation, a soft lockup, an RCU stall) and its frames, read by
inventory.trace_watch. First in the shapes: a frame is never another kind's line.

- lib/bug.c report_bug() → __warn() (kernel/panic.c): "WARNING: CPU: %d PID: %d at %pS"
  ("at FILE:LINE func+0x../0x.. [module]"); 3.x kernels printed "WARNING: at FILE:LINE func()".
- mm/page_alloc.c warn_alloc(): "%s: page allocation failure: order:%u, mode:%#x(%pGg) ...".
- kernel/watchdog.c watchdog_timer_fn(): "BUG: soft lockup - CPU#%d stuck for %us! [%s:%d]".
- kernel/rcu/tree_stall.h print_other_cpu_stall(): "rcu: INFO: %s detected stalls on CPUs/tasks:".
- kernel/sched/core.c __schedule_bug(): "BUG: scheduling while atomic: %s/%d/0x%08x"; an oops:
  arch/arm/mm/fault.c __do_kernel_fault() and arch/arm64/mm/fault.c die_kernel_fault()
  "Unable to handle kernel %s at virtual address %08lx" (x86 show_fault_oops(): "BUG: kernel
  NULL pointer dereference, address: ..."); lib/bug.c report_bug() "kernel BUG at %s:%u!";
  net/core/skbuff.c skb_panic() "%s: text:%px len:%d put:%d ... dev:%s" (skb_over_panic,
  skb_under_panic: the interface the packet was for, "<NULL>" when none).
- A stack dump's own first lines when the report's head is not shown (an excerpt, a journal cut):
  "Modules linked in:" (kernel/module/main.c print_modules()), "Call trace:" (arm64
  dump_backtrace()), "Call Trace:" (x86 show_trace_log_lvl()), "Backtrace:" (ARM's
  c_backtrace caller dump_backtrace()); they open a trace only when no head is open.
- The registers' code addresses: "PC is at %pS" / "LR is at %pS" (arch/arm/kernel/process.c
  __show_regs()), "pc : %pS" / "lr : %pS" (arch/arm64/kernel/process.c __show_regs()), x86's
  "RIP: %04x:%pS" (arch/x86/kernel/dumpstack.c show_ip()): each names the function as a frame.
- The worker's line a dump prints when it ran in a workqueue: kernel/workqueue.c
  print_worker_info() "Workqueue: %s %ps" (the queue's name, then the work function, a module's
  with the module: "Workqueue: events brcmf_fweh_event_worker [brcmfmac]"): a frame.
- Frames: ARM's "[<addr>] (fn+0x0/0xf0) from [<addr>] (fn2+0x..)" (3.x), "[<addr>] (fn) from
  [<addr>] (fn2+0x..)" (4.x), " fn from fn2+0x18/0x1c" (5.x+, arch/arm/kernel/traps.c
  dump_backtrace_entry()); "%pS" in parentheses names a module's function with its module
  inside them, "(fn+0x60/0x138 [r8152])", and 4.1-era kernels print no space after the address,
  "[<80012a54>](dump_backtrace)"; arm64/x86 " fn+0x../0x.. [module]", "[<addr>] ? fn+0x../0x..".
"""

from __future__ import annotations

from sbctune.inventory.parsers.lazy_pattern import Lazy as _Lazy

_FN = r"[A-Za-z_][\w.]{0,80}"
_OFF = r"\+0x[0-9a-f]+/0x[0-9a-f]+"
_ADDR = r"\[<[0-9a-f]{8,16}>\] ?"
_MOD = r"(?: \[[\w-]+\])?"  # "%pS" of a module's function: "fn+0x60/0x138 [r8152]"

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
    ("trace_head", _Lazy(r"^(?P<atomic>BUG: scheduling while atomic): ")),
    (
        "trace_head",
        _Lazy(
            r"^(?P<oops>Unable to handle kernel |BUG: unable to handle kernel |"
            r"BUG: kernel NULL pointer dereference)"
        ),
    ),
    (
        "trace_head",
        _Lazy(
            r"^(?:skbuff: )?(?P<skb>skb_(?:over|under)_panic): text:\S+ len:\d+ put:\d+ "
            r".{0,200}dev:(?P<iface>\S{1,16})$"
        ),
    ),
    ("trace_head", _Lazy(r"^(?P<oops>kernel BUG) at (?P<file>\S+?):\d+!$")),
    ("trace_head", _Lazy(r"^(?P<start>Modules linked in:|Call [Tt]race:|Backtrace:)")),
    (
        "trace_frame",
        _Lazy(
            r"^(?:PC is at|LR is at|pc :|lr :|RIP: [0-9a-f]{4}:) ?"
            rf"(?P<frame>{_FN}{_OFF}{_MOD})\s*$"
        ),
    ),
    (
        # the queue's name is the workqueue's own (alloc_workqueue()'s fmt: "events",
        # "brcmf_wq/mmc1:0001:1"): one word; the function then has no offset (%ps)
        "trace_frame",
        _Lazy(rf"^Workqueue: \S{{1,80}} (?P<frame>{_FN}{_MOD})\s*$"),
    ),
    (
        "trace_frame",
        _Lazy(
            rf"^\s*(?P<frame>(?:{_ADDR})?(?:\? )?\(?{_FN}(?:{_OFF})?{_MOD}\)?"
            rf"(?: from (?:{_ADDR})?\(?{_FN}{_OFF}{_MOD}\)?| \[[\w-]+\]|\(\))*)\s*$"
        ),
    ),
]
TRACE_NEEDLES: dict[str, tuple[str, ...]] = {
    "trace_head": (
        "WARNING: ",
        "page allocation failure",
        "soft lockup",
        "detected stall",
        "BUG",
        "Unable to handle kernel",
        "_panic: ",
        "Modules linked in:",
        "all trace:",
        "all Trace:",
        "Backtrace:",
    ),
    "trace_frame": ("+0x", "Workqueue: "),
}
