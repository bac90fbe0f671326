"""The lab's /proc/modules, from the profile's captured `lsmod`.

The lab runs on this host's kernel, whose /proc/modules lists this machine's modules, not the
Pi's: without a capture it is covered with an empty file (``overlay.HARDWARE_FILES``). A
profile that captured `lsmod` gets the same list as the kernel prints it
(kernel/module/procfs.c m_show(): name, size, use count, each user followed by "," or "-"
when none, the state, and the address, which a reader without CAP_SYSLOG sees as 0), since
`inspect` reads /proc/modules, not lsmod (lsmod reads the same list). Nothing is added that
the capture does not show: every module is "Live" (lsmod lists only those) and no taint
flags are printed (lsmod does not show them).
"""

from __future__ import annotations

from sbctune.inventory.bundle import Bundle
from sbctune.inventory.parsers.dispatch import resolve_command
from sbctune.inventory.parsers.lsmod import LINE_RE, MAX_LINES, USER_RE

PROC_MODULES = "/proc/modules"
_NO_ADDRESS = "0x0000000000000000"  # %px of NULL: kallsyms_show_value() refused the reader


def modules_from_lsmod(bundle: Bundle) -> str | None:
    """/proc/modules as the profile's Pi printed it, or None (no `lsmod` capture, or a
    captured /proc/modules, which is served as it is)."""
    if bundle.file(PROC_MODULES) is not None:
        return None
    captured = [c for c in bundle.commands if resolve_command(c)[0] == "lsmod"]
    if not captured:
        return None
    rows: list[str] = []
    for line in (bundle.command(captured[0]) or "").splitlines()[:MAX_LINES]:
        m = LINE_RE.match(line.strip())
        if m is None:
            continue  # the header, a prompt
        name, size, count, users = m.group(1), m.group(2), m.group(3), m.group(4) or ""
        names = [u for u in users.split(" ")[0].split(",") if u and u != "-"]
        shown = "".join(f"{u}," for u in names if USER_RE.match(u)) or "-"
        rows.append(f"{name} {size} {count} {shown} Live {_NO_ADDRESS}\n")
    return "".join(rows)
