#!/usr/bin/env python3
"""Regenerate resources/kernel_source/dsa_switch_drivers.json: the name of every DSA switch
driver of the kernel (drivers/net/dsa/), the bus it binds on, its file and the series.

    python scripts/regen_dsa_switch_drivers.py      # obtains the source via kernel_source.py

Why: a DSA switch driver registers no net_device of its own; DSA makes each of the switch's
front ports one, whose parent is the switch (6.1 net/dsa/slave.c dsa_slave_create(), 6.12
net/dsa/user.c dsa_user_create(): SET_NETDEV_DEV(slave_dev, port->ds->dev)), so a log line
that names an interface under such a driver ("ksz9477-switch spi1.6 lan1: ...") is a switch
port's (app/inventory/switch_ports.py). drivers.json lists only the drivers of the buses it
reads (platform, SPI ...), not the MDIO ones most switches are (qca8k, mv88e6085, mt7530), and
only 6.1/6.12's names: 5.10 called the KSZ9477 SPI driver "ksz9477-switch" (6.1: "ksz-switch")
and 6.1 the MT7530 "mt7530" (6.12: "mt7530-mdio"), names that boards on those kernels print.

Read: in every .c file under drivers/net/dsa/, each `struct mdio_driver|platform_driver|
spi_driver|i2c_driver|pci_driver NAME = { ... }` and the first `.name = ` in it (the driver
core's name, what dev_driver_string() prints): a string literal, or a macro #defined to one in
the same file. Series: 5.10 (bullseye-security, kernel_source.OLDER), 6.1 and 6.12.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "resources" / "kernel_source" / "dsa_switch_drivers.json"
sys.path.insert(0, str(Path(__file__).resolve().parent))

from kernel_source import SERIES, obtain  # noqa: E402
from regen_tables import add_once, write_rows  # noqa: E402

ALL_SERIES = ("5.10", *SERIES)
GLOBS = ("drivers/net/dsa/*",)
_COMMENT_RE = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
_STRUCT_RE = re.compile(
    r"\bstruct\s+(mdio_driver|platform_driver|spi_driver|i2c_driver|pci_driver)\s+\w+\s*=\s*\{"
)
_NAME_RE = re.compile(r"\.name\s*=\s*(\"[^\"]*\"|\w+)")
_BUS = {"mdio_driver": "mdio", "platform_driver": "platform", "spi_driver": "spi",
        "i2c_driver": "i2c", "pci_driver": "pci"}  # fmt: skip


def _body(text: str, brace: int) -> str:
    """The text between the brace at `brace` and the one that closes it."""
    depth = 0
    for i in range(brace, len(text)):
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        if depth == 0:
            return text[brace + 1 : i]
    return text[brace + 1 :]


def _name(value: str, text: str) -> str | None:
    if value.startswith('"'):
        return value.strip('"')
    define = re.search(rf"#define\s+{re.escape(value)}\s+\"([^\"]+)\"", text)
    return define.group(1) if define is not None else None


def drivers_of(tree: Path) -> list[tuple[str, str, str]]:
    """(name, bus, file relative to the tree) of every switch driver under drivers/net/dsa/."""
    found: list[tuple[str, str, str]] = []
    for path in sorted((tree / "drivers/net/dsa").rglob("*.c")):
        text = _COMMENT_RE.sub(" ", path.read_text(encoding="utf-8", errors="replace"))
        for struct in _STRUCT_RE.finditer(text):
            value = _NAME_RE.search(_body(text, struct.end() - 1))
            name = _name(value.group(1), text) if value is not None else None
            if name:
                found.append((name, _BUS[struct.group(1)], path.relative_to(tree).as_posix()))
    return found


def main() -> int:
    versions = json.loads(
        (ROOT / "resources" / "kernel_source" / "VERSION.json").read_text(encoding="utf-8")
    )["packages"]
    rows: dict[str, dict[str, list[str]]] = {}
    used: dict[str, str] = {}
    for series in ALL_SERIES:
        source = obtain(series, GLOBS, version=versions.get(f"linux-source-{series}"))
        used[f"linux-source-{series}"] = source.version
        for name, bus, file in drivers_of(source.root):
            row = rows.setdefault(name, {"buses": [], "series": [], "files": []})
            add_once(row, buses=bus, series=series, files=file)
    head = {
        "about": (
            "DSA switch drivers (drivers/net/dsa/) by the name the driver core prints: an "
            "interface a line names under one is a switch's user port (see "
            "scripts/regen_dsa_switch_drivers.py). Generated; do not edit."
        ),
        "script": "scripts/regen_dsa_switch_drivers.py",
        "packages": used,
        "paths": list(GLOBS),
        "cited": [
            "net/dsa/slave.c dsa_slave_create() (6.1), net/dsa/user.c dsa_user_create() (6.12): "
            "SET_NETDEV_DEV(slave_dev, port->ds->dev)",
        ],
    }
    drivers = [[name, *rows[name].values()] for name in sorted(rows)]
    columns = ["name", "buses", "series", "files"]
    write_rows(OUT, head, "drivers", drivers, ensure_ascii=True, columns=columns)
    print(f"{len(rows)} switch drivers -> {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
