#!/usr/bin/env python3
"""Regenerate resources/kernel_source/r8152_versions.json: the chip version codes r8152 reads
from its chip (PLA_TCR1's version field) and the chip family each one runs.

    python scripts/regen_r8152_versions.py    # obtains the source via kernel_source.py

Why: an older r8152 that does not know a chip prints the code it read ("r8152 1-1:1.0
(unnamed net_device) (uninitialized): Unknown version 0x6010", drivers/net/usb/r8152.c
rtl8152_get_version()'s default case) and leaves the device unbound; the code names the chip
by the newer kernels' own tables: rtl8152_get_version() maps 0x6010 to RTL_VER_09 and
rtl_ops_init() runs RTL_VER_09 with r8153b_init, the RTL8153B's.

Read from Debian's linux-source-6.1 and -6.12 (the versions resources/kernel_source/VERSION.json
names): each `case 0xNNNN: version = RTL_VER_NN;` of rtl8152_get_version() (of its helper
__rtl_get_hw_ver() in 6.12), and each group of
`case RTL_VER_NN:` labels in rtl_ops_init() before the `ops->init = r81XXx_init;` they share.
The chip is the family the init function is named for ("r8153b_init" -> "RTL8153B"; the
RTL8152's "r8152b_init" serves RTL_VER_01, _02 and _07 alike, so it names the family RTL8152B).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KS = ROOT / "resources" / "kernel_source"
OUT = KS / "r8152_versions.json"
sys.path.insert(0, str(Path(__file__).resolve().parent))

from kernel_source import pinned_trees, write_table  # noqa: E402

GLOBS = ("drivers/net/usb/*",)
FILE = "drivers/net/usb/r8152.c"
_CODE = re.compile(r"case\s+0x([0-9a-fA-F]{4})\s*:\s*version\s*=\s*(RTL_\w+)\s*;")
_LABEL = re.compile(r"case\s+(RTL_VER_\d+)\s*:")
_INIT = re.compile(r"ops->init\s*=\s*(r81\w+?)_init\s*;")


def _body(text: str, name: str) -> str:
    """The text of function `name`, from its definition's brace to the matching one."""
    at = re.search(rf"\n[^\n;]*\b{name}\s*\([^;{{]*\)\s*\{{", text)
    if at is None:
        raise SystemExit(f"{name}() not found in {FILE}")
    depth, i = 0, at.end() - 1
    for j in range(i, len(text)):
        depth += {"{": 1, "}": -1}.get(text[j], 0)
        if depth == 0:
            return text[i : j + 1]
    raise SystemExit(f"{name}() has no end in {FILE}")


def versions_in(text: str) -> dict[str, dict[str, str]]:
    """code ("0x6010") -> {"version": "RTL_VER_09", "init": "r8153b_init", "chip": "RTL8153B"}."""
    # the switch is rtl8152_get_version()'s in 6.1 and its helper __rtl_get_hw_ver()'s in 6.12:
    # the only `case 0xNNNN: version = RTL_...;` of the file either way
    codes = {m.group(1).lower(): m.group(2) for m in _CODE.finditer(text)}
    inits: dict[str, str] = {}
    pending: list[str] = []
    for line in _body(text, "rtl_ops_init").splitlines():
        pending += _LABEL.findall(line)
        if m := _INIT.search(line):
            for label in pending:
                inits[label] = m.group(1)
            pending = []
        elif "break;" in line:
            pending = []
    out: dict[str, dict[str, str]] = {}
    for code, version in sorted(codes.items()):
        init = inits.get(version)
        if init is None:  # RTL_TEST_01: no family runs it
            continue
        out[f"0x{code}"] = {
            "version": version,
            "init": f"{init}_init",
            "chip": f"RTL{init[1:].upper()}",
        }
    return out


def table(trees: dict[str, Path]) -> dict[str, dict[str, object]]:
    found: dict[str, dict[str, object]] = {}
    for series, root in sorted(trees.items()):
        for code, entry in versions_in((root / FILE).read_text(encoding="utf-8")).items():
            row = found.setdefault(code, {**entry, "series": []})
            if row["chip"] != entry["chip"]:
                raise SystemExit(f"{code}: {row['chip']} in one tree, {entry['chip']} in {series}")
            series_list = row["series"]
            assert isinstance(series_list, list)
            series_list.append(series)
    return dict(sorted(found.items()))


def main() -> int:
    trees, versions = pinned_trees(GLOBS, KS / "VERSION.json")
    codes = table(trees)
    data: dict[str, object] = {
        "source": f"{FILE} rtl8152_get_version() (6.12: __rtl_get_hw_ver()) and rtl_ops_init()",
        "driver": "r8152",
        # the default case's line: netif_info(tp, probe, netdev, ...) before 5.x, then
        # dev_info(&udev->dev, "Unknown version 0x%04x\n", ocp_data)
        "message": "Unknown version 0x",
        "versions": codes,
    }
    write_table(OUT, "scripts/regen_r8152_versions.py", versions, data, sort_keys=True)
    print(f"{len(codes)} r8152 version codes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
