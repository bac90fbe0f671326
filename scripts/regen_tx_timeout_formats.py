#!/usr/bin/env python3
"""Regenerate resources/kernel_source/tx_timeout_formats.tsv: the log formats that network
drivers print from their transmit-timeout handler.

    python scripts/regen_tx_timeout_formats.py    # obtains the source via kernel_source.py

Why: when a transmit queue stalls, net/sched/sch_generic.c dev_watchdog() prints "NETDEV
WATCHDOG: ... transmit queue N timed out" and calls the driver's `ndo_tx_timeout`. Many drivers
print their own line there, in their own words: ixgbe's ixgbe_tx_timeout() calls
ixgbe_tx_timeout_reset(), whose e_warn() says "initiating reset due to tx timeout"; a reader
takes such a line for the timeout itself, whatever its words. A handler is a function that a
`struct net_device_ops` initialiser names as `.ndo_tx_timeout`; its formats are those printed in
its body and in the bodies of the functions of the same file that it calls directly and whose
name says they handle the timeout (one level, "timeout" in the name: ixgbe_tx_timeout_reset()),
by the printing calls regen_kernel_source.py reads (dev_/netdev_/netif_/pr_ and drivers' own
`*_err`/`*_warn`/`*_info` wrappers). A format that the file also prints outside those bodies
(a register dump shared with the probe, a reset helper's words) does not say a timeout
happened and is left out, as are formats of fewer than two words of their own ("%s\\n").
Rows have messages.tsv's shape (key, level, series, files, format) so
sbctune.catalog.kernel_messages.MessageTable reads them. Read from Debian's linux-source-6.1
and -6.12 at the versions resources/kernel_source/VERSION.json names.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KS = ROOT / "resources" / "kernel_source"
OUT = KS / "tx_timeout_formats.tsv"
sys.path.insert(0, str(Path(__file__).resolve().parent))

from kernel_source import pinned_trees  # noqa: E402
from log_call_formats import CALLS, KERN, print_calls, wrapper_level  # noqa: E402
from regen_of_node_formats import series_rows  # noqa: E402

GLOBS = ("drivers/net/*",)
_HANDLER = re.compile(r"\.ndo_tx_timeout\s*=\s*&?\s*([A-Za-z_]\w*)")
_CALLEE = re.compile(r"\b([A-Za-z_]\w*)\s*\(")
_WORDS = re.compile(r"[A-Za-z]{2,}")
_SPEC = re.compile(r"%[-+ #0]*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|z|t|j|L)?[A-Za-z]\w*")
_KERN_LEVELS = set(KERN.values())


def body_of(text: str, name: str) -> str | None:
    """The body (between its braces) of the function `name` defined in `text`, or None."""
    head = re.search(
        rf"^[A-Za-z_][^;{{}}()\n]*\b{re.escape(name)}\s*\([^;{{}}]*\)\s*\{{", text, re.M
    )
    if head is None:
        return None
    depth, start = 0, head.end() - 1
    for i in range(start, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return text[start + 1 : i]
    return None


def printed(body: str) -> list[tuple[str, str]]:
    """(format, level) of each printing call in `body`: the level from the call's name (or its
    KERN_ word), "info" when neither says (a driver's own debug-free wrapper)."""
    found = []
    for call, fmt, kern in print_calls(body):
        level = (
            CALLS.get(call)
            or (kern if kern in _KERN_LEVELS else None)
            or wrapper_level(call)
            or "info"
        )
        if len(_WORDS.findall(_SPEC.sub(" ", fmt))) >= 2:
            found.append((fmt, level))
    return found


def handler_formats(root: Path) -> dict[str, tuple[str, set[str]]]:
    """format -> (level, files) printed by the tx-timeout handlers of drivers/net/."""
    found: dict[str, tuple[str, set[str]]] = {}
    for path in sorted((root / "drivers/net").rglob("*.c")):
        text = path.read_text(encoding="utf-8", errors="replace")
        names = set(_HANDLER.findall(text))
        if not names:
            continue
        siblings = sorted(path.parent.glob("*.c"))
        for name in sorted(names):
            # the handler is defined in this file or, in a multi-file driver, beside it
            where = next(
                (
                    (p, t)
                    for p in [path, *siblings]
                    if (t := p.read_text(encoding="utf-8", errors="replace"))
                    and body_of(t, name) is not None
                ),
                None,
            )
            if where is None:
                continue
            file, file_text = where
            body = body_of(file_text, name) or ""
            bodies = [body]
            for callee in sorted(set(_CALLEE.findall(body)) - {name}):
                if callee in CALLS or callee.startswith(("pr_", "dev_", "netdev_", "netif_")):
                    continue
                if "timeout" in callee.lower() and (inner := body_of(file_text, callee)):
                    bodies.append(inner)
            rest = file_text
            for part in bodies:
                rest = rest.replace(part, "")
            rel = file.relative_to(root).as_posix()
            for part in bodies:
                for fmt, level in printed(part):
                    if '"' + fmt.replace('"', '\\"')[:40] not in rest:  # printed only here
                        found.setdefault(fmt, (level, set()))[1].add(rel)
    return found


def main() -> int:
    trees, versions = pinned_trees(GLOBS, KS / "VERSION.json")
    lines = series_rows({series: handler_formats(root) for series, root in trees.items()})
    OUT.write_text(
        f"# key\tlevel\tseries\tfiles\tformat (scripts/regen_tx_timeout_formats.py; {versions})\n"
        + "\n".join(lines)
        + "\n",
        encoding="utf-8",
    )
    print(f"{len(lines)} formats printed by drivers' ndo_tx_timeout handlers, from {versions}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
