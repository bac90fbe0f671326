#!/usr/bin/env python3
"""Regenerate resources/kernel_source/mdio_bus_names.json: the name each network driver gives
the MDIO bus (struct mii_bus) it registers, and the driver.

    python scripts/regen_mdio_bus_names.py    # obtains the source via kernel_source.py

Why: libphy names a MAC's MDIO bus by the `name` its driver sets (fec_main.c
fec_enet_mii_init(): `fep->mii_bus->name = "fec_enet_mii_bus"`; lan78xx.c lan78xx_mdio_init():
`dev->mdiobus->name = "lan78xx-mdiobus"`), and kernels before 5.x printed it when the bus
registered ("libphy: fec_enet_mii_bus: probed", mdiobus_register(); 6.1/6.12 print it at debug
level only). Such a line says that driver's MAC is there, though it names no device.

A name is taken from `X->name = "literal";` (or `X.name = ...`) in a drivers/net file that also
registers X as an MDIO bus (mdiobus_register(X), of_mdiobus_register(X, ...),
devm_mdiobus_register(dev, X), devm_of_mdiobus_register(dev, X, ...)). The driver is the one
drivers.json lists for that file; a file no driver owns (a library such as mdio-gpio) is kept
with no driver. Read from Debian's linux-source-6.1 and -6.12 at the versions
resources/kernel_source/VERSION.json names.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KS = ROOT / "resources" / "kernel_source"
OUT = KS / "mdio_bus_names.json"
sys.path.insert(0, str(Path(__file__).resolve().parent))

from kernel_source import pinned_trees, write_table  # noqa: E402

GLOBS = ("drivers/net/*",)
# the call's first two arguments: the bus is the first, or the second after devm_'s device
_REGISTERS = re.compile(
    r"\b(?:devm_)?(?:of_)?mdiobus_register\s*\(\s*&?([\w>.\-\[\]]+)\s*(?:,\s*&?([\w>.\-\[\]]+))?"
)
_NAMES = re.compile(r"([\w>.\-\[\]]+?)(?:->|\.)name\s*=\s*\"([^\"%]{3,60})\"\s*;")
# the bus id a driver makes: lan78xx.c `snprintf(dev->mdiobus->id, MII_BUS_ID_SIZE,
# "usb-%03d:%03d", dev->udev->bus->busnum, dev->udev->devnum)`
_IDS = re.compile(
    r"snprintf\(\s*([\w>.\-\[\]]+?)(?:->|\.)id\s*,\s*MII_BUS_ID_SIZE\s*,\s*\"([^\"]+)\""
)


def _bare(expr: str) -> str:
    return expr.lstrip("&").strip()


def names_in(text: str) -> dict[str, str | None]:
    """The literal names this file gives a struct it registers as an MDIO bus, each with the
    format of the id the file gives that struct (None when it sets none)."""
    if "mdiobus_register" not in text:  # every _REGISTERS match holds it: no bus, no name
        return {}  # (C's substring search: 95 % of files skip _NAMES' slow scan)
    registered = {_bare(a) for m in _REGISTERS.finditer(text) for a in m.groups() if a}
    if not registered:
        return {}
    ids = {_bare(m.group(1)): m.group(2) for m in _IDS.finditer(text)}
    return {
        m.group(2): ids.get(_bare(m.group(1)))
        for m in _NAMES.finditer(text)
        if _bare(m.group(1)) in registered
    }


def owners() -> dict[str, str]:
    drivers = json.loads((KS / "drivers.json").read_text(encoding="utf-8"))["drivers"]
    return {str(v["file"]): name for name, v in drivers.items() if v.get("file")}


def table(trees: dict[str, Path]) -> dict[str, dict[str, object]]:
    by_file = owners()
    found: dict[str, dict[str, object]] = {}
    for series, root in sorted(trees.items()):
        for path in sorted((root / "drivers/net").rglob("*.c")):
            rel = path.relative_to(root).as_posix()
            named = names_in(path.read_text(encoding="utf-8", errors="replace"))
            for name, id_format in sorted(named.items()):
                entry = found.setdefault(
                    name,
                    {"driver": by_file.get(rel), "file": rel, "id": id_format, "series": []},
                )
                series_list = entry["series"]
                assert isinstance(series_list, list)
                if series not in series_list:
                    series_list.append(series)
    return dict(sorted(found.items()))


def main() -> int:
    trees, versions = pinned_trees(GLOBS, KS / "VERSION.json")
    names = table(trees)
    write_table(OUT, "scripts/regen_mdio_bus_names.py", versions, {"names": names}, sort_keys=True)
    owned = sum(1 for e in names.values() if e["driver"])
    print(f"{len(names)} MDIO bus names, {owned} of them a network driver's")
    return 0


if __name__ == "__main__":
    sys.exit(main())
