"""The name each network driver gives the MDIO bus it registers (struct mii_bus .name), read
from the 6.1 and 6.12 source by scripts/regen_mdio_bus_names.py
(resources/kernel_source/mdio_bus_names.json): fec_main.c's "fec_enet_mii_bus", lan78xx.c's
"lan78xx-mdiobus". Kernels before 5.x printed it as the bus registered ("libphy: %s: probed"),
so such a line says that driver's MAC is present."""

from __future__ import annotations

import functools
import json


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
