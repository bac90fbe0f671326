"""Sightings from ``lshw -C network``: each network node keyed by its interface name, PCI
address or USB port, with its driver (or none: UNCLAIMED), product, MAC, link and speed."""

from __future__ import annotations

from collections.abc import Iterator

from sbctune.catalog.vendor_drivers import drvinfo_module
from sbctune.inventory.parsers.lshw import LshwNetwork, LshwResult
from sbctune.inventory.sightings import Key, Sighting, device_keys, iface_key


def from_lshw(result: LshwResult | None) -> Iterator[Sighting]:
    for net in result.networks if result is not None else []:
        sighting = _sighting(net)
        if sighting is not None:
            yield sighting
    for usb in result.usb if result is not None else []:
        if (found := _usb_sighting(usb)) is not None:
            yield found


def _usb_sighting(node: LshwNetwork) -> Sighting | None:
    """A ``*-usb`` node: any USB device, at its port (lshw prints no IDs). Its product is the
    device's own Product string (or usb.ids' name), what the USB core's ``Product:`` line says,
    so the same words make it a NIC; its vendor lets the device join a listing that names it
    only by bus and number (build.pair_usb_by_bus)."""
    if node.usb_port is None:
        return None
    s = Sighting([("usb", node.usb_port)])
    if key := iface_key(node.logical_name):
        s.keys.append(key)
    line = f"*-{node.node}{' UNCLAIMED' if node.unclaimed else ''} (bus info: {node.bus_info})"
    s.add("bus", "usb", "lshw", line)
    if node.unclaimed:  # no interface of the device has a driver (usb.cc: claim() per driver)
        s.add("driver_none", True, "lshw", line)
    elif node.driver:
        driver = drvinfo_module(node.driver) or node.driver  # lshw prints get_drvinfo's name
        s.add("driver", driver, "lshw", f"{line}: configuration: driver={node.driver}")
    s.add("usb_product", node.product, "lshw", f"{line}: product: {node.product}")
    s.add("usb_vendor", node.vendor, "lshw", f"{line}: vendor: {node.vendor}")
    if node.description == "Wireless interface":  # class e0, or lshw's network scan
        s.add("wireless", True, "lshw", f"{line}: description: {node.description}")
    speed = node.usb_speed_mbps
    s.add("usb_speed_mbps", speed, "lshw", f"{line}: configuration: speed={speed}Mbit/s")
    s.add("seen", True, "lshw", line)
    return s


def _keys(net: LshwNetwork) -> tuple[list[Key], str | None]:
    keys: list[Key] = []
    bus = None
    if net.pci_address:
        keys.append(("pci", net.pci_address.lower()))
        bus = "pci"
    elif net.usb_port:
        keys.append(("usb", net.usb_port))
        bus = "usb"
    elif net.sdio_function:  # the SDIO key is the host's, as a log line's "mmc2:390b:1" gives
        keys.append(("sdio", net.sdio_function.split(":")[0]))
        bus = "sdio"
    elif (found := device_keys(net.platform_device)) and found[0] == "platform":
        keys.append(found[1])
        bus = "platform"
    if key := iface_key(net.logical_name):
        keys.append(key)
    if not keys and net.node.startswith("record:") and net.bus:
        # a report's numbered record of a network card on a named bus, its address not in the
        # excerpt (nixos-facter's "index": 12, "bus_type": SDIO): one device, that record
        keys.append(("record", net.node))
    if not keys and net.source == "lshw" and net.driver and not net.unclaimed:
        # a node pasted without its bus info and name (an excerpt from inside it): lshw lists
        # it as a network node, so it is one NIC, the one its driver drives; the driver's key
        # joins it to that driver's device-less lines (driver_line_sightings)
        keys.append(("drv", drvinfo_module(net.driver) or net.driver))
    return keys, bus or net.bus


def _sighting(net: LshwNetwork) -> Sighting | None:
    keys, bus = _keys(net)
    if not keys:
        return None
    s = Sighting(keys)
    src = net.source  # "lshw" or "hwinfo"
    if net.ids:
        s.add("ids", net.ids, src, f"Vendor/Device: {net.ids}")
    s.add("usb_speed_mbps", net.usb_speed_mbps, src, f"Speed: {net.usb_speed_mbps} Mbps")
    line = f"*-{net.node}{' UNCLAIMED' if net.unclaimed else ''}"
    said = f"bus info: {net.bus_info}" if net.bus_info else f"{net.bus} IDs: {net.ids}"
    s.add("bus", bus, src, said)
    if bus == "pci" and src == "lshw" and net.node.split(":")[0] == "network":
        # lshw names a node by its class: src/core/pci.cc gives PCI base class 0x02
        # (PCI_BASE_CLASS_NETWORK) hw::network, so "*-network" there is a network controller,
        # whatever language its description and UNCLAIMED are printed in
        s.add("pci_class", "02", src, f"{line} ({said})")
    if bus == "platform":  # the SoC device's whole name (the key keeps its address alone)
        s.add("platform_name", net.platform_device, src, said)
    if bus == "sdio":
        s.add("sdio_function", net.sdio_function, src, said)
    if net.unclaimed:
        s.add("driver_none", True, src, line)
    elif net.driver:
        driver = drvinfo_module(net.driver) or net.driver
        s.add("driver", driver, src, f"configuration: driver={net.driver}")
    s.add("driver_version", net.config.get("driverversion"), src, "configuration: driverversion")
    s.add("firmware", net.config.get("firmware"), src, "configuration: firmware")
    if net.product:
        s.add("description", net.product, src, f"product: {net.product}")
    if net.description and "wireless" in net.description.lower():
        s.add("wireless", True, src, f"description: {net.description}")
    elif "wireless" in net.capabilities or "wireless" in net.config:
        # the capability id and the configuration key are not translated where the description
        # is ("Kabellose Verbindung"): network.cc sets both for a wireless interface
        s.add("wireless", True, src, f"capabilities: {' '.join(net.capabilities)}")
    if net.serial and len(net.serial) == 17 and net.serial.count(":") == 5:
        s.keys.append(("mac", net.serial.lower()))
    link = net.link
    if link is not None:
        s.add("link", link, src, f"configuration: link={'yes' if link else 'no'}")
    if net.config.get("no_carrier_up") == "yes":  # networkctl's "no-carrier": up, no carrier
        s.add("no_carrier", True, src, f"{net.logical_name}: State: no-carrier (up, no carrier)")
    if link and net.size_mbps:
        s.add("link_speed_mbps", int(net.size_mbps), src, f"size: {int(net.size_mbps)}Mbit/s")
        duplex = net.config.get("duplex")
        if duplex in ("full", "half"):
            s.add("duplex", duplex, src, f"configuration: duplex={duplex}")
    # "capacity:" is only a floor: lshw reads it through ethtool's legacy ioctl, whose link-mode
    # mask has no 2.5G/5G bits (an RTL8125 shows "capacity: 1Gbit/s"), so nics.py takes it only
    # when neither ethtool's modes nor the chip's own line rate are known (an I219-LM linked at
    # 10Mbit/s of "capacity: 1Gbit/s": robotology/mesh-support#776).
    if net.capacity_mbps:
        s.add(
            "capacity_mbps", int(net.capacity_mbps), src, f"capacity: {net.capacity_mbps:g}Mbit/s"
        )
    s.add("irq_hint", net.irq, src, f"resources: irq:{net.irq}")
    s.add("seen", True, src, line)
    return s
