#!/usr/bin/env python3
"""Regenerate resources/kernel_source/netdev_named_formats.json: the formats network drivers
print about their *device* (dev_info(&pdev->dev, ...) & co) with the interface's name as one
of the conversions, and which conversion that is.

    python scripts/regen_netdev_named_formats.py    # obtains the source via kernel_source.py

Why: such a line names its device in dev_printk's place and its interface only inside the
message: igb_ptp.c igb_ptp_init() `dev_info(&adapter->pdev->dev, "added PHC on %s\\n",
adapter->netdev->name)` prints "igb 0000:03:00.0: added PHC on eth2"; ixgbe_ptp.c
ixgbe_ptp_create_clock() `e_dev_info("registered PHC device on %s\\n", netdev->name)` (the
driver's macro for dev_info(&adapter->pdev->dev, ...), ixgbe_common.h) prints "ixgbe
0000:03:00.1: registered PHC device on eth2". The line ties that device to that interface.

A call is a dev_* printk (the device first, then the format) or a driver's macro defined in
drivers/net as one (`#define e_dev_info(format, arg...) dev_info(&adapter->pdev->dev, format,
## arg)`, whose format comes first). A conversion is the interface's name when it is a `%s`
whose argument is a net_device's name: `X->name` where X is `netdev`, `ndev`, `net_dev` or
`dev`, possibly reached through members (`adapter->netdev->name`), or `netdev_name(X)` of
such an X; a variable declared nearer before the call as another struct is not one (b53's
`struct b53_device *dev`, whose `name` is the switch chip's; mv88e6xxx's netdev_name() of a
bridge). Read from Debian's
linux-source-6.1 and -6.12 at the versions resources/kernel_source/VERSION.json names.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KS = ROOT / "resources" / "kernel_source"
OUT = KS / "netdev_named_formats.json"
sys.path.insert(0, str(Path(__file__).resolve().parent))

from kernel_source import pinned_trees, write_table  # noqa: E402
from log_call_formats import format_after  # noqa: E402
from regen_tables import add_once  # noqa: E402

GLOBS = ("drivers/net/*",)
_DEV_CALLS = r"dev_(?:info|notice|warn|err|crit|alert|emerg)(?:_ratelimited|_once)?"
# a driver's macro printing through dev_*: "#define e_dev_info(format, arg...) \ dev_info(...,"
_MACRO_RE = re.compile(
    r"#define\s+(\w+)\(\s*\w+\s*,\s*\w*\.\.\.\)\s*\\?\s*(" + _DEV_CALLS + r")\s*\([^,]+,\s*\w+\s*,"
)
_SPEC_RE = re.compile(
    r"%[-+ #0]*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|z|t|j|L)?(p[A-Za-z][A-Za-z0-9]*|[a-zA-Z%])"
)
_NAME_ARG_RE = re.compile(
    r"^(?:(?:[A-Za-z_]\w*(?:\[[^\]]*\])?)(?:->|\.))*(?P<var>netdev|ndev|net_dev|dev)->name$"
    r"|^netdev_name\((?:(?:[A-Za-z_]\w*)(?:->|\.))*(?P<var2>netdev|ndev|net_dev|dev)\)$"
)
# how far back a call's variable is looked for (its function's parameters and locals)
_DECLARED_WITHIN = 6000


def macros(root: Path) -> set[str]:
    """The names of drivers/net's macros that print through a dev_* call, format first."""
    found: set[str] = set()
    for path in sorted((root / "drivers/net").rglob("*.h")) + sorted(
        (root / "drivers/net").rglob("*.c")
    ):
        text = path.read_text(encoding="utf-8", errors="replace")
        if "#define" in text:
            found.update(m.group(1) for m in _MACRO_RE.finditer(text))
    return found


def _args_after(text: str, start: int) -> list[str]:
    """The call's arguments from `start` (just after the format literal) to its ')'."""
    args: list[str] = []
    depth, current = 0, []
    for ch in text[start : start + 800]:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            if depth == 0:
                args.append("".join(current).strip())
                return [a for a in args if a]
            depth -= 1
        elif ch == "," and depth == 0:
            args.append("".join(current).strip())
            current = []
            continue
        current.append(ch)
    return []


def _literal_end(text: str, start: int) -> int | None:
    """Where the call's format literal (adjacent literals joined) ends, from its '('."""
    m = re.compile(r'"(?:[^"\\\n]|\\.)*"(?:\s*"(?:[^"\\\n]|\\.)*")*').search(text, start)
    return m.end() if m and m.start() - start < 400 else None


def _is_netdev(var: str, before: str, chained: bool) -> bool:
    """Whether `var` is a net_device where it is used: its nearest declaration before the call
    says so. A bare `dev` must be declared so (b53_common.c's `dev->name` is a struct
    b53_device's chip name); a member reached through others (`adapter->netdev`) is taken
    by its name when no declaration of that name is near."""
    decls = list(re.finditer(rf"struct\s+(\w+)\s*\*\s*{var}\b", before[-_DECLARED_WITHIN:]))
    if decls:
        return decls[-1].group(1) == "net_device"
    return chained and var != "dev"


def name_conversion(fmt: str, args: list[str], before: str = "") -> int | None:
    """The index of the conversion that prints a net_device's name, or None; `before` is the
    source before the call (where its variables are declared)."""
    convs = [m.group(1) for m in _SPEC_RE.finditer(fmt) if m.group(1) != "%"]
    stars = [m.group(0).count("*") for m in _SPEC_RE.finditer(fmt) if m.group(1) != "%"]
    pos = 0
    for i, (conv, star) in enumerate(zip(convs, stars, strict=True)):
        pos += star  # a '*' width or precision takes an argument of its own
        if pos >= len(args):
            return None
        arg = re.sub(r"\s+", "", args[pos])
        m = _NAME_ARG_RE.match(arg)
        var = m and (m.group("var") or m.group("var2"))
        if conv == "s" and var and _is_netdev(var, before, arg.count("->") > 1):
            return i
        pos += 1
    return None


def formats_in(text: str, calls: re.Pattern[str]) -> dict[str, int]:
    found: dict[str, int] = {}
    for m in calls.finditer(text):
        got = format_after(text, m.end())
        end = _literal_end(text, m.end())
        if got is None or end is None:
            continue
        fmt = got[0].strip().removesuffix("\\n").replace('\\"', '"').strip()
        if "\\n" in fmt or not fmt:
            continue
        at = name_conversion(fmt, _args_after(text, end), text[: m.start()])
        if at is not None:
            found[fmt] = at
    return found


def table(trees: dict[str, Path]) -> dict[str, dict[str, object]]:
    found: dict[str, dict[str, object]] = {}
    for series, root in sorted(trees.items()):
        names = sorted(macros(root) | {_DEV_CALLS})
        calls = re.compile(r"\b(" + "|".join(names) + r")\s*\(")
        for path in sorted((root / "drivers/net").rglob("*.c")):
            rel = path.relative_to(root).as_posix()
            for fmt, at in formats_in(
                path.read_text(encoding="utf-8", errors="replace"), calls
            ).items():
                entry = found.setdefault(fmt, {"name_at": at, "files": [], "series": []})
                add_once(entry, files=rel, series=series)
    return dict(sorted(found.items()))


def main() -> int:
    trees, versions = pinned_trees(GLOBS, KS / "VERSION.json")
    formats = table(trees)
    data: dict[str, object] = {
        "formats": formats,
    }
    write_table(OUT, "scripts/regen_netdev_named_formats.py", versions, data, sort_keys=True)
    print(f"{len(formats)} device formats that print the interface's name")
    return 0


if __name__ == "__main__":
    sys.exit(main())
