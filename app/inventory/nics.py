"""From a joined device (``sbctune.inventory.graph``) to the inventory's ``Nic``: which devices
are NICs (``nic_kind``), and each field from the source ``graph.PRECEDENCE`` says wins.

Which chip it is, by name, is ``sbctune.inventory.nic_chip``'s: the catalog (measured chips),
then the kernel's own line, then pci.ids/usb.ids.
"""

from __future__ import annotations

import re

from sbctune.catalog import Catalog, Chip
from sbctune.catalog.driver_families import family_sentence
from sbctune.catalog.ids import IdDatabase
from sbctune.catalog.pci_silicon import silicon
from sbctune.catalog.vendor_formats import vendor_driver
from sbctune.inventory.chipset_wifi import chipset_wifi
from sbctune.inventory.firmware_requester import firmware_requester
from sbctune.inventory.graph import Device
from sbctune.inventory.ifnames import onboard_name
from sbctune.inventory.loaded_modules import drivers_not_loaded
from sbctune.inventory.model import Board, Nic, Pcie
from sbctune.inventory.nic_chip import chip_of, chip_otherwise
from sbctune.inventory.nic_kind import bus_of, current_names, is_nic, spi_device
from sbctune.inventory.nic_log import LOG_KINDS, log_of
from sbctune.inventory.nic_wireless import is_wireless
from sbctune.inventory.no_link_unshown import no_link_state_unshown
from sbctune.inventory.parsers.lspci import PciDevice
from sbctune.inventory.pi_usb_nic import OwnUsbNic, pi_own_usb_nic
from sbctune.inventory.raw import Parsed
from sbctune.inventory.switch_ports import set_switch_port
from sbctune.inventory.sysfs_flags import sysfs_not_up

__all__ = [
    "LOG_KINDS",
    "board_makers_mac",
    "current_names",
    "is_builtin",
    "is_nic",
    "nic_from_device",
]

# The Raspberry Pi Foundation's / Raspberry Pi Ltd's MAC prefixes (IEEE OUI registry).
_PI_OUI = re.compile(r"^(b8:27:eb|dc:a6:32|e4:5f:01|28:cd:c1|d8:3a:dd|2c:cf:67)", re.I)


def board_makers_mac(mac: str | None) -> bool:
    """A MAC of the Raspberry Pi OUIs: the board's own NIC (its SoC's, its SDIO radio's, its
    soldered-on USB LAN chip's), never a plugged-in adapter, which carries its own maker's."""
    return bool(_PI_OUI.match(mac or ""))


_PROBING = " (uninitialized)"


def _probe_failed_last(device: Device, driver: str) -> bool:
    """The driver's last word in the kernel log about this device is a failed probe."""
    refusals = [f.order for f in device.all("refused_by") if f.value == driver]
    if not refusals:
        return False
    # a line on a net_device not yet registered is the probe still running (include/linux/
    # netdevice.h netdev_reg_state(): NETREG_UNINITIALIZED prints " (uninitialized)"), not the
    # driver bound: ax88179_178a's failing register writes on its second interface after the
    # first's failed probe (corpus/usbold71_pi_armv6_*)
    spoke = [
        f.order
        for f in device.all("driver")
        if f.value == driver and f.source == "dmesg" and _PROBING not in f.line
    ]
    others = [f for f in device.all("driver") if f.source != "dmesg"]
    return not others and max(refusals) >= max(spoke, default=0)


def _bound_before_it_left(device: Device) -> bool:
    """The driver the log names was bound before the device's last USB disconnect, and the
    port enumerated another device (other IDs) after it: what binds the new one is not shown (a
    dongle's driver CD on usb-storage, switched to 0bda:b711 with no line of its new driver).
    The same IDs back (a disconnect loop) keep the driver."""
    said = device.best("net_driver") or device.best("driver")
    if said is None or said.source != "dmesg":
        return False
    left = max((f.order for f in device.all("usb_disconnect")), default=-1)
    ids = [f for f in device.all("ids") if f.source == "dmesg"]
    before = {f.value for f in ids if f.order < left}
    after = {f.value for f in ids if f.order > left}
    return said.order < left and bool(after) and not after & before


def _name(device: Device) -> str | None:
    names = current_names(device)
    if len(names) <= 1:
        return names[0] if names else None
    # Several current names (two pastes, two boots): the one a snapshot source shows.
    for source in ("sysfs", "ethtool -i", "ethtool", "ip", "interrupts", "dmesg"):
        shown = {n for n in names if source in device.key_sources.get(("if", n), set())}
        if shown:
            return sorted(shown)[0]
    return names[0]


def _pcie(device: Device) -> Pcie | None:
    pci = device.value("pcie")
    if not isinstance(pci, PciDevice) or not (pci.lnksta_speed_gts or pci.lnkcap_speed_gts):
        return None
    return Pcie(
        speed_gts=pci.lnksta_speed_gts,
        width=pci.lnksta_width,
        max_speed_gts=pci.lnkcap_speed_gts,
        max_width=pci.lnkcap_width,
        downgraded=bool(pci.link_degraded),
        max_payload=pci.devctl_max_payload,
        max_read_request=pci.devctl_max_read_req,
        evidence=list(pci.link_lines),
    )


def _link(nic: Nic, device: Device) -> None:
    link = device.value("link")
    nic.link_detected = link if isinstance(link, bool) else None
    speed = device.value("link_speed_mbps")
    nic.linked_at_mbps = speed if isinstance(speed, int) else None
    if link is False:
        return  # a speed from before the link went down is not the link's speed now
    nic.link_speed_mbps = device.value("link_speed_mbps")
    partner = device.value("partner_max_mbps")
    nic.partner_max_mbps = partner if isinstance(partner, int) else None
    duplex = device.value("duplex")
    nic.duplex = str(duplex).lower() if duplex else None
    if nic.link_detected is None and nic.link_speed_mbps:
        nic.link_detected = True


def _set_down(name: str | None, parsed: Parsed) -> bool:
    """Whether the interface's flags (ip link, ip addr, ifconfig, sysfs) show it was not
    brought up."""
    netif = parsed.netifs.get(name) if name else None
    if netif is not None and bool(netif.flags):
        return "UP" not in netif.flags
    return name is not None and sysfs_not_up(parsed.sysfs.get(f"/sys/class/net/{name}/flags"))


def _evidence(device: Device) -> list[str]:
    lines: list[str] = []
    named = ("driver", "bus", "ids", "link", "usb_speed_mbps", "chip_text", "chip_by_function")
    # last: what shows no driver bound, where it is its own line (a sysfs link, lsusb's)
    for name in (*named, "chip_by_revision", "probed_by", "driver_none"):
        fact = device.best(name)
        if fact is not None and f"{fact.source}: {fact.line}" not in lines:
            lines.append(f"{fact.source}: {fact.line}")
    return lines


def _driver(device: Device) -> str | None:
    driver = device.value("net_driver") or device.value("driver")  # a modem's, not its disk's
    if driver and _probe_failed_last(device, driver):
        return None  # it spoke of the device, then its probe failed: nothing is bound
    if driver and _bound_before_it_left(device):
        return None  # usb-storage bound the "driver CD" that left; the Wi-Fi came back
    return driver  # type: ignore[no-any-return]


def _bus_path(device: Device, bus: str) -> str | None:
    if bus in ("pci", "usb"):
        return device.newest_key(bus)
    if bus == "sdio":
        return device.value("sdio_function")  # type: ignore[no-any-return]
    if bus == "platform" and (name := device.value("platform_name")):
        return str(name)  # "16030000.ethernet": two MACs of one driver told apart
    return spi_device(device)  # "spi0.0": an SPI NIC, on no bus contract 2 names


def _chip(
    nic: Nic, device: Device, catalog: Catalog, ids: IdDatabase, own: OwnUsbNic | None
) -> tuple[Chip | None, str | None]:
    """Sets the chip's name (and family when nothing names it); returns the catalog's chip and
    why an out-of-tree driver's chip is named."""
    nic.chip, chip = chip_of(device, nic.bus, nic.driver, catalog, ids)
    if own is not None and (nic.chip is None or (chip is not None and nic.chip == chip.name)):
        # the Pi's own LAN951x or LAN7515, by its place below the SoC's USB: more than the
        # driver's family ("LAN7800/LAN7515"), less than a line that names the chip
        nic.chip, chip = own.name, own.chip
    nic.chip, oot = (nic.chip, None) if nic.chip else chip_otherwise(nic, device, catalog)
    # atlantic: lspci's "(rev 01)" is the A0 silicon the driver binds (hw_atl_boards), whose
    # limits differ from the B0's; the tweaks read them by this name (driver_caps "(A0)")
    rev = silicon(nic.ids, device.value("pci_revision")) if nic.bus == "pci" else None
    nic.chip = (
        f"{nic.chip} ({rev})" if nic.chip and rev and f"({rev})" not in nic.chip else nic.chip
    )
    # ixgbe: its family, only when neither a chip nor the IDs say which chip it is
    nic.chip_family = None if nic.chip or nic.ids else family_sentence(nic.driver)
    return chip, oot


def _counters(nic: Nic, device: Device) -> None:
    phy = device.value("phy")
    nic.phy = str(phy) if phy else None
    counters = device.value("counters")
    nic.counters = dict(counters) if isinstance(counters, dict) else {}
    stats = device.value("ethtool_stats")
    nic.ethtool_stats = dict(stats) if isinstance(stats, dict) else {}
    eee = device.value("eee")
    nic.eee = dict(eee) if isinstance(eee, dict) else None
    stamping = device.value("timestamping")
    nic.timestamping = dict(stamping) if isinstance(stamping, dict) else None


def _addresses(nic: Nic, device: Device) -> None:
    nic.mtu = device.value("mtu")
    addresses = device.value("addresses") or []
    nic.addresses = [f"{a.address}/{a.prefixlen}" if a.prefixlen else a.address for a in addresses]
    nic.irqs = sorted({int(f.value) for f in device.all("irqs")})
    nic.mac = device.key("mac")


def _unloaded(nic: Nic, device: Device, parsed: Parsed) -> str:
    """A PCI/USB NIC with no driver: whether none is (the module not loaded: the line that
    says so) or it is not known."""
    if nic.driver or nic.bus not in ("pci", "usb"):
        return ""
    unloaded = drivers_not_loaded(nic.bus, nic.ids, parsed.modules)  # lsmod without ath9k_htc
    nic.driver_state = "none" if unloaded or _no_driver(device, parsed) else "unknown"
    return unloaded


def nic_from_device(
    device: Device, parsed: Parsed, catalog: Catalog, ids: IdDatabase, board: Board
) -> Nic:
    bus = bus_of(device)
    nic = Nic(name=_name(device), bus=bus)  # type: ignore[arg-type]
    # no line names the driver: the one that asked for the device's firmware is it
    nic.driver = _driver(device) or firmware_requester(device, bus)
    nic.ids = device.value("ids")
    nic.bus_path = _bus_path(device, bus)
    speed = device.value("usb_speed_mbps")
    nic.usb_speed_mbps = int(speed) if bus == "usb" and speed and speed >= 12 else None
    floor = device.best("usb_speed_mbps")
    nic.usb_speed_at_least = bool(nic.usb_speed_mbps and floor and floor.source == "lsusb bus")
    own = pi_own_usb_nic(nic, parsed, catalog)
    chip, oot = _chip(nic, device, catalog, ids, own)
    _counters(nic, device)
    nic.catalog_id = chip.id if chip else None
    nic.pcie = _pcie(device) if bus == "pci" else None
    nic.driver_version = device.value("driver_version")
    nic.firmware = device.value("firmware")
    _link(nic, device)
    nic.set_down = _set_down(nic.name, parsed)
    nic.max_link_speed_mbps = (
        device.value("max_link_speed_mbps")
        or (chip.line_rate_mbps if chip else None)
        or device.value("capacity_mbps")  # lshw's floor (lshw_sightings.py)
    )
    _addresses(nic, device)
    nic.wireless = is_wireless(nic, device, bus)
    unloaded = _unloaded(nic, device, parsed)
    nic.evidence = _evidence(device) + ([oot] if oot else [])
    if unloaded:  # second: a no-driver finding quotes the first two
        nic.evidence.insert(1, unloaded)
    log_of(nic, device)
    no_link_state_unshown(nic, device, parsed)
    nic.usb_version = device.value("usb_version")
    product = device.value("usb_product") if bus == "usb" else None
    nic.usb_product = str(product)[:200] if product else None
    _queues(nic, parsed)
    set_switch_port(nic, device)
    nic.builtin = own is not None or is_builtin(nic, board, catalog)
    return nic


def _no_driver(device: Device, parsed: Parsed) -> bool:
    """A source shows no driver (a sysfs device without a driver link, lspci -k without a
    driver line); or a whole kernel log (from boot, or grepped by the device's own address
    from its enumeration on) enumerates the device and no driver ever speaks of it. An
    excerpt that starts mid-log cannot say (a first clock past 0.000000: dmesg_wrappers)."""
    if device.has("driver_none"):
        return True
    log = parsed.dmesg
    if log is None or log.elided:
        return False
    facts = device.facts[:1000]
    if not log.starts_mid_log:
        return any(f.source == "dmesg" for f in facts)
    grepped = device.key("pci") in parsed.dmesg_greps
    return grepped and any(f.source == "dmesg" and f.field == "pci_class" for f in facts)


def _queues(nic: Nic, parsed: Parsed) -> None:
    if not nic.name:
        return
    prefix = f"/sys/class/net/{nic.name}/queues/"
    queues = [p for p in parsed.sysfs if p.startswith(prefix)]
    nic.rx_queues = len({p.split("/")[6] for p in queues if "/rx-" in p}) or None
    nic.tx_queues = len({p.split("/")[6] for p in queues if "/tx-" in p}) or None


def is_builtin(nic: Nic, board: Board, catalog: Catalog) -> bool:
    if nic.wireless:
        radio = nic.driver == "brcmfmac" or nic.bus in ("sdio", "platform")  # the SoC's own
        radio = radio or chipset_wifi(nic.bus, nic.ids)  # a PCH's CNVi function
        if nic.bus == "platform" and vendor_driver(nic.bus_path) is not None:
            return False  # "nrc80211": a platform device an out-of-tree module added, no id
        return radio or board_makers_mac(nic.mac)
    entry = catalog.board(board.catalog_id) if board.catalog_id else None
    builtin = entry.builtin_nic if entry is not None else None
    if builtin is not None and nic.driver and nic.driver == builtin.driver:
        return True
    own = catalog.soc_nic(board.soc) if entry is None else None  # a carrier board of a known SoC
    if own is not None and nic.driver and nic.driver == own.driver:
        return True
    chip = catalog.chip(nic.catalog_id) if nic.catalog_id else None
    if chip is not None and chip.builtin:
        return True  # e.g. SMSC LAN9514: only ever soldered onto a Pi
    if nic.bus == "pci" and onboard_name(nic.name):
        return True  # eno1: the firmware's on-board index (udev's dev_pci_onboard())
    # A MAC from the Raspberry Pi OUIs: the board's own NIC.
    return nic.bus == "platform" or board_makers_mac(nic.mac)
