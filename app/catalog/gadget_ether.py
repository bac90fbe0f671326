"""An interface that the USB gadget's Ethernet layer registered, known by its own line.

``resources/kernel_source/gadget_ether.json`` (scripts/regen_gadget_ether.py, from Debian's
linux-source-6.1 and 6.12): drivers/usb/gadget/function/u_ether.c, under every Ethernet gadget
(g_ether, g_multi, configfs ecm/ncm/rndis functions), prints ``usb0: HOST MAC de:c1:...`` when
it registers the interface (6.1's INFO() puts the interface's name first; 6.12's names the
gadget device instead), and ethtool reports the interface's driver as the literal that
eth_get_drvinfo() copies: ``g_ether``. Only formats no other file prints are kept. The formats
are constants from the table; no text from a Pi is made a regex.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass

_MAC = r"[0-9a-fA-F]{2}(?::[0-9a-fA-F]{2}){5}"


@dataclass(frozen=True)
class GadgetEther:
    driver: str
    source: str  # where the format and the driver literal are, for the evidence
    formats: tuple[re.Pattern[str], ...]


@functools.cache
def _table() -> GadgetEther | None:
    from sbctune.resources import resource_root

    try:
        path = resource_root().joinpath("kernel_source", "gadget_ether.json")
        data = json.loads(path.read_text(encoding="utf-8"))
        file, series = str(data["file"]), data["series"]
        drivers = {str(s["driver"]) for s in series.values() if s.get("driver")}
        named = sorted(
            {str(f) for s in series.values() if s.get("iface_first") for f in s["formats"]}
        )
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    if len(drivers) != 1 or not named:
        return None
    patterns = tuple(re.compile(re.escape(f).replace("%pM", _MAC) + r"\s*$") for f in named)
    kernels = ", ".join(s for s, v in sorted(series.items()) if v.get("iface_first"))
    return GadgetEther(drivers.pop(), f"{file} ({kernels})", patterns)


def gadget_driver(message: str) -> tuple[str, str] | None:
    """(driver, source) when `message` (a line's text after "IFACE: ") is u_ether's own."""
    table = _table()
    if table is None or len(message) > 200 or "MAC" not in message:
        return None
    if any(p.match(message) for p in table.formats):
        return table.driver, table.source
    return None
