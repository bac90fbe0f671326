"""From parsed outputs to the Inventory: the board (``board_identity``), and every NIC with its
chip, driver, bus, bus speed, link and IRQs.

Every source says what it knows about devices (``sightings``, ``log_sightings``); sightings
that share a key are one device (``graph.join``); a device that is a network device becomes a
NIC whose fields come from the source ``graph.PRECEDENCE`` ranks first (``nics``). Every NIC
seen anywhere appears once, each field with the line that said it.
"""

from __future__ import annotations

import re

from sbctune.catalog import Catalog, load_catalog
from sbctune.catalog.ids import IdDatabase, load_ids
from sbctune.catalog.kernel_drivers import load_kernel_drivers
from sbctune.inventory.alias_ties import alias_pair
from sbctune.inventory.bare_interfaces import drive_bare_interfaces
from sbctune.inventory.board_identity import board_of
from sbctune.inventory.board_own_chip import name_board_own_chip
from sbctune.inventory.graph import Device, join
from sbctune.inventory.irq_chips import fixed_irqs
from sbctune.inventory.listing_sightings import all_sightings
from sbctune.inventory.log_sightings import from_dmesg
from sbctune.inventory.lshw_sightings import from_lshw
from sbctune.inventory.model import Inventory, Nic
from sbctune.inventory.nics import board_makers_mac, is_builtin, is_nic, nic_from_device
from sbctune.inventory.raw import Parsed
from sbctune.inventory.systemd_models import name_by_device_units
from sbctune.inventory.template_names import template_sightings
from sbctune.inventory.usb_returned import join_returned
from sbctune.inventory.virtual_declared import bond_masters, declared_virtual
from sbctune.inventory.virtual_listed import listed_virtual
from sbctune.inventory.warn_site_trace import tie_warn_sites
from sbctune.inventory.wifi_one_of import drop_unplaceable_wifi
from sbctune.inventory.wiphy_census import no_wiphy_left
from sbctune.inventory.wiphy_siblings import second_interfaces


def _irqs_for(parsed: Parsed, nic: Nic) -> list[int]:
    """IRQs a NIC shares with its bus or names by driver (USB NICs take the host
    controller's interrupt), when /proc/interrupts does not name the interface."""
    interrupts = parsed.interrupts
    if interrupts is None:
        return []
    # From the name index, not a scan of every IRQ per NIC (2 500 NICs x 20 000 IRQs).
    names = [nic.driver] if nic.driver else []
    if nic.bus == "platform" and nic.bus_path:
        # A SoC MAC's driver may name its interrupts by its device (request_irq(..., pdev->name):
        # nuc970_ether0.c names both "b0002000.emac0"): a device's name is its own alone.
        names.append(nic.bus_path)
    # A USB NIC has no interrupt of its own: its traffic raises its host controller's. xHCI on
    # PCI with MSI names it "xhci_hcd" (drivers/usb/host/xhci-pci.c, one for every bus), the
    # Pi's downstream dwc_otg "dwc_otg"; every other one is named by usb_add_hcd with its bus.
    names += ["xhci_hcd", "dwc_otg", "dwc2"] if nic.bus == "usb" else []
    found = {number for name in names for number in interrupts.numbers_named(name)}
    if nic.bus == "usb":
        found |= set(interrupts.host_controller_irqs(_usb_bus_number(nic.bus_path)))
    # /proc/interrupts lists IRQs in ascending order: sorted is the order they were read in.
    return sorted(found)


def _usb_bus_number(path: str | None) -> int | None:
    """The bus of a USB port path ("2-1.3" -> 2), None when not a USB path."""
    head = (path or "").split("-", 1)[0]
    return int(head) if "-" in (path or "") and (head.isascii() and head.isdigit()) else None


def devices(parsed: Parsed) -> list[Device]:
    """Every device any source mentions, joined."""
    log = parsed.dmesg
    # the parsed log's distinct line texts, where they cover the very text searched
    bodies = log.bodies if log is not None and log.read is parsed.dmesg_text else None
    named = template_sightings(parsed.dmesg_text, bodies)  # bluetoothd's "... connection: bnep0"
    return join(all_sightings(parsed, [*from_lshw(parsed.lshw), *from_dmesg(parsed.dmesg), *named]))


def _usb_bus(device: Device) -> str | None:
    path = device.key("usb")
    if path:
        return path.split("-")[0]
    number = device.key("usbdev")
    return number.split(":")[0] if number else None


def _pair_usb_by_bus(found: list[Device], ids: IdDatabase) -> list[Device]:
    """A USB NIC known only by bus and device number (plain `lsusb`, `lsusb -v`) and one known
    only by its port path (the kernel log, lshw) on the same bus, each the only one there: one
    NIC. With several numbered ones, the one whose vendor (usb.ids' name for its IDs) is the
    vendor the port's source names (lshw's ``vendor: Realtek``), when it is the only such one."""
    out = list(found)
    by_number = [d for d in out if d.key("usbdev") and not d.key("usb")]
    by_path = [d for d in out if d.key("usb") and not d.key("usbdev")]
    for bus in sorted({b for d in by_number if (b := _usb_bus(d))}):
        numbered = [d for d in by_number if _usb_bus(d) == bus]
        pathed = [d for d in by_path if _usb_bus(d) == bus]
        if len(numbered) > 1 and len(pathed) == 1:
            said = {_vendor_word(str(f.value)) for f in pathed[0].all("usb_vendor")} - {""}
            numbered = [d for d in numbered if said and _ids_vendor_word(d, ids) in said]
        if len(numbered) == 1 and len(pathed) == 1:
            keep, gone = pathed[0], numbered[0]
            keep.keys |= gone.keys
            keep.facts += gone.facts
            out.remove(gone)
    return out


def _vendor_word(name: str) -> str:
    """A vendor's first word, folded: a device's Manufacturer string ("Realtek") and usb.ids'
    name ("Realtek Semiconductor Corp.") of one vendor begin alike."""
    word = re.match(r"[^\W_]+", name.strip())
    return word.group(0).casefold() if word else ""


def _ids_vendor_word(device: Device, ids: IdDatabase) -> str:
    vendor_id = str(device.value("ids") or "").partition(":")[0].lower()
    return _vendor_word(ids.usb_vendors.get(vendor_id, ""))


def _sort_key(nic: Nic) -> tuple[int, str, int, str]:
    name = nic.name or ""
    match = re.match(r"^(\D*)(\d*)", name)
    prefix, number = (match.group(1), match.group(2)) if match else (name, "")
    return (0 if name else 1, prefix, int(number) if number else -1, nic.bus_path or "")


def build_inventory(
    parsed: Parsed, catalog: Catalog | None = None, ids: IdDatabase | None = None
) -> Inventory:
    catalog = catalog or load_catalog()
    ids = ids or load_ids()
    inventory = Inventory(warnings=list(parsed.warnings))
    inventory.board = board_of(parsed, catalog)
    virtual = declared_virtual(parsed.dmesg_text)  # bat0, netifd's "MAC VLAN 'local-node'"
    virtual |= bond_masters(parsed.dmesg)  # "test: link status definitely down for ..."
    virtual |= listed_virtual(parsed)  # nordlynx's link/none, nebula1's "unspec ... (UNSPEC)"
    virtual |= second_interfaces(parsed.texts.get("iw dev", ""))  # uap0 beside its wlan0
    found = [d for d in devices(parsed) if is_nic(d, catalog, ids) and not _declared(d, virtual)]
    # is_nic reads only a device's facts and keys, which the joins below only add to: a device
    # they left as it was is a NIC already (each is_nic of a long log's device is ~10^5
    # instructions)
    decided = {id(d): _size(d) for d in found}
    for device in _pair_usb_by_bus(join_returned(found), ids):
        if decided.get(id(device)) == _size(device) or is_nic(device, catalog, ids):
            nic = nic_from_device(device, parsed, catalog, ids, inventory.board)
            nic.irqs = nic.irqs or _irqs_for(parsed, nic)
            inventory.nics.append(nic)
    inventory.nics.sort(key=_sort_key)
    _pair_by_elimination(inventory, parsed, catalog)
    drop_unplaceable_wifi(inventory)  # a driver's device-less lines beside two Wi-Fi interfaces
    _lone_wifi_driver(inventory, parsed)
    drive_bare_interfaces(inventory, parsed, catalog)  # 2.6's "eth0: ..." beside "emac: ..."
    tie_warn_sites(inventory, parsed)  # a 3.x transmit watchdog told by its trace alone
    no_wiphy_left(inventory, parsed)  # `iw dev` lists no interface of a USB Wi-Fi adapter
    name_board_own_chip(inventory, catalog)  # a CM4's bcmgenet: its GENET, not "unknown"
    name_by_device_units(inventory, parsed.dmesg_text, ids)  # "Found device MT27710 ..."
    for nic in inventory.nics:
        nic.fixed_irqs, nic.fixed_irqs_why = fixed_irqs(
            parsed.interrupts, nic.irqs, inventory.board.kernel
        )
    return inventory


def _size(device: Device) -> tuple[int, int]:
    return len(device.facts), len(device.keys)


def _declared(device: Device, virtual: frozenset[str]) -> bool:
    """A device known only by names the log itself calls virtual (virtual_declared.py): no bus
    key, driver or IDs of its own, so nothing but that interface."""
    names = device.names()
    if not virtual or not names or any(n not in virtual for n in names):
        return False
    keys = ("pci", "usb", "sdio", "platform")
    return (
        not any(device.key(k) for k in keys)
        and not device.value("driver")
        and not device.value("ids")
    )


def _pair_by_elimination(inventory: Inventory, parsed: Parsed, catalog: Catalog) -> None:
    """An interface and an adapter that no shared key joined, when nothing else can pair them:
    one unplaced wired interface and one adapter with no interface (a Pi 1 B forum paste of
    `lsusb -t` and `ethtool eth0`); or the only interface and the only adapter of one driver
    (a log from another boot names another port path)."""
    while True:
        pair = _lone_pair(inventory.nics)
        if pair is None:
            return
        nic, device = pair
        inventory.nics.remove(device)
        nic.bus = device.bus if nic.bus == "unknown" else nic.bus
        keys = ("driver", "bus_path", "chip", "ids", "usb_speed_mbps", "pcie", "catalog_id")
        for key in (*keys, "max_link_speed_mbps"):
            setattr(nic, key, getattr(nic, key) or getattr(device, key))
        # a family stands in only where no chip or IDs say which chip (nics._chip's rule)
        family = nic.chip_family or device.chip_family
        nic.chip_family = None if nic.chip or nic.ids else family
        # the device's "not shown" or "none" stands for the interface it is paired with
        nic.driver_state = None if nic.driver else nic.driver_state or device.driver_state
        # The adapter's own link line is the interface's link when the interface's lines give
        # no speed and neither side is down: ixgbevf prints "NIC Link is Up 10 Gbps" on the PCI
        # function, the interface only comes up in ADDRCONF (corpus/virt55_aws_weave_3133_*)
        down = nic.link_detected is False or device.link_detected is False
        if nic.link_speed_mbps is None and device.link_speed_mbps and not down:
            nic.link_speed_mbps, nic.duplex = device.link_speed_mbps, nic.duplex or device.duplex
            nic.linked_at_mbps = nic.linked_at_mbps or device.linked_at_mbps
            nic.link_detected = True
        nic.evidence += device.evidence
        for kind, lines in device.log.items():  # the adapter's logged errors are the NIC's
            nic.log[kind] = nic.log.get(kind, []) + lines
            nic.log_counts[kind] = nic.log_counts.get(kind, 0) + device.log_counts.get(kind, 0)
        nic.firmware = nic.firmware or device.firmware
        what = f"{device.driver} device" if device.driver else f"device at {device.bus_path}"
        nic.evidence.append(f"{nic.name} is the only interface left for the {what}")
        nic.builtin = is_builtin(nic, inventory.board, catalog)
        nic.irqs = nic.irqs or _irqs_for(parsed, nic)


def _lone_wifi_driver(inventory: Inventory, parsed: Parsed) -> None:
    """The one Wi-Fi interface no line places (``IPv6: ADDRCONF(NETDEV_UP): wlan0: ...``) is
    driven by the one Wi-Fi driver whose lines name no device (``brcmfmac:
    brcmf_cfg80211_set_power_mgmt: power save enabled``), when no NIC has that driver: an
    interface has one driver, and no other Wi-Fi device or driver is shown to share it."""
    wifi = [n for n in inventory.nics if n.wireless]
    if len(wifi) != 1 or wifi[0].driver or wifi[0].bus_path or wifi[0].ids:
        return
    events = parsed.dmesg.of_kind("driver_message") if parsed.dmesg is not None else []
    kernel = load_kernel_drivers()
    named: set[str] = set()
    for event in events:
        if event.kind == "driver_message" and event.driver and len(named) < 2:
            found = kernel.get(event.driver)
            if found is not None and found.wireless:
                named.add(found.name)
    taken = {n.driver for n in inventory.nics}
    if len(named) == 1 and not named & taken:
        wifi[0].driver = named.pop()


def _unnamed_devices(wired: list[Nic]) -> list[Nic]:
    """Devices with a driver, IDs or an address but no interface name (plain `lspci` shows only
    the address and the name); a device a snapshot (lsusb, lspci) shows now beats one only
    logged."""
    unnamed = [d for d in wired if not d.name and (d.driver or d.ids or d.bus_path)]
    if len(unnamed) > 1:
        shown = [d for d in unnamed if any(not e.startswith("dmesg") for e in d.evidence)]
        unnamed = shown if len(shown) == 1 else unnamed
    return unnamed


def _unplaced(wired: list[Nic]) -> list[Nic]:
    """Interfaces with a name but no device: nothing said which device they belong to (a
    bus read from the name's own path, ``enp0s18f2u1``, names no device)."""
    return [
        n
        for n in wired
        if (n.bus == "unknown" or (not n.bus_path and not n.ids and not n.driver))
        and (n.name or "").startswith(("eth", "en"))
    ]


def _same_driver_pair(wired: list[Nic], unnamed: list[Nic]) -> tuple[Nic, Nic] | None:
    for device in [d for d in unnamed if d.driver]:
        # a named SoC MAC at another platform address is another device (a second GEM), and
        # an interface placed at another PCI address is another function or card (bnx2's
        # 0000:0b:00.1 beside enp11s0f0 at 0b:00.0): PCI addresses follow the topology, they
        # do not renumber between boots the way a replugged USB port path may
        same = [
            n
            for n in wired
            if n.name and n.driver == device.driver and not _placed_elsewhere(n, device)
        ]
        others = [d for d in unnamed if d.driver == device.driver]
        if len(same) == 1 and len(others) == 1 and same[0].usb_speed_mbps is None:
            return same[0], device
    return None


def _placed_elsewhere(nic: Nic, device: Nic) -> bool:
    """The interface is at another address of the device's bus (an interface no line placed is
    not: "eth1: Atheros AG71xx at ..." names no address)."""
    if nic.bus != device.bus or nic.bus not in ("platform", "pci"):
        return False
    return bool(nic.bus_path) and nic.bus_path != device.bus_path


def _lone_pair(nics: list[Nic]) -> tuple[Nic, Nic] | None:
    wired = [n for n in nics if not n.wireless]
    unnamed = _unnamed_devices(wired)
    unplaced = _unplaced(wired)
    if len(unplaced) == 1 and len(unnamed) == 1 and unplaced[0].bus in ("unknown", unnamed[0].bus):
        return unplaced[0], unnamed[0]
    return _same_driver_pair(wired, unnamed) or alias_pair(wired, unnamed) or _lone_wifi_pair(nics)


def _lone_wifi_pair(nics: list[Nic]) -> tuple[Nic, Nic] | None:
    """The same for Wi-Fi: the only Wi-Fi interface that nothing placed (a report tool's
    /proc/net/wireless row, `iw dev`) and the only Wi-Fi adapter with no interface (its
    `ethtool -i` printed without the interface's name, a driver's log line)."""
    wifi = [n for n in nics if n.wireless]
    unnamed = _unnamed_devices(wifi)
    unplaced = [n for n in wifi if n.name and not n.bus_path and not n.ids and not n.driver]
    if any(n.bus in ("usb", "pci") for n in unnamed):
        # a Raspberry Pi MAC is the board's own radio (SDIO), not a plugged-in adapter's
        unplaced = [n for n in unplaced if not board_makers_mac(n.mac)]
    if len(unplaced) == 1 and len(unnamed) == 1 and unplaced[0].bus in ("unknown", unnamed[0].bus):
        return unplaced[0], unnamed[0]
    return None
