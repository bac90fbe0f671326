"""The name each network driver gives the MDIO bus it registers (struct mii_bus .name), read
from the 6.1 and 6.12 source by scripts/regen_mdio_bus_names.py
(resources/kernel_source/mdio_bus_names.json): fec_main.c's "fec_enet_mii_bus", lan78xx.c's
"lan78xx-mdiobus". Kernels before 5.x printed it as the bus registered ("libphy: %s: probed"),
so such a line says that driver's MAC is present."""

from __future__ import annotations

import functools
import json
import re


@functools.cache
def _names() -> dict[str, str]:
    from sbctune.resources import resource_root

    try:
        path = resource_root().joinpath("kernel_source", "mdio_bus_names.json")
        rows = json.loads(path.read_text(encoding="utf-8"))["names"]
        return {str(k): str(v["driver"]) for k, v in rows.items() if v.get("driver")}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}


@functools.cache
def usb_numbered_drivers() -> frozenset[str]:
    """The drivers whose MDIO bus id is "usb-%03d:%03d": the USB bus and device number of
    their device (lan78xx.c lan78xx_mdio_init())."""
    from sbctune.resources import resource_root

    try:
        path = resource_root().joinpath("kernel_source", "mdio_bus_names.json")
        rows = json.loads(path.read_text(encoding="utf-8"))["names"]
        return frozenset(
            str(v["driver"])
            for v in rows.values()
            if v.get("driver") and v.get("id") == "usb-%03d:%03d"
        )
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return frozenset()


def mdio_bus_driver(name: str) -> str | None:
    """The network driver that names its MDIO bus `name`; None for a library's or shared
    file's bus ("Fixed MDIO Bus", stmmac_mdio.c's "stmmac"), a name a device-tree node gives
    other drivers' buses too (mtk_eth_soc.c's "mdio", also mv88e6xxx's), or an unknown name."""
    return _names().get(name)


@functools.cache
def _pci_named() -> tuple[tuple[re.Pattern[str], str, tuple[str, ...]], ...]:
    """(the bus id's shape, its driver, the kinds of its numbers) for each driver whose MDIO
    bus id is made of its PCI function's numbers and a literal of its own (r8169_main.c
    r8169_mdio_register(): "r8169-%x-%x" of pci_domain_nr(), pci_dev_id()). A bare "%x" id
    (tg3.c's bus<<8|devfn) is left out: "100" alone names no driver."""
    from sbctune.resources import resource_root

    try:
        path = resource_root().joinpath("kernel_source", "mdio_bus_names.json")
        rows = json.loads(path.read_text(encoding="utf-8"))["names"]
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return ()
    shapes: list[tuple[re.Pattern[str], str, tuple[str, ...]]] = []
    for row in rows.values():
        fmt, kinds, driver = row.get("id"), row.get("id_pci_args"), row.get("driver")
        if not (isinstance(fmt, str) and kinds and driver):
            continue
        parts = re.split(r"%0?\d*x", fmt)
        if not any(re.search(r"[A-Za-z]", p) for p in parts):
            continue  # no literal of the driver's own: a number alone
        if len(parts) != len(kinds) + 1:
            continue  # a conversion other than %x: not a shape this reads
        shape = "([0-9a-f]{1,8})".join(re.escape(p) for p in parts)
        shapes.append((re.compile(shape), str(driver), tuple(kinds)))
    return tuple(shapes)


def pci_function_of_bus(bus_id: str) -> tuple[str, str] | None:
    """(driver, PCI address) of the MAC whose MDIO bus is `bus_id` ("r8169-0-100":
    ("r8169", "0000:01:00.0")): pci_dev_id() is PCI_DEVID(bus, devfn) = bus << 8 | devfn
    (include/linux/pci.h), devfn's slot the top five bits, its function the low three."""
    for shape, driver, kinds in _pci_named():
        match = shape.fullmatch(bus_id)
        if match is None:
            continue
        numbers = dict(zip(kinds, (int(g, 16) for g in match.groups()), strict=True))
        domain, devid = numbers.get("pci_domain", 0), numbers.get("pci_devid")
        if devid is None or devid > 0xFFFF or domain > 0xFFFF:
            return None
        bus, devfn = devid >> 8, devid & 0xFF
        return driver, f"{domain:04x}:{bus:02x}:{devfn >> 3:02x}.{devfn & 7}"
    return None
