"""What the USB listings say about devices, as ``Sighting``s: `lsusb` (IDs, names, the
network driver its interfaces name) and `lsusb -t` (the tree: bus speed, class drivers,
USB 2-only and SuperSpeed root hubs). The other listings are in ``listing_sightings``."""

from __future__ import annotations

from collections.abc import Iterator

from sbctune.catalog.kernel_drivers import load_kernel_drivers
from sbctune.catalog.usb_net_classes import net_class_drivers, tree_class_drivers
from sbctune.inventory.parsers.lsusb import UsbTreeNode
from sbctune.inventory.raw import Parsed
from sbctune.inventory.sightings import (
    Key,
    Sighting,
)


def from_lsusb(parsed: Parsed) -> Iterator[Sighting]:
    if parsed.lsusb is None:
        return
    usb2_buses = _usb2_only_buses(parsed)
    superspeed = _superspeed_buses(parsed)
    for dev in parsed.lsusb.devices:
        keys: list[Key] = [("usbdev", f"{dev.bus}:{dev.device}")] if dev.device else []
        if dev.path:
            keys.append(("usb", dev.path))
        elif not dev.device:  # a line trimmed to `ID vvvv:pppp Name`: the device by its IDs
            keys.append(("usbid", dev.ids))
        sighting = Sighting(keys)
        where = f"{dev.path}: " if dev.path else ""
        where = where or (f"Bus {dev.bus:03d} Device {dev.device:03d}: " if dev.device else "")
        line = f"{where}ID {dev.ids} {dev.description or ''}".strip()
        sighting.add("bus", "usb", "lsusb", line)
        sighting.add("ids", dev.ids, "lsusb", line)
        sighting.add("description", dev.description, "lsusb", line)
        sighting.add("usb_speed_mbps", dev.speed_mbps, "lsusb", f"{line} {dev.speed_mbps or ''}")
        sighting.add("usb_version", dev.usb_version, "lsusb", line)
        if dev.bus in usb2_buses and dev.speed_mbps is None:
            sighting.add("usb_speed_mbps", 480.0, "lsusb", usb2_buses[dev.bus])
        elif dev.bus in superspeed and dev.speed_mbps is None and dev.device != 1:
            sighting.add("usb_speed_mbps", 5000.0, "lsusb bus", superspeed[dev.bus])
        sighting.add("driver", _network_driver(dev.drivers) or dev.driver, "lsusb", line)
        if dev.driver_none:
            sighting.add("driver_none", True, "lsusb", f"{line}: Driver=(none)")
        if by_class := net_class_drivers(dev.classes):  # a network function by its class
            sighting.add("net_class", by_class, "lsusb", f"{line}: interface class {dev.classes}")
        if dev.is_hub:
            sighting.add("hub", True, "lsusb", line)
        yield sighting


def _network_driver(drivers: list[str]) -> str | None:
    """Of a composite device's interface drivers (a modem's qcserial ports beside its
    cdc_mbim data interface), the one the kernel's network drivers' tables list: that is the
    NIC's driver, whichever interface comes first."""
    if len(drivers) < 2:
        return None
    table = load_kernel_drivers()
    return next((d for d in drivers if table.get(d) is not None), None)


def _usb2_only_buses(parsed: Parsed) -> dict[int, str]:
    """Buses whose root hub is a USB 2.0 one (1d6b:0002) in plain `lsusb`: whatever is on
    them runs at 480 Mbit/s at most (a USB 3 root hub, 1d6b:0003, has its own bus)."""
    if parsed.lsusb is None:
        return {}
    found = {}
    for dev in parsed.lsusb.devices:
        if dev.ids == "1d6b:0002" and dev.device == 1:
            found[dev.bus] = f"Bus {dev.bus:03d} Device 001: ID 1d6b:0002 {dev.description or ''}"
    return found


def _superspeed_buses(parsed: Parsed) -> dict[int, str]:
    """Buses whose root hub is the xHCI's USB 3 one (1d6b:0003) in plain `lsusb`: the kernel
    gives the SuperSpeed ports a root hub of their own (drivers/usb/host/xhci-plat.c,
    xhci-pci.c: usb_create_shared_hcd()), so whatever is on that bus runs at 5000 Mbit/s or
    more (a USB 3.1 Gen 2 host's bus has the same root hub ID: which, lsusb does not say)."""
    if parsed.lsusb is None:
        return {}
    return {
        dev.bus: f"Bus {dev.bus:03d} Device 001: ID 1d6b:0003 {dev.description or ''}".strip()
        + ": a SuperSpeed bus (USB 3 root hub): 5000 Mbit/s at least"
        for dev in parsed.lsusb.devices
        if dev.ids == "1d6b:0003" and dev.device == 1
    }


def from_lsusb_tree(parsed: Parsed) -> Iterator[Sighting]:
    if parsed.usb_tree is None:
        return
    # a device's interfaces, for what only their classes together say (tree_class_drivers)
    by_device: dict[tuple[int, int], list[UsbTreeNode]] = {}
    for node in parsed.usb_tree.nodes:
        if not node.is_root_hub:
            by_device.setdefault((node.bus, node.device), []).append(node)
    for node in parsed.usb_tree.nodes:
        if node.is_root_hub:
            continue
        path = node.sysfs_name
        sighting = Sighting([("usb", path), ("usbdev", f"{node.bus}:{node.device}")])
        line = (
            f"Bus {node.bus:02d} Port {node.port_path}: Dev {node.device}, "
            f"If {node.interface}, Class={node.class_name}, Driver={node.driver}, "
            f"{node.speed_mbps:g}M"
        )
        sighting.add("bus", "usb", "lsusb -t", line)
        sighting.add("usb_speed_mbps", node.speed_mbps, "lsusb -t", line)
        sighting.add("ids", node.ids, "lsusb -t", line)
        sighting.add("usb_class", node.class_name, "lsusb -t", line)
        if node.class_name and "hub" in node.class_name.lower():
            sighting.add("hub", True, "lsusb -t", line)
        if node.driver and node.driver not in ("[none]", "(none)", "usbfs", "hub"):
            sighting.add("driver", node.driver, "lsusb -t", line)
        elif node.driver in ("[none]", "(none)"):
            sighting.add("driver_none", True, "lsusb -t", line)
        siblings = by_device.get((node.bus, node.device), [])
        if by_class := tree_class_drivers([n.class_name or "" for n in siblings]):
            # a network function by its interfaces' classes (an Android phone's RNDIS pair)
            classes = ", ".join(n.class_name or "" for n in siblings)
            sighting.add("net_class", by_class, "lsusb -t", f"{line}: interface classes {classes}")
            if not any(n.driver not in (None, "", "[none]", "(none)") for n in siblings):
                # old usbutils print an unbound interface as "Driver=," (lsusb-t.c), new "[none]"
                sighting.add("driver_none", True, "lsusb -t", f"{line}: no interface has a driver")
        yield sighting
