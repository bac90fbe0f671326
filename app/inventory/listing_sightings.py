"""What each listing says about devices, as ``Sighting``s: the buses' (lspci, lsusb, lsusb -t),
the interfaces' (sysfs, ethtool -i/-S, ip/ifconfig, /proc/interrupts) and the interface names'
own (``enx<MAC>``, PCI path names). The kernel log's are in ``sbctune.inventory.log_sightings``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator

from sbctune.catalog.ids import load_ids
from sbctune.catalog.vendor_drivers import drvinfo_module
from sbctune.inventory.bond_sightings import from_bonds
from sbctune.inventory.ids_ties import ids_ties
from sbctune.inventory.ifnames import bus_from_name, pci_address_from_name
from sbctune.inventory.interrupt_sightings import from_interrupts
from sbctune.inventory.of_sightings import from_of_devices
from sbctune.inventory.parsers.lspci import PciDevice
from sbctune.inventory.parsers.netif_model import NetInterface
from sbctune.inventory.pci_driver_links import pci_driver_sightings
from sbctune.inventory.raw import Parsed
from sbctune.inventory.sightings import (
    Sighting,
    device_keys,
    iface_key,
    mac_from_name,
)
from sbctune.inventory.switch_ports import ELSEWHERE, conduit_of
from sbctune.inventory.trace_watch import tie_listed_traces
from sbctune.inventory.usb_listing_sightings import from_lsusb, from_lsusb_tree
from sbctune.inventory.usb_replug_ties import replugged_usb_ties
from sbctune.inventory.usbnet_info import usbnet_description

_MAC = re.compile(r"^[0-9a-f]{2}(?::[0-9a-f]{2}){5}$")


def from_lspci(parsed: Parsed) -> Iterator[Sighting]:
    drivers_shown = parsed.pci_drivers_shown
    for device in parsed.pci:
        address = device.address
        if address is None:
            continue
        sighting = Sighting([("pci", address)])
        line = f"{device.slot} {device.class_name or ''}: {device.description or ''}".strip()
        if not device.class_name:  # lspci -t prints no class: the slot and the name, as shown
            line = f"{device.slot} {device.description or ''}".strip()
        sighting.add("bus", "pci", "lspci", line)
        # an old pci.ids: "Intel Corporation Device 125c" is 8086:125c (vendor by its name)
        # lspci without -nn: pci.ids' own names read back ("... MT27500 Family [ConnectX-3]")
        db = load_ids()
        ids = (
            device.ids
            or db.ids_by_name("pci", device.description)
            or db.ids_by_names("pci", device.description)
        )
        sighting.add("ids", ids, "lspci", line)
        sighting.add("description", device.description, "lspci", line)
        sighting.add("device_name", device.device_name, "lspci", line)
        sighting.add("pci_class", device.class_id or device.class_name, "lspci", line)
        sighting.add("pci_revision", device.revision, "lspci", line)
        if device.driver:
            sighting.add("driver", device.driver, "lspci", f"Kernel driver in use: {device.driver}")
        elif drivers_shown and (device.decoding is False or not _truncated(device)):
            sighting.add("driver_none", True, "lspci", line)
        if device.lnksta_speed_gts or device.lnkcap_speed_gts:
            # a listing without LnkSta/LnkCap (plain lspci, -nn, a cut -vv block) does not
            # show the link: the kernel's bandwidth line, ranked below lspci, still can
            sighting.add("pcie", device, "lspci", line)
        if device.irq is not None:
            sighting.add("irq_hint", device.irq, "lspci", line)
        yield sighting


def _truncated(device: PciDevice) -> bool:
    """A block cut before "Kernel driver in use" (an -vvv paste that stops at the
    capabilities) cannot say there is no driver: a block that shows its capabilities or
    interrupt routing but not the driver line is treated as cut; so is a verbose block (-v's own
    lines) without kernel lines that the paste ends inside (nothing closed it: no next device, no
    blank line), as an excerpt cut after its Region or MSI lines. A -k block has no blank line
    after it: the last one is whole."""
    if device.lnkcap_speed_gts or device.lnksta_speed_gts or device.capabilities_denied:
        return True
    return device.verbose_lines > 0 and not device.closed and not device.modules


def from_sysfs(parsed: Parsed) -> Iterator[Sighting]:
    for name, (device, driver) in parsed.links.items():
        key = iface_key(name)
        if key is None:
            continue
        sighting = Sighting([key])
        line = f"/sys/class/net/{name}/device -> {device}"
        sighting.add("driver", driver or None, "sysfs", f"{line} (driver {driver})")
        if "/usb" in device:
            paths = re.findall(r"/(\d+-[\d.]+)(?::\d+\.\d+)?(?=/|$)", device)
            if paths:
                sighting.keys.append(("usb", paths[-1]))
            sighting.add("bus", "usb", "sysfs", line)
        elif "/mmc_host/" in device:  # an SDIO card behind its host, on a PCI one too (sdhci-pci)
            sighting.add("bus", "sdio", "sysfs", line)
        elif found := re.findall(r"([0-9a-f]{4,8}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7])", device):
            sighting.keys.append(("pci", found[-1]))
            sighting.add("bus", "pci", "sysfs", line)
        elif "/mmc" in device:
            sighting.add("bus", "sdio", "sysfs", line)
        elif device:
            leaf = device.rstrip("/").rsplit("/", 1)[-1]
            sighting.keys.append(("platform", leaf.split(".")[0]))
            sighting.add("bus", "platform", "sysfs", line)
        yield sighting
    yield from pci_driver_sightings(parsed.sysfs)  # each PCI function's driver link, or none
    yield from _sysfs_files(parsed)


def _sysfs_files(parsed: Parsed) -> Iterator[Sighting]:
    by_iface: dict[str, dict[str, str]] = {}
    for path, value in parsed.sysfs.items():
        if match := re.match(r"^/sys/class/net/([^/]+)/(\w+)$", path):
            by_iface.setdefault(match.group(1), {})[match.group(2)] = value.strip()
    for path, value in parsed.sysfs.items():
        if match := re.match(r"^/sys/class/net/([^/]+)/statistics/(\w+)$", path):
            by_iface.setdefault(match.group(1), {})["statistics/" + match.group(2)] = value.strip()
    for name, attrs in by_iface.items():
        key = iface_key(name)
        if key is None:
            continue
        sighting = Sighting([key])
        counters = _sysfs_counters(attrs)
        if counters:
            text = " ".join(f"{k}={v}" for k, v in counters.items())
            sighting.add("counters", counters, "sysfs", f"/sys/class/net/{name}/statistics: {text}")
        speed = attrs.get("speed", "")
        # len: int() refuses over 4300 digits (ValueError), and no link is faster than 10**9.
        if (
            (speed.lstrip("-").isascii() and speed.lstrip("-").isdigit())
            and len(speed) <= 9
            and int(speed) > 0
        ):
            sighting.add("link_speed_mbps", int(speed), "sysfs", f"speed: {speed}")
        sighting.add("duplex", attrs.get("duplex") or None, "sysfs", "duplex")
        carrier = attrs.get("carrier")
        if carrier in ("0", "1"):
            sighting.add("link", carrier == "1", "sysfs", f"/sys/class/net/{name}/carrier")
        mtu = attrs.get("mtu", "")
        sighting.add("mtu", int(mtu) if (mtu.isascii() and mtu.isdigit()) else None, "sysfs", "mtu")
        yield sighting


def _sysfs_counters(attrs: dict[str, str]) -> dict[str, int]:
    """The interface's counters from /sys/class/net/IFACE/statistics, when its packets are
    there too (an error count means nothing without the traffic it was in)."""
    counters = {
        name: int(value)
        for name in _COUNTERS
        if (value := attrs.get("statistics/" + name, "")).isascii()
        and (value.isascii() and value.isdigit())
        and len(value) <= 20
    }
    return counters if "rx_packets" in counters and "tx_packets" in counters else {}


def from_ethtool(parsed: Parsed) -> Iterator[Sighting]:
    for name, info in parsed.ethtool_i.items():
        key = iface_key(name)
        if key is None and not (name == "" and device_keys(info.bus_info)):
            continue  # "": no interface named, only the device its bus-info names
        sighting = Sighting([key] if key else [])
        line = f"ethtool -i {name}: driver: {info.driver} bus-info: {info.bus_info}"
        # get_drvinfo's name, which an out-of-tree driver may number ("wl0": module wl)
        sighting.add("driver", drvinfo_module(info.driver) or info.driver, "ethtool -i", line)
        sighting.add("driver_version", info.version, "ethtool -i", line)
        if not usbnet_description(info.firmware_version):
            sighting.add("firmware", info.firmware_version, "ethtool -i", line)
        bus = info.bus_type
        found = device_keys(info.bus_info)
        if found is not None:
            sighting.keys.append(found[1])
        if found is not None and found[0] == "platform":  # "1f00100000.ethernet": its DT's name
            sighting.add("platform_name", str(info.bus_info).strip(), "ethtool -i", line)
        elif bus == "usb" and info.bus_info:
            sighting.add("usb_bus_info", info.bus_info, "ethtool -i", line)
        if bus != "unknown":
            sighting.add("bus", bus, "ethtool -i", line)
        yield sighting
    for name, settings in parsed.ethtool.items():
        key = iface_key(name)
        if key is None:
            continue
        sighting = Sighting([key])
        detected = settings.link_detected
        sighting.add("link", detected, "ethtool", f"Link detected: {'yes' if detected else 'no'}")
        if settings.speed_mbps:
            sighting.add(
                "link_speed_mbps",
                settings.speed_mbps,
                "ethtool",
                f"Speed: {settings.speed_mbps}Mb/s",
            )
        if settings.duplex and settings.duplex.lower() in ("full", "half"):
            sighting.add("duplex", settings.duplex.lower(), "ethtool", f"Duplex: {settings.duplex}")
        sighting.add(
            "max_link_speed_mbps", settings.max_supported_mbps, "ethtool", "Supported link modes"
        )
        if detected is not False:  # the partner's modes of this link (audit 22 row 6)
            partner = settings.max_partner_mbps
            sighting.add("partner_max_mbps", partner, "ethtool", "Link partner advertised modes")
        yield sighting
    yield from _ethtool_stats(parsed)
    yield from _ethtool_eee(parsed)
    yield from _ethtool_tsinfo(parsed)


MAX_KEPT_COUNTERS = 256  # the non-zero ones: a Pi's NIC has at most ~40; a server's queues more


def _ethtool_stats(parsed: Parsed) -> Iterator[Sighting]:
    """``ethtool -S``: the driver's non-zero counters (a zero is no evidence of anything)."""
    for name, stats in parsed.ethtool_s.items():
        key = iface_key(name)
        if key is None:
            continue
        kept: dict[str, int] = {}
        for counter in stats.counters:
            if counter.value and len(kept) < MAX_KEPT_COUNTERS:
                kept.setdefault(counter.name, counter.value)
        sighting = Sighting([key])
        sighting.add("ethtool_stats", kept, "ethtool", f"ethtool -S {name}: {len(kept)} non-zero")
        yield sighting


def _ethtool_eee(parsed: Parsed) -> Iterator[Sighting]:
    """``ethtool --show-eee``: EEE's state, where the output said it (an error says nothing)."""
    for name, eee in parsed.ethtool_eee.items():
        key = iface_key(name)
        if key is None or eee.supported is None:
            continue
        sighting = Sighting([key])
        sighting.add("eee", eee.as_dict(), "ethtool", f"ethtool --show-eee {name}")
        yield sighting


def _ethtool_tsinfo(parsed: Parsed) -> Iterator[Sighting]:
    """``ethtool -T``: what the NIC can timestamp (its driver's get_ts_info). The output names
    its interface, so the NIC exists though nothing else of the paste shows it."""
    for name, info in parsed.ethtool_t.items():
        key = iface_key(name)
        if key is None or not (info.phc_shown or info.capabilities):
            continue
        sighting = Sighting([key])
        phc = "none" if info.phc_index is None else info.phc_index
        said = f"ethtool -T {name}: PTP Hardware Clock: {phc}"
        sighting.add("timestamping", info.as_dict(), "ethtool", said)
        yield sighting


_COUNTERS = (
    "rx_packets", "rx_errors", "rx_dropped", "tx_packets", "tx_errors", "tx_dropped",
)  # fmt: skip


def from_netifs(parsed: Parsed) -> Iterator[Sighting]:
    # A MAC two interfaces of one listing share (a switch's ports, TI CPSW's two ports) says
    # nothing of which device is which: it joins nothing.
    macs = [(n.mac or "").lower() for n in parsed.netifs.interfaces]
    shared = {m for m in macs if macs.count(m) > 1}
    uppers = {n.master: n.name for n in parsed.netifs.interfaces if n.master}
    for netif in parsed.netifs.interfaces:
        key = iface_key(netif.name)
        kind = (netif.link_type or "ether").lower()
        if key is None or kind not in ("ether", "ethernet", "ieee802.11"):
            continue
        sighting = Sighting([key])
        line = f"{netif.name}: mtu {netif.mtu} state {netif.operstate or ''}".strip()
        _software_facts(sighting, netif, uppers.get(netif.name))
        if address := _altname_address(netif.altnames):
            sighting.keys.append(("pci", address))
            sighting.add("bus_hint", "pci", "ip", f"{netif.name}: altname of PCI {address}")
        mac = (netif.mac or "").lower()
        if _MAC.match(mac) and mac != "00:00:00:00:00:00" and mac not in shared:
            sighting.keys.append(("mac", mac))
        sighting.add("mtu", netif.mtu, "ip", line)
        if conduit := conduit_of(netif.name, netif.parent):  # lan1@eth0: a DSA port
            sighting.add("conduit", conduit, "ip", f"{netif.name}@{conduit}")
        sighting.add("addresses", netif.addresses, "ip", line)
        carrier = netif.has_carrier
        sighting.add("link", carrier, "ip", line)
        if carrier is False and "UP" in netif.flags:  # brought up, and no cable/partner answers
            flags = ",".join(netif.flags)[:120]
            sighting.add("no_carrier", True, "ip", f"{netif.name}: <{flags}> (up, no carrier)")
        sighting.add("seen", True, "ip", line)
        if netif.driver and netif.software is False:  # nmcli's "ethernet (bcmgenet), ..., hw"
            sighting.add("driver", netif.driver, "nmcli", f"{netif.name}: ({netif.driver}), hw")
        if kind == "ieee802.11":  # ip's link/ieee802.11, iwconfig, iw dev, nmcli's "wifi"
            sighting.add("wireless", True, "ip", f"{netif.name}: {kind}")
        if hint := bus_from_name(netif.name):
            sighting.add("bus_hint", hint, "ip", f"{netif.name}: the name's path ({hint})")
        elif alt := _altname_bus(netif.altnames):  # "eth0 ... altname end0": systemd's name
            hint, name = alt
            sighting.add("bus_hint", hint, "ip", f"{netif.name}: altname {name} ({hint})")
        sighting.add("irqs", netif.irq, "ip", f"{netif.name}: Interrupt:{netif.irq}")
        counters = {
            name: value
            for name in _COUNTERS
            if isinstance(value := getattr(netif, name), int) and value >= 0
        }
        if counters:  # ip -s link / ifconfig: errors and drops, and the traffic they were in
            text = " ".join(f"{k}={v}" for k, v in counters.items())
            sighting.add("counters", counters, "ip", f"{netif.name}: {text}")
        yield sighting


def _software_facts(sighting: Sighting, netif: NetInterface, lower: str | None) -> None:
    """What ip says of a software device (sbctune.inventory.nic_kind weighs it against what
    shows hardware). ``master X`` (IFLA_MASTER) names X an upper device: a bridge, bond, team,
    VRF, Open vSwitch or batman-adv, all software (netdev_master_upper_dev_link()'s callers).
    ``qdisc noqueue`` is the default qdisc of a device whose driver set IFF_NO_QUEUE or left
    tx_queue_len 0 (net/sched/sch_generic.c attach_one_default_qdisc(), net/core/dev.c
    alloc_netdev_mqs()): the drivers that do are software ones, except mac80211's Wi-Fi and
    DSA's switch ports (resources/kernel_source/no_queue_drivers.json). The software drivers
    make their MAC with eth_hw_addr_random() (br_dev_setup(), veth_setup(), vxlan_setup() ...):
    a locally administered one; a universal (OUI) MAC is a radio's or NIC's own, or one a port
    lent its bridge, so such a noqueue device (a Wi-Fi interface under a name of the user's,
    corpus/hiveap330_*'s labb2) is not weighed by its qdisc. A device stacked on
    another of the listing (``lan1@eth0``) may be a DSA port or a VLAN/macvlan, which noqueue
    does not tell apart: only a device with no lower one here (``@if5``: a peer in another
    namespace, ``@NONE``) is weighed by its qdisc."""
    if lower:
        sighting.add("software", "upper", "ip", f"{lower}: master {netif.name}")
    if netif.software:  # NetworkManager's nm_device_is_software(): "bridge, ..., sw, mtu 1500"
        sighting.add("software", "nmcli", "nmcli", f"{netif.name}: sw")
    stacked = netif.parent is not None and not ELSEWHERE.match(netif.parent)
    if (netif.qdisc or "").lower() == "noqueue" and not stacked and _random_mac(netif.mac):
        sighting.add("software", "noqueue", "ip", f"{netif.name}: qdisc noqueue")


def _random_mac(mac: str | None) -> bool:
    """No MAC shown, or a locally administered one (bit 1 of the first octet, IEEE 802)."""
    first = (mac or "").split(":")[0]
    if not re.fullmatch(r"[0-9a-fA-F]{2}", first):
        return mac is None or mac == ""
    return bool(int(first, 16) & 0x02)


def _altname_bus(altnames: list[str]) -> tuple[str, str] | None:
    """The bus systemd's name, kept as an altname beside a kernel name udev did not replace
    (``eth0`` with ``altname end0``), says, when the altnames say one bus: the name is the
    same net_id scheme's as an interface's own (ifnames.bus_from_name)."""
    said = {(bus, n) for n in altnames if (bus := bus_from_name(n))}
    return said.pop() if len({bus for bus, _ in said}) == 1 and len(said) == 1 else None


def _altname_address(altnames: list[str]) -> str | None:
    """The PCI address an altname spells (systemd's path name kept as an alternative name,
    ``altname enp0s31f6`` → 0000:00:1f.6), when the altnames spell exactly one."""
    found = {a for n in altnames if (a := pci_address_from_name(n))}
    return found.pop() if len(found) == 1 else None


def from_mac_names(names: list[str]) -> Iterator[Sighting]:
    """What a name itself says: ``enx<MAC>`` its MAC, a PCI path name (``enP1p44s0f3``) its
    device's PCI address, unless another name shows that function has several ports or
    another name spells the same address (``enp2s0`` and ``wlp2s0``: two logs, or a card
    changed; which is which is not said)."""
    ports = (re.match(r"^(.*p\d+s\d+(?:f\d)?)[dn]\w+$", n) for n in names)
    multi = {m.group(1) for m in ports if m}
    spelled = {n: pci_address_from_name(n) for n in names if n not in multi}
    taken = Counter(a for a in spelled.values() if a)
    for name in names:
        key = iface_key(name)
        if key is None:
            continue
        if mac := mac_from_name(name):
            yield Sighting([key, ("mac", mac)])
        elif (address := spelled.get(name)) and taken[address] == 1:
            yield Sighting([key, ("pci", address)])


def all_sightings(parsed: Parsed, dmesg: list[Sighting]) -> list[Sighting]:
    found: list[Sighting] = []
    for source in (
        from_lspci,
        from_lsusb,
        from_lsusb_tree,
        from_sysfs,
        from_ethtool,
        from_netifs,
        from_interrupts,
        from_of_devices,
        from_bonds,
    ):
        found += list(source(parsed))
    found += dmesg
    found += tie_listed_traces(found)  # a trace's driver and the one device its IDs list
    names = [k[1] for s in found for k in s.keys if k[0] == "if"]
    found += list(from_mac_names(sorted(set(names))))
    found += ids_ties(found)  # bcmdhd's GET_REVINFO IDs beside lspci's device with them
    found += replugged_usb_ties(found)  # lsusb's Device 004, the log's "number 3", one stick
    return found
