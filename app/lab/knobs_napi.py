"""The lab's ``/sys/class/net/IFACE/threaded`` (threaded NAPI), as the kernel answers for the
profile's driver, not as the lab's veth does (a veth without GRO has no NAPI: every write is
EOPNOTSUPP, harsher than a NAPI driver's kernel; driver_caps_audit4a.md row 5).

net/core/net-sysfs.c threaded_store -> netdev_store (kstrtoul(buf, 0, ...): text it cannot read
is EINVAL) -> modify_napi_threaded: EOPNOTSUPP where the device has no NAPI instance
(``list_empty(&dev->napi_list)``) or the value is neither 0 nor 1, else dev_set_threaded; and
threaded_show reads the device's flag back. Which drivers have NAPI is the table's hand fact
``napi`` (resources/tuning/driver_caps.json): "probe" (added at probe: macb, lan78xx, r8152,
r8169, igb, igc, atlantic, stmmac), "open" (bcmgenet: the rings' NAPI instances exist only while
the interface is up: bcmgenet_init_dma at open, netif_napi_del at close), or false (usbnet
drivers: netif_rx, no NAPI). A driver the table does not know keeps the veth's own file.
"""

from __future__ import annotations

import errno
from dataclasses import dataclass
from typing import Any

from sbctune.lab.knobs_model import kernel_error
from sbctune.tuning import driver_caps

IFF_UP = 0x1
ULONG_MAX = (1 << 64) - 1


def kstrtoul(text: str) -> int:
    """lib/kstrtox.c kstrtoul with base 0 as netdev_store calls it: one trailing newline, an
    optional '+', 0x for hex, a leading 0 for octal; else EINVAL; too big ERANGE."""
    body = text[:-1] if text.endswith("\n") else text
    body = body[1:] if body.startswith("+") else body
    base = 10
    if body[:2].lower() == "0x":
        base, body = 16, body[2:]
    elif body.startswith("0") and len(body) > 1:
        base, body = 8, body[1:]
    digits = "0123456789abcdef"[:base]
    if not body or any(c not in digits for c in body.lower()):
        raise kernel_error(errno.EINVAL)
    value = int(body, base)
    if value > ULONG_MAX:
        raise kernel_error(errno.ERANGE)
    return value


def napi_of(driver: str, kernel: str = "", chip: str = "") -> str | bool | None:
    """The table's ``napi`` fact for the driver: "probe", "open", False, or None (unknown)."""
    caps = driver_caps.caps(driver, kernel or None, chip or None) if driver else None
    value = caps.facts.get("napi") if caps else None
    return value if value in ("probe", "open", False) else None


@dataclass
class Threaded:
    """One interface's threaded file. `flags`: the veth's sysfs flags file (is it up?)."""

    napi: str | bool
    flags: str = ""
    value: int = 0

    def _has_napi(self) -> bool:
        if self.napi == "open":
            try:
                with open(self.flags, encoding="utf-8") as fh:
                    return bool(int(fh.read().strip(), 16) & IFF_UP)
            except (OSError, ValueError):
                return False
        return self.napi == "probe"

    def read(self) -> str:
        return f"{self.value}\n"

    def write(self, text: str) -> None:
        value = kstrtoul(text)
        if not self._has_napi() or value not in (0, 1):
            raise kernel_error(errno.EOPNOTSUPP)
        self.value = value


def knobs(interfaces: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The threaded files to model (nsinit): interfaces whose driver the table knows."""
    out = []
    for iface in interfaces:
        napi = iface.get("napi")
        if napi is None:
            continue
        base = f"/sys/class/net/{iface['name']}"
        out.append({"path": f"net/{iface['name']}/threaded", "real": f"{base}/threaded",
                    "flags": f"{base}/flags", "napi": napi})  # fmt: skip
    return out
