"""From parsed outputs to the Inventory: the board, and every NIC with its chip, driver, bus,
bus speed, link and IRQs.

Each interface is mapped to its device through sysfs when present; else `ethtool -i`
bus-info; else the kernel log's registration lines; else its driver against `lsusb -t` /
`lspci -k`. PCI Ethernet controllers with no driver bound become NIC entries with
`driver: None`. The evidence list of each NIC says which of these identified it.
"""

from __future__ import annotations

import re

from sbctune.catalog import Catalog, Chip, load_catalog
from sbctune.inventory.model import Board, Inventory, Nic, Pcie, Throttled
from sbctune.inventory.parsers.lspci import PciDevice
from sbctune.inventory.parsers.lsusb import UsbTreeNode
from sbctune.inventory.raw import Parsed

_VIRTUAL = re.compile(
    r"^(lo|docker\d*|veth.*|br-.*|virbr.*|tun\d*|tap.*|wg\d*|dummy\d*|ifb\d*|"
    r"bond\d*|team\d*|vxlan.*|sit\d*|ip6tnl\d*|tailscale\d*|zt.*)$"
)
_WIRELESS_DRIVERS = {
    "brcmfmac",
    "rtl8xxxu",
    "mt7601u",
    "ath9k_htc",
    "rt2800usb",
    "iwlwifi",
    "mt76x2u",
    "rtw88_8822bu",
    "8188eu",
    "88x2bu",
    "ath10k_pci",
    "mt7921e",
}
_USB_PATH = re.compile(r"/(\d+-[\d.]+)(?::\d+\.\d+)?(?:/|$)")
_PCI_ADDR = re.compile(r"([0-9a-f]{4,8}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7])")


def _board(parsed: Parsed, catalog: Catalog) -> Board:
    board = Board()
    cpuinfo = parsed.cpuinfo
    board.model = parsed.model or (cpuinfo.model if cpuinfo else None)
    entry = catalog.board_by_model(board.model) if board.model else None
    if entry is None and cpuinfo and cpuinfo.revision:
        entry = catalog.board_by_revision(cpuinfo.revision)
    if entry is not None:
        board.catalog_id = entry.id
        board.soc = entry.soc
        board.model = board.model or entry.name
    elif cpuinfo and cpuinfo.hardware:
        board.soc = cpuinfo.hardware
    if parsed.uname:
        board.kernel = parsed.uname.kernel_release
    if parsed.os_release:
        board.os = parsed.os_release.pretty_name
    if cpuinfo and cpuinfo.cores:
        board.cpu_cores = cpuinfo.cores
    elif entry is not None:
        board.cpu_cores = entry.cores
    elif parsed.interrupts is not None and parsed.interrupts.cpus:
        board.cpu_cores = parsed.interrupts.cpus  # the CPU columns of /proc/interrupts
    t = parsed.throttled
    if t is not None and t.raw is not None:
        board.throttled = Throttled(
            raw=hex(t.raw),
            under_voltage=bool(t.under_voltage_now),
            frequency_capped=bool(t.arm_freq_capped_now),
            throttled=bool(t.throttled_now),
            soft_temp_limit=bool(t.soft_temp_limit_now),
            under_voltage_occurred=bool(t.under_voltage_occurred),
            frequency_capped_occurred=bool(t.arm_freq_capped_occurred),
            throttled_occurred=bool(t.throttled_occurred),
            soft_temp_limit_occurred=bool(t.soft_temp_limit_occurred),
        )
    if parsed.temperature is not None:
        board.temperature_c = parsed.temperature.celsius
    if parsed.clock is not None:
        board.arm_clock_hz = parsed.clock.hz
    governors = {
        path: value.strip()
        for path, value in parsed.sysfs.items()
        if path.endswith("/cpufreq/scaling_governor")
    }
    board.cpu_governors = [governors[p] for p in sorted(governors)]
    return board


def _interface_names(parsed: Parsed) -> list[str]:
    names: list[str] = []

    def add(name: str | None) -> None:
        if name and name not in names and not _VIRTUAL.match(name):
            names.append(name)

    for name, (device, _driver) in parsed.links.items():
        if device or not _VIRTUAL.match(name):
            add(name)
    for netif in parsed.netifs.interfaces:
        if netif.link_type in (None, "ether", "ieee802.11"):
            add(netif.name)
    for name in (*parsed.ethtool, *parsed.ethtool_i):
        add(name)
    for path in parsed.sysfs:
        if match := re.match(r"^/sys/class/net/([^/]+)/", path):
            add(match.group(1))
    if parsed.dmesg is not None:
        for name in parsed.dmesg.nics():
            add(name)
    return sorted(names, key=_natural)


def _natural(name: str) -> tuple[str, int]:
    match = re.match(r"^(\D*)(\d*)", name)
    prefix, number = (match.group(1), match.group(2)) if match else (name, "")
    return prefix, int(number) if number else -1


def _usb_node(parsed: Parsed, path: str | None, driver: str | None) -> UsbTreeNode | None:
    tree = parsed.usb_tree
    if tree is None:
        return None
    if path:
        for node in tree.nodes:
            if not node.is_root_hub and node.sysfs_name == path:
                return node
    if driver:
        matches = tree.by_driver(driver)
        if len({n.sysfs_name for n in matches}) == 1:
            return matches[0]
    return None


def _pci_device(parsed: Parsed, address: str | None, driver: str | None) -> PciDevice | None:
    if address:
        for device in parsed.pci:
            if device.address == address or device.slot == address:
                return device
    if driver:
        matches = [d for d in parsed.pci if d.driver == driver and d.is_network]
        if len(matches) == 1:
            return matches[0]
    return None


def _chip_for(
    catalog: Catalog, ids: str | None, bus: str, driver: str | None, description: str | None
) -> Chip | None:
    chip: Chip | None = None
    if ids:
        chip = catalog.chip_by_usb_id(ids) if bus == "usb" else catalog.chip_by_pci_id(ids)
    if chip is None and description:
        # Model numbers in names: "AX88179", "RTL8153A" (from firmware names), "82580".
        for word in re.findall(r"\b[A-Z]*[0-9]{3,}[A-Z0-9]*\b", description.upper()):
            chip = catalog.find_chip(word)
            if chip is not None:
                break
    if chip is None and driver:
        candidates = [c for c in catalog.chips_by_driver(driver) if c.kind == "nic"]
        if len(candidates) == 1:
            chip = candidates[0]
    return chip


def _irqs_for(parsed: Parsed, nic: Nic) -> list[int]:
    interrupts = parsed.interrupts
    if interrupts is None:
        return []
    found: list[int] = []
    for irq in interrupts.irqs:
        if irq.number is None:
            continue
        names = [n.rstrip(",") for n in irq.names]
        own = nic.name and any(n == nic.name or n.startswith(nic.name + "-") for n in names)
        by_driver = nic.driver and nic.driver in names
        by_bus = nic.bus == "usb" and any(n in ("xhci_hcd", "dwc_otg", "dwc2") for n in names)
        if own or by_driver or by_bus:
            found.append(irq.number)
    return found


def _fill_from_usb(nic: Nic, node: UsbTreeNode, parsed: Parsed) -> None:
    nic.bus = "usb"
    nic.bus_path = node.sysfs_name
    nic.usb_speed_mbps = int(node.speed_mbps) if node.speed_mbps else None
    nic.driver = nic.driver or node.driver
    nic.ids = nic.ids or node.ids
    if nic.ids is None:
        vendor = parsed.sys_value(f"/sys/bus/usb/devices/{node.sysfs_name}/idVendor")
        product = parsed.sys_value(f"/sys/bus/usb/devices/{node.sysfs_name}/idProduct")
        if vendor and product:
            nic.ids = f"{vendor}:{product}"
    if nic.ids is None and parsed.lsusb is not None:
        same = [d for d in parsed.lsusb.devices if d.bus == node.bus and d.device == node.device]
        if same:
            nic.ids = same[0].ids
    nic.evidence.append(
        f"lsusb -t: Bus {node.bus} Port {node.port_path} Dev {node.device} "
        f"Driver={node.driver} {node.speed_mbps:g}M"
    )


def _fill_from_pci(nic: Nic, device: PciDevice) -> None:
    nic.bus = "pci"
    nic.bus_path = device.address
    nic.ids = nic.ids or device.ids
    nic.driver = nic.driver or device.driver
    if device.lnksta_speed_gts or device.lnkcap_speed_gts:
        nic.pcie = Pcie(
            speed_gts=device.lnksta_speed_gts,
            width=device.lnksta_width,
            max_speed_gts=device.lnkcap_speed_gts,
            max_width=device.lnkcap_width,
            downgraded=bool(device.link_degraded),
            max_payload=device.devctl_max_payload,
            max_read_request=device.devctl_max_read_req,
        )
    nic.evidence.append(f"lspci: {device.slot} {device.class_name}: {device.description}")


def _locate(parsed: Parsed, name: str) -> tuple[str, str | None, str | None, str]:
    """(bus, bus path, driver, how) for an interface, from the best source available."""
    device, driver = parsed.links.get(name, ("", ""))
    if device:
        if "/usb" in device:
            usb = _USB_PATH.findall(device)
            return "usb", usb[-1] if usb else None, driver or None, "sysfs device link"
        pci = _PCI_ADDR.findall(device)
        if pci:
            return "pci", pci[-1], driver or None, "sysfs device link"
        if "/mmc" in device:
            return "sdio", None, driver or None, "sysfs device link"
        return "platform", device.rsplit("/", 1)[-1], driver or None, "sysfs device link"
    info = parsed.ethtool_i.get(name)
    if info is not None and info.bus_info and info.driver:
        kind = info.bus_type
        path: str | None = info.bus_info
        if kind == "usb":
            direct = re.match(r"^(\d+-[\d.]+)", info.bus_info)
            path = direct.group(1) if direct else _usb_path_from_bus_info(info.bus_info, parsed)
        return kind, path, info.driver, "ethtool -i bus-info"
    if parsed.dmesg is not None:
        logged = parsed.dmesg.nics().get(name)
        if logged is not None and (logged.device or logged.driver):
            path = logged.device
            if logged.bus == "usb" and path:
                path = path.split(":")[0]
            return logged.bus, path, logged.driver, "kernel log registration line"
    if info is not None and info.driver:
        return info.bus_type, None, info.driver, "ethtool -i driver"
    return "unknown", None, None, ""


def _usb_path_from_bus_info(bus_info: str, parsed: Parsed) -> str | None:
    """`usb-0000:01:00.0-2` (the controller, then the port path) → `2-2` via lsusb -t."""
    match = re.match(r"^usb-.+?-([\d.]+)$", bus_info)
    if not match or parsed.usb_tree is None:
        return None
    ports = match.group(1)
    candidates = [n for n in parsed.usb_tree.nodes if not n.is_root_hub and n.port_path == ports]
    buses = {n.bus for n in candidates}
    if len(buses) == 1:
        return f"{buses.pop()}-{ports}"
    return None


def _nic_for_interface(parsed: Parsed, catalog: Catalog, name: str, board: Board) -> Nic:
    nic = Nic(name=name)
    bus, path, driver, how = _locate(parsed, name)
    nic.driver = driver
    if how:
        nic.evidence.append(f"located by {how}")
    logged = parsed.dmesg.nics().get(name) if parsed.dmesg is not None else None
    if bus == "usb" or (bus == "unknown" and driver and parsed.usb_tree is not None):
        node = _usb_node(parsed, path, driver)
        if node is not None:
            _fill_from_usb(nic, node, parsed)
        elif bus == "usb":
            nic.bus, nic.bus_path = "usb", path
    if nic.bus == "unknown" and (bus == "pci" or (bus == "unknown" and driver)):
        device = _pci_device(parsed, path, driver)
        if device is not None:
            _fill_from_pci(nic, device)
        elif bus == "pci":
            nic.bus, nic.bus_path = "pci", path
    if nic.bus == "unknown" and bus in ("platform", "sdio"):
        nic.bus, nic.bus_path = bus, path  # type: ignore[assignment]
    if nic.bus == "usb" and nic.usb_speed_mbps is None and nic.bus_path:
        speed = parsed.sys_value(f"/sys/bus/usb/devices/{nic.bus_path}/speed")
        if speed:
            nic.usb_speed_mbps = int(float(speed))

    info = parsed.ethtool_i.get(name)
    if info is not None:
        nic.driver_version = info.version
        nic.firmware = info.firmware_version
    if logged is not None:
        nic.driver_version = nic.driver_version or logged.driver_version
        nic.firmware = nic.firmware or logged.firmware
        if logged.description:
            nic.evidence.append(f"kernel log: {logged.description}")

    hints = " ".join(filter(None, [logged.description, logged.firmware] if logged else []))
    chip = _chip_for(catalog, nic.ids, nic.bus, nic.driver, hints or None)
    if chip is not None:
        nic.chip = chip.name
        nic.catalog_id = chip.id
        if nic.bus == "unknown" and chip.bus in ("usb", "pci", "platform"):
            nic.bus = chip.bus  # type: ignore[assignment]
    elif logged is not None and logged.description:
        nic.chip = logged.description

    settings = parsed.ethtool.get(name)
    if settings is not None:
        nic.link_speed_mbps = settings.speed_mbps
        nic.duplex = settings.duplex.lower() if settings.duplex else None
        nic.link_detected = settings.link_detected
        nic.max_link_speed_mbps = settings.max_supported_mbps
    if nic.link_speed_mbps is None:
        speed = parsed.sys_value(f"/sys/class/net/{name}/speed")
        if speed and speed.lstrip("-").isdigit() and int(speed) > 0:
            nic.link_speed_mbps = int(speed)
            nic.duplex = nic.duplex or parsed.sys_value(f"/sys/class/net/{name}/duplex")
    if nic.link_speed_mbps is None and logged is not None and logged.link_speed_mbps:
        nic.link_speed_mbps = logged.link_speed_mbps
        nic.duplex = nic.duplex or (logged.duplex.lower() if logged.duplex else None)
    if nic.max_link_speed_mbps is None and chip is not None:
        nic.max_link_speed_mbps = chip.line_rate_mbps

    netif = parsed.netifs.get(name)
    if netif is not None:
        nic.mtu = netif.mtu
        nic.addresses = [
            f"{a.address}/{a.prefixlen}" if a.prefixlen else a.address for a in netif.addresses
        ]
        if nic.link_detected is None:
            nic.link_detected = netif.has_carrier
    if nic.mtu is None and (mtu := parsed.sys_value(f"/sys/class/net/{name}/mtu")):
        nic.mtu = int(mtu) if mtu.isdigit() else None
    queues = [p for p in parsed.sysfs if p.startswith(f"/sys/class/net/{name}/queues/")]
    rx = {p.split("/")[6] for p in queues if "/rx-" in p}
    tx = {p.split("/")[6] for p in queues if "/tx-" in p}
    nic.rx_queues = len(rx) or None
    nic.tx_queues = len(tx) or None

    nic.wireless = name.startswith(("wlan", "wlp", "wlx")) or nic.driver in _WIRELESS_DRIVERS
    nic.builtin = _is_builtin(nic, board, catalog)
    nic.irqs = _irqs_for(parsed, nic)
    return nic


def _is_builtin(nic: Nic, board: Board, catalog: Catalog) -> bool:
    if nic.wireless:
        return nic.driver == "brcmfmac"
    entry = catalog.board(board.catalog_id) if board.catalog_id else None
    if entry is not None and entry.builtin_nic is not None:
        return nic.driver == entry.builtin_nic.driver
    chip = catalog.chip(nic.catalog_id) if nic.catalog_id else None
    if chip is not None:
        return chip.builtin  # e.g. SMSC LAN9514: only ever soldered onto a Pi
    return nic.bus == "platform"


def _unbound_pci_nics(parsed: Parsed, catalog: Catalog, taken: set[str]) -> list[Nic]:
    """Ethernet controllers on PCI with no interface: usually no driver is bound."""
    nics = []
    for device in parsed.pci:
        if not device.is_network or (device.address and device.address in taken):
            continue
        chip = catalog.chip_by_pci_id(device.ids) if device.ids else None
        if chip is None:
            chip = _chip_for(catalog, None, "pci", None, device.description)
        if chip is not None and chip.kind != "nic":
            continue  # e.g. the Pi 5's RP1: the path to the built-in NIC, not a NIC of its own
        nic = Nic(name=None)
        _fill_from_pci(nic, device)
        nic.driver = device.driver
        if chip is not None:
            nic.chip, nic.catalog_id = chip.name, chip.id
        else:
            nic.chip = device.device_name or device.description
        nic.driver_state = _driver_state(parsed, device)
        nic.evidence.append(
            "no network interface for this device"
            + {"none": ": no driver bound", "unknown": ""}.get(nic.driver_state or "", "")
        )
        nics.append(nic)
    return nics


def _driver_state(parsed: Parsed, device: PciDevice) -> str | None:
    """Whether a PCI NIC without an interface has no driver, or the outputs just do not say."""
    if device.driver:
        return None
    if parsed.pci_drivers_shown:
        return "none"  # lspci -k/-v prints "Kernel driver in use" for every bound device
    if parsed.dmesg is not None and device.address:
        slot = device.address.split(":", 1)[1]
        bound = re.compile(rf"^\s*(\[[^]]*\]\s*)?(?!pci )\w+ [0-9a-f:]*{re.escape(slot)}", re.M)
        if not bound.search(parsed.dmesg_text):
            return "none"  # the kernel log names the device, but no driver ever spoke of it
    return "unknown"


def _unnamed_usb_nics(parsed: Parsed, catalog: Catalog, taken: set[str]) -> list[Nic]:
    """USB network adapters seen in `lsusb -t` that no interface was matched to."""
    if parsed.usb_tree is None:
        return []
    nics = []
    seen: set[str] = set()
    for node in parsed.usb_tree.nodes:
        if node.is_root_hub or not node.driver or node.sysfs_name in taken | seen:
            continue
        chips = [c for c in catalog.chips_by_driver(node.driver) if c.kind == "nic"]
        if not chips:
            continue
        seen.add(node.sysfs_name)
        nic = Nic(name=None)
        _fill_from_usb(nic, node, parsed)
        chip = _chip_for(catalog, nic.ids, "usb", node.driver, None)
        if chip is not None:
            nic.chip, nic.catalog_id = chip.name, chip.id
            nic.max_link_speed_mbps = chip.line_rate_mbps
        nic.evidence.append("its interface name is not in the outputs")
        nics.append(nic)
    return nics


def build_inventory(parsed: Parsed, catalog: Catalog | None = None) -> Inventory:
    catalog = catalog or load_catalog()
    inventory = Inventory(warnings=list(parsed.warnings))
    inventory.board = _board(parsed, catalog)
    for name in _interface_names(parsed):
        nic = _nic_for_interface(parsed, catalog, name, inventory.board)
        inventory.nics.append(nic)
    taken = {n.bus_path for n in inventory.nics if n.bus_path}
    devices = _unbound_pci_nics(parsed, catalog, taken) + _unnamed_usb_nics(parsed, catalog, taken)
    _pair_by_elimination(inventory, devices, parsed, catalog)
    inventory.nics += devices
    return inventory


def _pair_by_elimination(
    inventory: Inventory, devices: list[Nic], parsed: Parsed, catalog: Catalog
) -> None:
    """One wired interface we could not place and one adapter with no interface: the same NIC.

    (A forum paste of `lsusb -t` and `ethtool eth0` from a Pi 1 B is the typical case.)
    """
    unplaced = [
        n
        for n in inventory.nics
        if n.bus == "unknown" and not n.wireless and n.name and n.name.startswith(("eth", "en"))
    ]
    bound = [d for d in devices if d.driver]
    if len(unplaced) != 1 or len(bound) != 1:
        return
    nic, device = unplaced[0], bound[0]
    devices.remove(device)
    nic.bus = device.bus
    for key in ("driver", "bus_path", "chip", "ids", "usb_speed_mbps", "pcie", "catalog_id"):
        setattr(nic, key, getattr(nic, key) or getattr(device, key))
    nic.evidence += [e for e in device.evidence if not e.startswith("its interface")]
    nic.evidence.append(f"{nic.name} is the only interface left for the {device.driver} device")
    if device.max_link_speed_mbps and not nic.max_link_speed_mbps:
        nic.max_link_speed_mbps = device.max_link_speed_mbps
    nic.builtin = _is_builtin(nic, inventory.board, catalog)
    nic.irqs = _irqs_for(parsed, nic)
