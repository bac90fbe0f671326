"""A command line glued to its own output. A forum that lost a line break joins the command the
poster typed to the output's first line (``ifconfigeth0      Link encap:Ethernet``, ``uname -r
-m 3.18.11-031811-generic x86_64``, ``sudo lshw -C network  *-network``): the bundle stores the
output under that command, so the command's exact text at the output's start is the command,
not output. And ``uname``'s own flags say which fields it printed (``uname_key``)."""

from __future__ import annotations

# coreutils src/uname.c: the fields print in this order whatever the order of the flags
# (PRINT_KERNEL_NAME, NODENAME, KERNEL_RELEASE, KERNEL_VERSION, MACHINE, PROCESSOR,
# HARDWARE_PLATFORM, OPERATING_SYSTEM); no flag prints the kernel name alone.
UNAME_FIELDS = "snrvmpio"
_LONG = {
    "--kernel-name": "s",
    "--nodename": "n",
    "--kernel-release": "r",
    "--kernel-version": "v",
    "--machine": "m",
    "--processor": "p",
    "--hardware-platform": "i",
    "--operating-system": "o",
}


# what a prompt or a poster's label ends with before the command: "$", "#", "%", ">", a
# label's ")" or "]" (not ":", which ends a kernel line's prefix); a longer text before the
# command is a sentence, not a label
_PROMPT_ENDS = frozenset("$#%>)]")
_LABEL_MAX = 60


def unglued(cmdline: str, text: str) -> str:
    """``text`` without ``cmdline`` glued to its first line: only when the command stands at
    the very start and output follows it on that line (not a ``cmd: message`` of the tool)."""
    command = " ".join(cmdline.split())
    head = text.lstrip("\n")
    if len(command) < 3 or not head.startswith(command):
        return text
    after = head[len(command) : len(command) + 1]
    if after in ("", "\n", ":", "\r") or head[len(command) :].split("\n", 1)[0].strip() == "":
        return text
    return head[len(command) :]


def echoed(cmdline: str, text: str) -> str:
    """``text`` without a first line that is the command itself (typed without a prompt, or
    left after a quote's ``> `` is taken off: "> ip -details link show can0"): the line the
    poster typed, not output."""
    command = " ".join(cmdline.split())
    head = text.lstrip("\n")
    # the first line cut alone, the rest only when it is dropped: a partition copied every
    # output whole (a 100 000-line log: ~30 MB at four bytes a character) to read one line
    end = head.find("\n")
    first = head if end < 0 else head[:end]
    said = " ".join(first.split())
    if len(command) < 3 or not said.endswith(command):
        return text
    # a label or prompt typed before the command ("(EV3DEV)uname -a", "pi@host:~ $ lsusb"):
    # what stands before it ends with a prompt's or a label's closing character
    before = said[: -len(command)].rstrip()
    if before and (before[-1] not in _PROMPT_ENDS or len(before) > _LABEL_MAX):
        return text
    return "" if end < 0 else head[end + 1 :]


def uname_key(args: list[str]) -> str:
    """The parser key of ``uname ARGS``: "uname -a" for -a (and for what no flag reads),
    else "uname -" and the fields it prints in uname.c's order ("uname -rm")."""
    fields: set[str] = set()
    for a in args:
        if a in ("-a", "--all"):
            return "uname -a"
        if a in _LONG:
            fields.add(_LONG[a])
        elif a.startswith("-") and not a.startswith("--") and set(a[1:]) <= set(UNAME_FIELDS):
            fields.update(a[1:])
        else:
            return "uname -a"
    ordered = "".join(f for f in UNAME_FIELDS if f in fields)
    return f"uname -{ordered}" if ordered and ordered != "snrvmpio" else "uname -a"
