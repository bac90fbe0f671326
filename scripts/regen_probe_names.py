#!/usr/bin/env python3
"""Regenerate resources/kernel_source/probe_names.json: the adapter names server NIC drivers
print when they have probed a device, and the formats they print them in.

    python scripts/regen_probe_names.py    # obtains the source via kernel_source.py

Why: a driver that names the adapter in its own words names the chip better than a bare PCI
address does, and often better than pci.ids (a board's name for the ASIC). Each row is one
driver's probe message whose first `%s` is a name:

- bnxt_en: bnxt.c bnxt_print_device_info(): netdev_info("%s found at mem %lx, node addr %pM",
  board_info[bp->board_idx].name): the names of its `board_info[]` table;
- bnx2: bnx2.c bnx2_init_one(): netdev_info("%s (%c%d) %s found at mem %lx, IRQ %d, ...",
  board_info[ent->driver_data].name): its `board_info[]` names;
- be2net: be_main.c be_probe(): dev_info("%s: %s %s port %c", nic_name(pdev), ...): the
  `*_NAME` macros of be.h that nic_name() returns (OC_NAME_LANCER is OC_NAME "(Lancer)");
- cxgb4: t4_hw.c t4_dump_version_info() dev_info("Chelsio %s rev %d") and cxgb4_main.c
  print_port_info() netdev_info("Chelsio %s %s"): the adapter's own VPD id (no table: the
  card's name as its EEPROM holds it, one word).

A line is read only if, after the format's literal head, it holds one of the table's names
followed by the format's next literal (a set look-up; no text from a Pi is made a regex), or,
for a VPD id, one word. Read from Debian's linux-source-6.1 and 6.12.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KS = ROOT / "resources" / "kernel_source"
OUT = KS / "probe_names.json"
sys.path.insert(0, str(Path(__file__).resolve().parent))

from kernel_source import pinned_trees  # noqa: E402
from regen_tables import PINS, write_json  # noqa: E402

ETH = "drivers/net/ethernet"
GLOBS = (f"{ETH}/broadcom/*", f"{ETH}/emulex/*", f"{ETH}/chelsio/*")
# driver name -> (files, format, function the format is printed in, how the names are found)
ROWS: dict[str, tuple[tuple[str, ...], str, str, str]] = {
    "bnxt_en": (
        (f"{ETH}/broadcom/bnxt/bnxt.c",),
        "%s found at mem %lx, node addr %pM",
        "bnxt.c bnxt_print_device_info()",
        "board_info",
    ),
    "bnx2": (
        (f"{ETH}/broadcom/bnx2.c",),
        "%s (%c%d) %s found at mem %lx, IRQ %d, ",
        "bnx2.c bnx2_init_one()",
        "board_info",
    ),
    "be2net": (
        (f"{ETH}/emulex/benet/be_main.c", f"{ETH}/emulex/benet/be.h"),
        "%s: %s %s port %c",
        "be_main.c be_probe()",
        "name_macros",
    ),
    "cxgb4": (
        (f"{ETH}/chelsio/cxgb4/t4_hw.c",),
        "Chelsio %s rev %d",
        "t4_hw.c t4_dump_version_info()",
        "vpd",
    ),
}
_TABLE_RE = re.compile(r"\}\s*board_info\[\]\s*=\s*\{(.*?)\n\};", re.S)
_ENTRY_RE = re.compile(r'\{\s*"([^"\\]{6,80})"\s*\}')
_DEFINE_RE = re.compile(r"^#define\s+(\w+_NAME\w*)\s+(.+?)\s*$", re.M)
_PIECE_RE = re.compile(r'"([^"\\]*)"|(\w+)')
_RETURN_RE = re.compile(r"\breturn\s+(\w+_NAME\w*)\s*;")


def _board_info(text: str) -> set[str]:
    table = _TABLE_RE.search(text)
    return set(_ENTRY_RE.findall(table.group(1))) if table else set()


def _name_macros(main: str, header: str) -> set[str]:
    """The string macros nic_name() returns, their literals and macros concatenated."""
    value: dict[str, str] = {}
    for name, body in _DEFINE_RE.findall(header):
        parts = [
            lit if lit or not ref else value.get(ref, "\0") for lit, ref in _PIECE_RE.findall(body)
        ]
        if parts and "\0" not in parts:
            value[name] = "".join(parts)
    return {value[m] for m in _RETURN_RE.findall(main) if m in value}


def _module(path: Path, driver: str) -> bool:
    """The module the file is built into has the driver's name (its directory's Makefile:
    `obj-$(CONFIG_BNXT) += bnxt_en.o`)."""
    make = path.parent / "Makefile"
    text = make.read_text(encoding="utf-8", errors="replace") if make.is_file() else ""
    return (
        re.search(rf"^obj-\$\(CONFIG_\w+\)\s*\+=.*\b{re.escape(driver)}\.o\b", text, re.M)
        is not None
    )


def _printed(text: str, fmt: str) -> bool:
    return f'"{fmt}' in text


def read(root: Path) -> dict[str, set[str] | None]:
    """driver -> the names it can print (None: the card's VPD id) in one series' tree."""
    found: dict[str, set[str] | None] = {}
    for driver, (files, fmt, _where, how) in ROWS.items():
        texts = [(root / f).read_text(encoding="utf-8", errors="replace") for f in files]
        if not _printed(texts[0], fmt) or not _module(root / files[0], driver):
            continue
        if how == "vpd":
            found[driver] = None
        else:
            found[driver] = _board_info(texts[0]) if how == "board_info" else _name_macros(*texts)
    return found


def main() -> int:
    trees, used = pinned_trees(GLOBS, PINS)
    drivers: dict[str, dict[str, object]] = {}
    for series, root in trees.items():
        for driver, found in read(root).items():
            files, fmt, where, _how = ROWS[driver]
            row = drivers.setdefault(
                driver,
                {"format": fmt, "printed_in": where, "file": files[0], "series": [], "names": {}},
            )
            row["series"].append(series)  # type: ignore[union-attr]
            if found is None:
                row["names"] = None  # the card's own VPD id: any one word
                continue
            names: dict[str, list[str]] = row["names"]  # type: ignore[assignment]
            for name in sorted(found):
                names.setdefault(name, []).append(series)
    table = {
        "about": (
            "Adapter names that NIC drivers print in a probe message (its format's first %s): "
            "the driver's own table of names, or (names null) the card's VPD id. Generated by "
            "scripts/regen_probe_names.py."
        ),
        "linux_source": used,
        "drivers": drivers,
    }
    write_json(OUT, table, ensure_ascii=False)
    counts = {d: len(r["names"] or {}) for d, r in drivers.items()}
    print(f"{counts} -> {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
