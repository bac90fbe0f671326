#!/usr/bin/env python3
"""Regenerate resources/kernel_source/library_modules.json: the kernel's network library
modules (wlcore, rtw88_core, mt76_usb, rt2x00lib, ath9k_common, libertas, usbnet, libphy ...)
and the drivers that use them.

    python scripts/regen_library_modules.py    # obtains the source via kernel_source.py

Why: a library module prints its own complaints under its own name ("wlcore: ERROR could not
get configuration binary ...", wl1271_error() in drivers/net/wireless/ti/wlcore/debug.h), not
under the device's driver ("wl18xx_driver wl18xx.1.auto"). The line is about the device of a
driver that uses the library, which the kernel's build says: a module is what a Makefile line
`obj-$(CONFIG_X) += m.o` builds (of the objects `m-objs`/`m-y` list), and a driver uses the
library of CONFIG_L when its module's CONFIG_D selects L or depends on it (Kconfig), directly or
through other symbols. A library here is a module under drivers/net/ that holds none of the
drivers of resources/kernel_source/drivers.json itself. Source: Debian's linux-source-6.1 and
-6.12 at the versions resources/kernel_source/VERSION.json names.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KS = ROOT / "resources" / "kernel_source"
OUT = KS / "library_modules.json"
sys.path.insert(0, str(Path(__file__).resolve().parent))

from kbuild import OBJ, PARTS, logical_lines  # noqa: E402
from regen_tables import pinned_packages, write_json  # noqa: E402

GLOBS = ("drivers/net/*",)
_CONFIG_RE = re.compile(r"^(?:menu)?config\s+(\w+)")
_SELECT_RE = re.compile(r"^\s+select\s+(\w+)")
_DEPENDS_RE = re.compile(r"^\s+depends\s+on\s+(.*)$")
_SYMBOL_RE = re.compile(r"(!?)\b([A-Z][A-Z0-9_]+)\b")


def makefile_modules(makefile: Path, root: Path) -> tuple[dict[str, str], dict[str, str]]:
    """(module -> CONFIG symbol, object path relative to the tree -> module) of one Makefile."""
    base = makefile.parent.relative_to(root)
    configs: dict[str, str] = {}
    parts: dict[str, str] = {}
    for line in logical_lines(makefile.read_text(encoding="utf-8", errors="replace")):
        line = line.split("#", 1)[0].strip()
        if found := OBJ.match(line):
            for obj in found.group(2).split():
                if obj.endswith(".o"):
                    module = obj[:-2].replace("-", "_")
                    if "/" not in module:
                        configs[module] = found.group(1)
                        parts.setdefault(str(base / obj), module)
        elif found := PARTS.match(line):
            module = found.group(1).replace("-", "_")
            for obj in found.group(2).split():
                if obj.endswith(".o"):
                    parts[str(base / obj)] = module
    return configs, parts


def kconfig_edges(root: Path) -> tuple[dict[str, set[str]], set[str]]:
    """(symbol -> the symbols it selects or depends on (a `!` symbol is not a use), the
    tristate symbols: what can be a module; a bool one's object is built in, as loopback.o)."""
    edges: dict[str, set[str]] = {}
    tristate: set[str] = set()
    for kconfig in sorted((root / "drivers/net").rglob("Kconfig*")):
        current: str | None = None
        for line in logical_lines(kconfig.read_text(encoding="utf-8", errors="replace")):
            if found := _CONFIG_RE.match(line):
                current = found.group(1)
                edges.setdefault(current, set())
            elif not line[:1].isspace() and line.strip():
                current = None
            elif current is None:
                continue
            elif line.strip().startswith("tristate") or line.strip().startswith("def_tristate"):
                tristate.add(current)
            elif found := _SELECT_RE.match(line):
                edges[current].add(found.group(1))
            elif found := _DEPENDS_RE.match(line):
                expr = found.group(1).split(" if ", 1)[0]
                edges[current] |= {s for neg, s in _SYMBOL_RE.findall(expr) if not neg}
    return edges, tristate


def _closure(symbol: str, edges: dict[str, set[str]]) -> set[str]:
    seen: set[str] = set()
    todo = [symbol]
    while todo:
        for used in edges.get(todo.pop(), ()):
            if used not in seen:
                seen.add(used)
                todo.append(used)
    return seen


def libraries(root: Path, drivers: dict[str, str]) -> dict[str, dict[str, object]]:
    """library module -> {"users": drivers, "makefile": ...} for one tree; `drivers` maps a
    driver's name to its source file (drivers.json)."""
    configs: dict[str, str] = {}
    where: dict[str, str] = {}
    parts: dict[str, str] = {}
    for makefile in sorted((root / "drivers/net").rglob("Makefile")):
        got, objs = makefile_modules(makefile, root)
        for module, config in got.items():
            configs.setdefault(module, config)
            where.setdefault(module, makefile.relative_to(root).as_posix())
        parts.update({k: v for k, v in objs.items() if k not in parts})
    module_of: dict[str, str] = {}  # driver -> its module
    for driver, file in drivers.items():
        obj = file[:-2] + ".o" if file.endswith(".c") else file
        module = parts.get(obj)
        if module is None and (Path(obj).stem.replace("-", "_")) in configs:
            module = Path(obj).stem.replace("-", "_")
        if module is not None and module in configs:
            module_of[driver] = module
    driver_modules = set(module_of.values())
    edges, tristate = kconfig_edges(root)
    by_config: dict[str, set[str]] = {}
    for module, config in configs.items():
        if module not in driver_modules and config in tristate:
            by_config.setdefault(config, set()).add(module)
    # through tristate symbols only: a driver built in (=y) then forces the library =y (a bool
    # between them may be y while the library is m), so a library loaded as a module says the
    # driver is not built in (loaded_modules.py reads lsmod so)
    strict = {k: {s for s in v if s in tristate} for k, v in edges.items()}
    found: dict[str, dict[str, object]] = {}
    for driver, module in sorted(module_of.items()):
        needs = _closure(configs[module], strict)
        for symbol in _closure(configs[module], edges):
            for library in by_config.get(symbol, ()):
                row = found.setdefault(
                    library,
                    {
                        "config": symbol,
                        "makefile": where[library],
                        "users": set(),
                        "needed_by": set(),
                    },
                )
                row["users"].add(driver)  # type: ignore[union-attr]
                if symbol in needs:
                    row["needed_by"].add(driver)  # type: ignore[union-attr]
    return found


def main() -> int:
    trees, used = pinned_packages(GLOBS)
    table = json.loads((KS / "drivers.json").read_text(encoding="utf-8"))["drivers"]
    merged: dict[str, dict[str, object]] = {}
    for series, root in trees.items():
        files = {name: str(row["file"]) for name, row in table.items() if series in row["series"]}
        for library, row in libraries(root, files).items():
            into = merged.setdefault(
                library,
                {
                    "config": row["config"],
                    "makefile": row["makefile"],
                    "users": set(),
                    "needed_by": set(),
                    "series": [],
                },
            )
            into["users"] |= row["users"]  # type: ignore[operator]
            into["needed_by"] |= row["needed_by"]  # type: ignore[operator]
            into["series"].append(series)  # type: ignore[union-attr]
    out = {
        name: {**row, "users": sorted(row["users"]), "needed_by": sorted(row["needed_by"])}  # type: ignore[call-overload]
        for name, row in sorted(merged.items())
    }
    write_json(
        OUT,
        {
            "about": (
                "Library modules under drivers/net/ (built by a Makefile's obj-$(CONFIG_X) "
                "line, holding no driver themselves) and the drivers whose Kconfig symbol "
                "selects or depends on theirs (needed_by: through tristate symbols only, so "
                "the driver built in forces the library built in); by "
                "scripts/regen_library_modules.py. "
                "Generated; do not edit."
            ),
            "packages": used,
            "libraries": out,
        },
        sort_keys=True,
    )
    print(f"{len(out)} library modules -> {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
