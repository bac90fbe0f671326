"""The ``ethtool -i`` bus-info of the lab's USB NICs: usb_make_path's "usb-<host>-<devpath>"
(include/linux/usb.h), which usbnet_get_drvinfo, rtl8152_get_drvinfo and lan78xx_get_drvinfo
write, from the profile's captured ``lsusb -t`` (the NIC's port chain under its root hub) and
the board's host controller (resources/lab/usb_hosts.toml). Nothing is claimed where either is
missing: no capture, a board or host the data does not list, or more than one device bound to
the driver (audit 32 row 8)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sbctune.lab.ethtool_models import data_root, load_toml
from sbctune.tuning import driver_caps

MAX_LINES = 200  # a profile's lsusb -t: a few hubs and devices


def _hosts() -> dict[str, Any]:
    return dict(load_toml(Path(data_root()).parent / "usb_hosts.toml"))


def _field(line: str, key: str) -> str:
    """The value of `key=` in an lsusb -t line ("Driver=xhci_hcd/4p" -> "xhci_hcd")."""
    _, found, rest = line.partition(f"{key}=")
    return rest.split(",")[0].split("/")[0].strip() if found else ""


def device_paths(text: str, driver: str) -> list[tuple[str, str]]:
    """(root hub's driver, devpath) of each device bound to `driver` in an ``lsusb -t`` text:
    "/:  Bus 02.Port 1: ... Driver=xhci_hcd/4p" opens a root, each "|__ Port N: ..." line is a
    port N under the nearest line less indented (the devpath joins them with dots)."""
    found: list[tuple[str, str]] = []
    host, chain = "", list[tuple[int, str]]()  # (indent, port) from the root down
    for line in text.splitlines()[:MAX_LINES]:
        if line.startswith("/:"):
            host, chain = _field(line, "Driver"), []
            continue
        indent = line.find("|__ Port ")
        if indent < 0 or not host:
            continue
        port = line[indent + len("|__ Port ") :].split(":")[0].strip()
        if not (port.isascii() and port.isdigit()):
            continue
        # usbutils 017+ pads the port ("Port 001"): the devpath has the number
        chain = [c for c in chain if c[0] < indent] + [(indent, str(int(port)))]
        if _field(line, "Driver") == driver:
            path = (host, ".".join(p for _, p in chain))
            if path not in found:  # one device's several interfaces
                found.append(path)
    return found


def bus_info(driver: str | None, kernel: str, board: str | None, lsusb_t: str | None) -> str | None:
    """What the driver's get_drvinfo writes as bus-info for the lab's NIC, or None."""
    caps = driver_caps.caps(driver, kernel or None) if driver else None
    if not driver or not lsusb_t or not board:
        return None
    if caps is None or not caps.has("get_drvinfo"):
        return None
    hosts = _hosts()
    if caps.cite("get_drvinfo").rsplit(": ", 1)[-1] not in hosts.get("writers", []):
        return None
    boards = {k: v for k, v in hosts.items() if isinstance(v, dict)}
    names = driver_caps.by_chip(boards, board) or {}
    paths = device_paths(lsusb_t, driver)
    if len(paths) != 1 or paths[0][0] not in names:
        return None
    host, devpath = paths[0]
    return f"usb-{names[host]}-{devpath}"
