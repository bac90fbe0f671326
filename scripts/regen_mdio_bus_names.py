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
with no driver. Nor has a name a file that registers a bus may also give it from a device-tree
node (`bus->name = np->full_name`, mv88e6xxx/chip.c mv88e6xxx_mdio_register()) while it looks
its child nodes up by that name (of_get_child_by_name(np, "mdio")): mtk_eth_soc.c's literal
"mdio" is then printed by a Marvell switch's bus too ("libphy: mdio: probed" beside mv88e6085
lines), so it names no one driver ("node_named_in" lists those files; file-level, so it may
list a file whose node-named bus is its device's own node, as ar9331.c's is).
Read from Debian's linux-source-6.1 and -6.12 at the versions
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
    r"((?:\s*,[^;]{1,200}?)?)\)\s*;"
)
# Arguments that are the PCI function's own numbers: r8169_main.c r8169_mdio_register()
# `"r8169-%x-%x", pci_domain_nr(pdev->bus), pci_dev_id(pdev)`; tg3.c tg3_mdio_init()
# `"%x", (tp->pdev->bus->number << 8) | tp->pdev->devfn` (pci_dev_id()'s value, include/linux/
# pci.h: PCI_DEVID(bus, devfn) = bus << 8 | devfn). So such a bus's name is its MAC's address.
_PCI_ARGS = (
    ("pci_domain", re.compile(r"pci_domain_nr\([\w>.\-]+->bus\)")),
    ("pci_devid", re.compile(r"pci_dev_id\([\w>.\-]+\)")),
    ("pci_devid", re.compile(r"\(?\(?([\w>.\-]+)->bus->number<<8\)?\|\1->devfn\)?")),
)


def id_arguments(args: str) -> list[str] | None:
    """The kinds of an id's arguments when every one is a PCI function's number, else None."""
    kinds: list[str] = []
    for arg in _split_args(re.sub(r"\s+", "", args)):
        kind = next((k for k, pattern in _PCI_ARGS if pattern.fullmatch(arg)), None)
        if kind is None:
            return None
        kinds.append(kind)
    return kinds or None


def _split_args(text: str) -> list[str]:
    """Top-level comma-separated arguments (commas inside parentheses stay)."""
    parts, depth, cur = [], 0, ""
    for ch in text.lstrip(","):
        depth += (ch == "(") - (ch == ")")
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    return [*parts, cur] if cur else parts


_NODE_NAMED = re.compile(r"(?:->|\.)name\s*=\s*\w+->full_name\s*;")
_CHILD = re.compile(r"of_get_child_by_name\(\s*[^,()]+,\s*\"([^\"]+)\"\s*\)")


def node_names_in(text: str) -> set[str]:
    """The child-node names a file looks up when it also names an MDIO bus it registers after a
    device-tree node's name: names its buses may take."""
    if "mdiobus_register" not in text or not _NODE_NAMED.search(text):
        return set()
    return {m.group(1) for m in _CHILD.finditer(text)}


def _bare(expr: str) -> str:
    return expr.lstrip("&").strip()


def names_in(text: str) -> dict[str, str | None]:
    """The literal names this file gives a struct it registers as an MDIO bus, each with the
    format of the id the file gives that struct (None when it sets none)."""
    return {name: id_format for name, (id_format, _) in ids_in(text).items()}


def ids_in(text: str) -> dict[str, tuple[str | None, list[str] | None]]:
    """names_in's names, each with (the id's format, its PCI argument kinds or None)."""
    if "mdiobus_register" not in text:  # every _REGISTERS match holds it: no bus, no name
        return {}  # (C's substring search: 95 % of files skip _NAMES' slow scan)
    registered = {_bare(a) for m in _REGISTERS.finditer(text) for a in m.groups() if a}
    if not registered:
        return {}
    ids = {_bare(m.group(1)): (m.group(2), id_arguments(m.group(3))) for m in _IDS.finditer(text)}
    return {
        m.group(2): ids.get(_bare(m.group(1)), (None, None))
        for m in _NAMES.finditer(text)
        if _bare(m.group(1)) in registered
    }


def owners() -> dict[str, str]:
    drivers = json.loads((KS / "drivers.json").read_text(encoding="utf-8"))["drivers"]
    return {str(v["file"]): name for name, v in drivers.items() if v.get("file")}


def table(trees: dict[str, Path]) -> dict[str, dict[str, object]]:
    by_file = owners()
    found: dict[str, dict[str, object]] = {}
    from_nodes: dict[str, set[str]] = {}
    for series, root in sorted(trees.items()):
        for path in sorted((root / "drivers/net").rglob("*.c")):
            rel = path.relative_to(root).as_posix()
            text = path.read_text(encoding="utf-8", errors="replace")
            for node in node_names_in(text):
                from_nodes.setdefault(node, set()).add(rel)
            named = ids_in(text)
            for name, (id_format, pci_args) in sorted(named.items()):
                entry = found.setdefault(
                    name,
                    {"driver": by_file.get(rel), "file": rel, "id": id_format, "series": []},
                )
                if pci_args:  # the id is made of the PCI function's numbers
                    entry["id_pci_args"] = pci_args
                series_list = entry["series"]
                assert isinstance(series_list, list)
                if series not in series_list:
                    series_list.append(series)
    for name, entry in found.items():
        if files := sorted(from_nodes.get(name, set()) - {str(entry["file"])}):
            entry["driver"], entry["node_named_in"] = None, files
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
