#!/usr/bin/env python3
"""Regenerate resources/kernel_source/probe_exits.json: the messages a network driver's probe
function prints on its way out with an error, from Debian's linux-source-6.1 and -6.12.

    python scripts/regen_probe_exits.py    # obtains the source via kernel_source.py

Why: the driver core says a probe failed ("probe of %s failed with error %d", drivers/base/dd.c
call_driver_probe()) for every error but -ENODEV and -ENXIO, which it logs at debug level only
("rejects match"). rtw88's rtw_sdio_probe() prints "failed to setup chip information" and jumps
to its error labels with rtw_chip_info_setup()'s -ENODEV: the log says the driver gave up, and
no line says the probe failed. So a line whose format a probe function prints in an
`if (...) { ...; goto label; }` or `if (...) { ...; return err; }` block (or `return
dev_err_probe(...)`), at error or warning level, is that probe failing.

The probe functions are those a driver struct (usb, pci, sdio, platform, spi: the drivers of
drivers.json, by the name the kernel logs them under) points `.probe` at, read in the struct's
own file, else in its directory (rtw8822cs.c's `.probe = rtw_sdio_probe`, defined in sdio.c).
Only the probe function's own calls count, not those of the functions it calls: a helper may
print and its caller carry on.

The table's rows have messages.tsv's shape (key, level, series, probes, format), read by
sbctune.catalog.kernel_messages' reader; "probes" names each row's "file:function", and
"drivers" says which drivers each probe function is the probe of.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KS = ROOT / "resources" / "kernel_source"
OUT = KS / "probe_exits.json"
sys.path.insert(0, str(Path(__file__).resolve().parent))

from kernel_source import write_table  # noqa: E402
from log_call_formats import call_level, format_key, print_calls, words  # noqa: E402
from regen_kernel_source import _DRIVER_RE, _NAME_RE, _defines, _module, _network_sources  # noqa: E402
from regen_tables import pinned_packages  # noqa: E402

GLOBS = ("drivers/net/*", "drivers/staging/*")
_PROBE_RE = re.compile(r"\.probe\s*=\s*(\w+)\s*,")
# a usbnet minidriver's struct driver_info hook that usbnet_probe() calls, leaving with an error
# when it fails (6.1/6.12 drivers/net/usb/usbnet.c usbnet_probe(): "status = info->bind(dev,
# udev); if (status < 0) goto out1;")
_BIND_RE = re.compile(r"\.bind\s*=\s*(\w+)\s*,")
_TAIL_RE = re.compile(r"\breturn\s+([a-z_]\w*)\s*\(")
_LEVELS = ("emerg", "alert", "crit", "err", "warn")
# an `if` block's last statement when it leaves the function with an error
_MASK_START_RE = re.compile(r"/[*/]|[\"']")  # where a comment or a literal starts
_EXIT_RE = re.compile(r"(?:goto\s+\w+|return\s+(?!0\s*;)[^;]+)\s*;\s*$")


def _mask(text: str) -> str:
    """`text` with comments blanked and string/char literals' insides replaced by 'x' (same
    length, same positions): braces and parentheses inside them are not code."""
    # From one comment or quote to the next (C's scan), copying the code between as it is.
    out: list[str] = []
    i, n, copied = 0, len(text), 0
    while (m := _MASK_START_RE.search(text, i)) is not None:
        i = m.start()
        if m.group() in ("/*", "//"):
            if m.group() == "/*":
                end = text.find("*/", i + 2)
                end = n if end < 0 else end + 2
            else:
                end = text.find("\n", i)
                end = n if end < 0 else end
            out += [text[copied:i], " " * (end - i)]
            i = copied = end
            continue
        quote, j = text[i], i + 1
        while j < n and text[j] != quote and text[j] != "\n":
            j += 2 if text[j] == "\\" else 1
        out += [text[copied : i + 1], "x" * (j - i - 1)]
        copied, i = j, j + 1  # the closing quote (or line end) is kept
    out.append(text[copied:])
    return "".join(out)


def _close(masked: str, start: int, open_: str, close: str) -> int:
    """The index just past the bracket that closes the one at `start`."""
    depth, i = 0, start
    while i < len(masked):
        ch = masked[i]
        if ch == open_:
            depth += 1
        elif ch == close:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return len(masked)


def function_span(masked: str, name: str) -> tuple[int, int] | None:
    """The body of the function `name` defined in `masked` (between its braces), or None."""
    head = re.search(rf"^[A-Za-z_][\w \t\*]*\b{re.escape(name)}\s*\([^;{{]*\)\s*\{{", masked, re.M)
    if head is None:
        return None
    return head.end(), _close(masked, head.end() - 1, "{", "}") - 1


def _statement_end(masked: str, start: int, stop: int) -> int:
    """Past the `;` that ends the statement starting at `start` (parentheses matched)."""
    depth, i = 0, start
    while i < stop:
        ch = masked[i]
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if ch == ";" and depth == 0:
            return i + 1
        i += 1
    return stop


def exit_blocks(text: str, masked: str, start: int, stop: int) -> list[str]:
    """The source of each `if` block of the span that ends by leaving the function with an
    error (`goto label;` to a label after it, `return err;`): its braces' inside, or its
    single statement."""
    found = []
    for m in re.finditer(r"\bif\s*\(", masked[start:stop]):
        cond = start + m.end() - 1
        after = _close(masked, cond, "(", ")")
        body = after + len(masked[after:stop]) - len(masked[after:stop].lstrip())
        if body >= stop:
            continue
        if masked[body] == "{":
            end = _close(masked, body, "{", "}")
            inside = (body + 1, end - 1)
        else:
            inside = (body, _statement_end(masked, body, stop))
        leaves = _EXIT_RE.search(masked[inside[0] : inside[1]].rstrip())
        if leaves and _forward(leaves.group(0), masked, inside[1], stop):
            found.append(text[inside[0] : inside[1]])
    return found


def _forward(exit_: str, masked: str, after: int, stop: int) -> bool:
    """A `return`, or a `goto` to a label after the block (its error path), not back to one
    before it (`goto retry;`: the probe tries again)."""
    label = re.match(r"goto\s+(\w+)", exit_)
    if label is None:
        return True
    return re.search(rf"^\s*{label.group(1)}\s*:", masked[after:stop], re.M) is not None


def block_messages(block: str) -> list[tuple[str, str]]:
    """(format, level) of each error- or warning-level print call of the block."""
    found = []
    for call, fmt, kern in print_calls(block):
        level = call_level(call, kern)
        if level in _LEVELS and len(fmt) >= 6 and re.search(r"[A-Za-z]{3}", fmt):
            found.append((fmt, level))
    return found


def _struct_probes(path: Path, text: str) -> list[tuple[str, str]]:
    """(driver name, probe function) of each driver struct of the file."""
    found = []
    local: dict[str, str] | None = None
    for _kind, body in _DRIVER_RE.findall(text):
        named, probe = _NAME_RE.search(body), _PROBE_RE.search(body)
        if named is None or probe is None:
            continue
        if local is None:
            # the file's own header before its directory's others: sr9800.h and aqc111.h both
            # define DRIVER_NAME ("CoreChips", "aqc111"), and sr9800.c means its own
            own = [h for h in (path.with_suffix(".h"),) if h.exists()]
            local = {
                **_defines(sorted(path.parent.glob("*.[ch]"))),
                **_defines(own),
                **_defines([path]),
            }
        name = named.group(1) or local.get(named.group(2) or "", "")
        if named.group(2) == "KBUILD_MODNAME" or (named.group(2) and not name):
            name = _module(path)
        found.append((name, probe.group(1)))
    return found


def _definition(path: Path, name: str, masks: dict[Path, str]) -> Path | None:
    """The file that defines function `name`: the struct's own, else one of its directory's."""
    for candidate in [path, *sorted(path.parent.glob("*.c"))]:
        if candidate not in masks:
            raw = candidate.read_text(encoding="utf-8", errors="replace")
            masks[candidate] = _mask(raw)
        if function_span(masks[candidate], name) is not None:
            return candidate
    return None


def scan(
    root: Path, known: set[str]
) -> tuple[dict[str, set[str]], dict[tuple[str, str], set[str]]]:
    """The drivers of each probe function ("file:function"), and the probes that print each
    (format, level) on an error exit."""
    drivers_of: dict[str, set[str]] = {}
    rows: dict[tuple[str, str], set[str]] = {}
    masks: dict[Path, str] = {}
    exits: Counter[tuple[Path, str]] = Counter()
    printed: dict[Path, Counter[str]] = {}

    def _only_exits(fmt: str, keys: set[str]) -> bool:
        """The format is printed nowhere else in its probes' directories: a line of it is the
        probe giving up, not a resume or an open failing with the same words."""
        for folder in {(root / k.partition(":")[0]).parent for k in keys}:
            if folder not in printed:
                printed[folder] = Counter(
                    f
                    for c in sorted(folder.glob("*.c"))
                    for f, _lvl in block_messages(c.read_text(encoding="utf-8", errors="replace"))
                )
            if printed[folder][fmt] > exits[(folder, fmt)]:
                return False
        return True

    for path in _network_sources(root):
        text = path.read_text(encoding="utf-8", errors="replace")
        if "_driver" not in text or ".probe" not in text:
            continue
        pending = [(n, p, path) for n, p in _struct_probes(path, text) if n in known]
        # usbnet_probe() is each minidriver's probe, and the file's bind hooks are part of it:
        # sr9700_bind()'s "Error reading MAC address" then -ENODEV is the probe giving up
        # (sr9700.c), silently for the driver core
        usbnet = sorted({n for n, p, _ in pending if p == "usbnet_probe"})
        pending += [(n, f, path) for n in usbnet for f in dict.fromkeys(_BIND_RE.findall(text))]
        while pending:
            name, probe, near = pending.pop()
            where = _definition(near, probe, masks)
            if where is None:
                continue
            rel = where.relative_to(root).as_posix()
            key = f"{rel}:{probe}"
            first = key not in drivers_of
            if name in drivers_of.get(key, ()):
                continue  # this driver's walk has been here (a cycle of tail calls)
            drivers_of.setdefault(key, set()).add(name)
            span = function_span(masks[where], probe)
            assert span is not None
            # a function whose result the probe returns is the probe too (rtw8822cu_probe():
            # "return rtw_usb_probe(intf, id);"): its exits are the probe's
            body = masks[where][span[0] : span[1]]
            pending += [(name, f, where) for f in dict.fromkeys(_TAIL_RE.findall(body))]
            if not first:
                continue
            source = where.read_text(encoding="utf-8", errors="replace")
            for block in exit_blocks(source, masks[where], *span):
                for fmt, level in block_messages(block):
                    rows.setdefault((fmt, level), set()).add(key)
                    exits[(where.parent, fmt)] += 1
    return drivers_of, {row: keys for row, keys in rows.items() if _only_exits(row[0], keys)}


def build(roots: dict[str, Path], known: set[str]) -> tuple[dict[str, list[str]], list[str]]:
    """The table's "probes" and "rows" from each series' tree."""
    drivers_of: dict[str, set[str]] = {}
    series_of: dict[tuple[str, str], set[str]] = {}
    probes_of: dict[tuple[str, str], set[str]] = {}
    for series, root in roots.items():
        found, rows = scan(root, known)
        for key, names in found.items():
            drivers_of.setdefault(key, set()).update(names)
        for row, keys in rows.items():
            series_of.setdefault(row, set()).add(series)
            probes_of.setdefault(row, set()).update(keys)
    counts: Counter[str] = Counter(w for fmt, _level in probes_of for w in set(words(fmt)))
    lines = []
    for (fmt, level), keys in probes_of.items():
        if key := format_key(fmt, counts):
            in_series = sorted(series_of[(fmt, level)], key=lambda s: tuple(map(int, s.split("."))))
            lines.append("\t".join((key, level, ",".join(in_series), ",".join(sorted(keys)), fmt)))
    used = {k for keys in probes_of.values() for k in keys}
    probes = {k: sorted(v) for k, v in sorted(drivers_of.items()) if k in used}
    return probes, sorted(lines)


def main() -> int:
    known = set(json.loads((KS / "drivers.json").read_text(encoding="utf-8"))["drivers"])
    roots, used = pinned_packages(GLOBS)
    probes, lines = build(roots, known)
    write_table(
        OUT,
        "scripts/regen_probe_exits.py",
        used,
        {
            "about": (
                "Messages a network driver's probe function prints, at error or warning level, "
                "in an if block that then leaves the probe with an error (goto to its error "
                "labels, return err): such a line is that probe failing, even where the driver "
                "core says nothing (-ENODEV, -ENXIO: drivers/base/dd.c call_driver_probe() logs "
                "them at debug level). rows: messages.tsv's shape (key, level, series, probes, "
                "format); probes: each probe function ('file:function') and the drivers whose "
                "struct points .probe at it. Generated by scripts/regen_probe_exits.py; do not "
                "edit."
            ),
            "probes": probes,
            "rows": lines,
        },
        sort_keys=False,
    )
    print(f"{len(lines)} exit messages of {len(probes)} probe functions -> {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
