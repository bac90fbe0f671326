#!/usr/bin/env python3
"""Regenerate resources/kernel_source/arm_machines.json: every 32-bit ARM machine description
of the kernel, its name and the device-tree compatibles it serves.

    python scripts/regen_arm_machines.py      # obtains the source via kernel_source.py

Why: a kernel warning's header "Hardware name: X" is dump_stack_set_arch_desc()'s text. On
arm64 (arch/arm64/kernel/setup.c setup_machine_fdt(), 6.1 and 6.12) it is the device tree's
model with " (DT)": a board. On 32-bit ARM (arch/arm/kernel/setup.c setup_arch(), 6.1 and 6.12)
it is `dump_stack_set_arch_desc("%s", mdesc->name)`: the name of the machine description that
setup_machine_fdt() (arch/arm/kernel/devtree.c) matched by the device tree's root compatible,
`DT_MACHINE_START(ID, "name")` in arch/arm/mach-*/ with its `.dt_compat` list, or the fallback
`DT_MACHINE_START(GENERIC_DT, "Generic DT based system")` of devtree.c (no list). One name serves
every SoC in its list: "BCM2835" (arch/arm/mach-bcm/board_bcm2835.c) serves brcm,bcm2835,
bcm2836 and bcm2837, so a Pi 3 B+ on a 32-bit kernel says "Hardware name: BCM2835". The same
machine_name is /proc/cpuinfo's "Hardware" line on 32-bit ARM (arch/arm/kernel/setup.c c_show()).

Read: each DT_MACHINE_START(...) ... MACHINE_END block's name (a string literal; none is
anything else in 6.1 or 6.12) and its `.dt_compat = ARRAY`, whose string literals are read from
`ARRAY[] = { ... }` in the same file, every #ifdef branch included (a kernel built with any
configuration may serve them). Machines that share a name (three "Atmel SAMA5") are one row: the
name is all a log shows. `soc` is set only when the row's list names one SoC (one compatible):
its display name as boards.json writes SoCs (regen_board_socs.soc_name: "brcm,bcm2711" ->
BCM2711); a list of several SoCs leaves it null (never a guess).

Left out on purpose: MACHINE_START(...) board files (non-device-tree, ATAGS boot): their names
are boards ("Nokia N800"), so a log's name of one is the board model, as before. The Raspberry
Pi kernel's own arch/arm/mach-bcm/board_bcm2835.c (raspberrypi/linux) keeps the name "BCM2835"
and adds "brcm,bcm2711" and "brcm,bcm2838" to its list in its later branches (seen in the
stored copies the project's search tool returned; the branch was not named there), and
raspberrypi/linux#3022 shows a Pi 4 on 4.19.50-v7l+ (rpi-4.19.y) printing "Hardware : BCM2835"
(popcornmix: "It shows BCM2835 on Pi0, Pi1, Pi2 and Pi3"): more SoCs for the same name, so the
conclusion drawn from mainline's list (several SoCs: no SoC) holds for it too. Its older
mach-bcm2708/mach-bcm2709 names ("BCM2708", "BCM2709", before 4.8) are in no 6.1/6.12 tree and
are not listed.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "resources" / "kernel_source" / "arm_machines.json"
sys.path.insert(0, str(Path(__file__).resolve().parent))

from regen_board_socs import soc_name  # noqa: E402
from regen_tables import pinned_packages, write_rows  # noqa: E402

GLOBS = ("arch/arm/mach-*", "arch/arm/kernel/*")
_COMMENT_RE = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
_MACHINE_RE = re.compile(
    r"\bDT_MACHINE_START\s*\(\s*\w+\s*,\s*\"([^\"]+)\"\s*\)(.*?)\bMACHINE_END\b", re.S
)
_DT_COMPAT_RE = re.compile(r"\.dt_compat\s*=\s*(\w+)")
_STRING_RE = re.compile(r'"([^"]*)"')
COLUMNS = ("name", "compatible", "soc", "series", "files")


def _array(text: str, name: str) -> list[str]:
    """The string literals of `name[] ... = { ... };` in a file's text (comments cut out)."""
    found = re.search(rf"\b{re.escape(name)}\s*\[\s*\]\s*(?:__\w+\s*)*=\s*\{{(.*?)\}}", text, re.S)
    return _STRING_RE.findall(found.group(1)) if found is not None else []


def machines_of(tree: Path) -> list[tuple[str, list[str], str]]:
    """(name, compatibles, file relative to the tree) of every DT_MACHINE_START in the tree."""
    files = sorted((tree / "arch/arm").glob("mach-*/*.c"))
    files.append(tree / "arch/arm/kernel/devtree.c")
    found: list[tuple[str, list[str], str]] = []
    for path in files:
        text = _COMMENT_RE.sub(" ", path.read_text(encoding="utf-8", errors="replace"))
        for machine in _MACHINE_RE.finditer(text):
            compat = _DT_COMPAT_RE.search(machine.group(2))
            strings = _array(text, compat.group(1)) if compat is not None else []
            found.append((machine.group(1), strings, path.relative_to(tree).as_posix()))
    return found


def main() -> int:
    trees, used = pinned_packages(GLOBS)
    rows: dict[str, dict[str, list[str]]] = {}
    for series, root in trees.items():
        for name, compatible, file in machines_of(root):
            row = rows.setdefault(name, {"compatible": [], "series": [], "files": []})
            for key, values in (("compatible", compatible), ("series", [series])):
                row[key] += [v for v in values if v not in row[key]]
            row["files"] += [file] if file not in row["files"] else []
    machines = []
    for name in sorted(rows, key=str.lower):
        row = rows[name]
        soc = soc_name(row["compatible"][0]) if len(row["compatible"]) == 1 else None
        machines.append([name, row["compatible"], soc, row["series"], row["files"]])
    head = {
        "about": (
            "32-bit ARM machine descriptions (DT_MACHINE_START): the name a 32-bit ARM kernel "
            "prints as 'Hardware name:' and the device-tree compatibles it serves; soc only when "
            "they name one SoC (see scripts/regen_arm_machines.py). Generated; do not edit."
        ),
        "script": "scripts/regen_arm_machines.py",
        "packages": used,
        "paths": list(GLOBS),
        "cited": [
            'arch/arm/kernel/setup.c setup_arch(): dump_stack_set_arch_desc("%s", mdesc->name)',
            "arch/arm64/kernel/setup.c setup_machine_fdt(): "
            'dump_stack_set_arch_desc("%s (DT)", name)',
            "arch/arm/include/asm/mach/arch.h DT_MACHINE_START(_name, _namestr): .name = _namestr",
        ],
        "columns": list(COLUMNS),
    }
    write_rows(OUT, head, "machines", machines)
    print(f"{len(machines)} machine names -> {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
