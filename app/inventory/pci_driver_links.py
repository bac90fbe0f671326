"""Each PCI function's `driver` link in sysfs: which driver is bound, or that none is.

drivers/base/dd.c driver_sysfs_add() makes /sys/bus/pci/devices/<address>/driver when a driver
binds and driver_sysfs_remove() drops it when it unbinds (6.1 and 6.12): a function listed with
no link has no driver bound. That proves "no driver" where plain `lspci` (no -k) cannot and a
kernel log excerpt cannot either (seed 004: an I340 whose igb was not built).

A bundle stores each link as the file `/sys/bus/pci/devices/<address>/driver` holding the link's
target as `readlink` prints it, empty when the function has no link (`sbctune collect`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping

from sbctune.inventory.sightings import Sighting, pci_address

PCI_DRIVERS_KEY = "pci-drivers"
MAX_FUNCTIONS = 512  # a Pi has a handful; a server a few hundred
_ADDRESS = re.compile(r"^[0-9a-f]{4,8}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]$")
_DRIVER = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")  # a module's or built-in driver's name
_FILE = re.compile(r"^/sys/bus/pci/devices/([0-9a-f]{4,8}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7])/driver$")
# Its own source, ranked below the net device's own driver link ("sysfs", ethtool -i): a NIC on
# a bus of its own behind the function (virtio_net on virtio1 under 0000:00:02.0, whose link
# names the transport virtio-pci; drivers/virtio/virtio_pci_common.c virtio_pci_probe registers
# the virtio device the net driver binds) is keyed to the function, and the function's driver
# is not the NIC's. Beside lspci -k, which reads the same link (lspci's ls-kernel.c).
SOURCE = "sysfs pci"
_SRC = SOURCE


def pci_driver_files(data: bytes) -> dict[str, str]:
    """The collector's answer (NUL-separated address, link target) as bundle files; text from
    the Pi: only well-formed addresses, at most ``MAX_FUNCTIONS``, targets bounded."""
    parts = data[: MAX_FUNCTIONS * 320].decode("utf-8", errors="replace").split("\0")
    files: dict[str, str] = {}
    for name, target in zip(parts[0::2], parts[1::2], strict=False):
        if len(files) >= MAX_FUNCTIONS:
            break
        if _ADDRESS.match(name):
            files[f"/sys/bus/pci/devices/{name}/driver"] = target.strip()[:256]
    return files


def _driver_name(target: str) -> str | None:
    """The driver a link target names ("../../../bus/pci/drivers/igb" -> "igb"), or None."""
    name = target.strip().rsplit("/", 1)[-1]
    return name if _DRIVER.match(name) else None


def pci_driver_sightings(sysfs: Mapping[str, str]) -> Iterator[Sighting]:
    """A driver or "none bound" per PCI function whose link the bundle holds."""
    seen = 0
    for path, target in sysfs.items():
        match = _FILE.match(path)
        if match is None or (address := pci_address(match.group(1))) is None:
            continue
        seen += 1
        if seen > MAX_FUNCTIONS:
            return
        # no "bus" fact: the key says PCI, and the listing's line stays the one that shows it
        sighting = Sighting([("pci", address)])
        if not target.strip():
            sighting.add("driver_none", True, _SRC, f"{path}: no such link (no driver bound)")
        elif (driver := _driver_name(target)) is not None:
            sighting.add("driver", driver, _SRC, f"{path} -> {target.strip()[:256]}")
        yield sighting
