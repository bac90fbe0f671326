#!/usr/bin/env python3
"""Regenerate resources/kernel_source/driver_families.json: for each network driver of
drivers.json, the family of chips it drives in the kernel's own words, the prompt of the
Kconfig option that builds it ("Intel(R) 10GbE PCI Express adapters support" for ixgbe's
IXGBE), so a NIC known only by a driver that drives several chips (ixgbe, mlx5_core, i40e,
e1000e, bnxt_en, r8169 ...) is said to be one of that family, never a chip of it.

    python scripts/regen_driver_families.py    # obtains the source via kernel_source.py

The option is found from the driver's source file (drivers.json "file"): the Makefile beside
it builds the file into a module (``obj-$(CONFIG_IXGBE) += ixgbe.o``, ``ixgbe-objs := ...
ixgbe_main.o``), and the option's ``config`` entry in a Kconfig of drivers/net or
drivers/staging gives its prompt. A driver whose option has no prompt keeps its
MODULE_DESCRIPTION (drivers.json "about"). Both series are read (6.12's words win); checked by
tests/unit/test_driver_families.py against the source.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KS = ROOT / "resources" / "kernel_source"
OUT = KS / "driver_families.json"
sys.path.insert(0, str(Path(__file__).resolve().parent))

from kbuild import OBJ, PARTS, logical_lines  # noqa: E402
from kernel_source import pinned_trees  # noqa: E402
from regen_tables import write_json  # noqa: E402

GLOBS = ("drivers/net/*", "drivers/staging/*")
_CONFIG = re.compile(r"^\s*(?:menu)?config\s+(\w+)\s*$")
# a Kconfig string escapes its quotes (3com/Kconfig: tristate "3c509/3c579 \"EtherLink III\"
# support"): read to the first quote, 3c59x's family was "3c590/3c900 series (592/595/597) \"
_PROMPT = re.compile(r'^\s*(?:tristate|bool|prompt)\s+"((?:[^"\\]|\\.)+)"')
_ESCAPE = re.compile(r"\\(.)")


def makefile_symbol(makefile: Path, stem: str) -> str | None:
    """The CONFIG symbol that builds `stem`.o into a module in this Makefile."""
    if not makefile.is_file():
        return None
    lines = logical_lines(makefile.read_text(encoding="utf-8", errors="replace"))
    objs: dict[str, str] = {}  # object -> its symbol
    parts: dict[str, set[str]] = {}  # module -> its objects
    for line in lines:
        if m := OBJ.match(line.strip()):
            for word in m.group(2).split():
                objs.setdefault(word.removesuffix(".o"), m.group(1))
        elif m := PARTS.match(line.strip()):
            parts.setdefault(m.group(1), set()).update(
                w.removesuffix(".o") for w in m.group(2).split()
            )
    if stem in objs:
        return objs[stem]
    for module, members in sorted(parts.items()):
        if stem in members and module in objs:
            return objs[module]
    return None


def kconfig_prompts(root: Path) -> dict[str, tuple[str, str]]:
    """symbol -> (prompt, Kconfig file) of every config entry under drivers/net, drivers/staging."""
    found: dict[str, tuple[str, str]] = {}
    for top in ("drivers/net", "drivers/staging"):
        for path in sorted((root / top).rglob("Kconfig*")):
            symbol = None
            for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
                if m := _CONFIG.match(line):
                    symbol = m.group(1)
                elif symbol and (m := _PROMPT.match(line)):
                    prompt = _ESCAPE.sub(r"\1", m.group(1))
                    found.setdefault(symbol, (prompt, path.relative_to(root).as_posix()))
                    symbol = None
                elif symbol and line.strip().startswith("help"):
                    symbol = None
    return found


def scan(root: Path, drivers: dict[str, dict[str, object]]) -> dict[str, dict[str, str]]:
    prompts = kconfig_prompts(root)
    out: dict[str, dict[str, str]] = {}
    for name, row in sorted(drivers.items()):
        source = row.get("file")
        if not isinstance(source, str) or not (root / source).is_file():
            continue
        path = root / source
        symbol = None
        for folder in (path.parent, path.parent.parent):  # a module built one level up
            symbol = makefile_symbol(folder / "Makefile", path.stem)
            if symbol is None and folder != path.parent:
                # a subdirectory's objects named from the parent's Makefile ("sub/file.o")
                rel = f"{path.parent.name}/{path.stem}"
                symbol = makefile_symbol(folder / "Makefile", rel)
            if symbol:
                break
        if symbol and symbol in prompts:
            prompt, kconfig = prompts[symbol]
            out[name] = {"family": prompt, "source": f"{kconfig}: config {symbol}"}
    return out


def main() -> int:
    trees, used = pinned_trees(GLOBS, KS / "VERSION.json")
    drivers = json.loads((KS / "drivers.json").read_text(encoding="utf-8"))["drivers"]
    table: dict[str, dict[str, object]] = {}
    for series, root in sorted(trees.items(), key=lambda kv: tuple(map(int, kv[0].split(".")))):
        for name, row in scan(root, drivers).items():
            entry = table.setdefault(name, {"series": []})
            entry.update(row)  # the newer series' words
            series_list = entry["series"]
            assert isinstance(series_list, list)
            series_list.append(series)
    data = {
        "about": (
            "Per network driver (by the name it logs under, as drivers.json), the prompt of the "
            "Kconfig option that builds it: the family of chips it drives, in the kernel's "
            "words, with the Kconfig file and option, and the series whose source has it. "
            "Generated by scripts/regen_driver_families.py; checked by "
            "tests/unit/test_driver_families.py."
        ),
        "linux-source": used,
        "families": dict(sorted(table.items())),
    }
    write_json(OUT, data, ensure_ascii=False)
    print(f"{len(table)} of {len(drivers)} drivers -> {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
