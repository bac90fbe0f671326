"""What the kernel log says about devices, as sightings (see ``sbctune.inventory.sightings``).

Each event line names its device the way the kernel does (PCI address, USB interface, platform
device, SDIO function) and often the interface; facts carry the line as evidence and its place,
so the newest line wins (a link that went down last is down). Cheap on a long log: the rules in
parsers/dmesg.py's docstring."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from sbctune.catalog.catalog import load_catalog
from sbctune.catalog.func_chips import chips_by_function
from sbctune.catalog.kernel_drivers import (
    chip_named_alone,
    firmware_dir_in,
    load_kernel_drivers,
)
from sbctune.catalog.netdev_info_formats import driver_by_words
from sbctune.catalog.of_node_formats import of_node_named
from sbctune.catalog.oot_chips import out_of_tree_chip
from sbctune.catalog.wiphy_chips import revision_chip
from sbctune.inventory.brcmfmac_bus import chip_of_id, firmware_bus
from sbctune.inventory.bus_elimination import buses_by_elimination
from sbctune.inventory.child_join import child_key, join_children
from sbctune.inventory.daemon_sightings import on_daemon_iface
from sbctune.inventory.driver_line_sightings import (
    lone_wifi_devices,
    on_driver_message,
    on_library_message,
    on_wiphy,
)
from sbctune.inventory.dsa_ports import dsa_port
from sbctune.inventory.ip_config import IpConfigWatch
from sbctune.inventory.log_complaints import (
    driver_on_its_device,
    driver_speaks_on_its_device,
    firmware_file,
    firmware_not_got,
    firmware_runs,
    ids_said,
    kernel_complaint,
)
from sbctune.inventory.old_format_sightings import lone_phy_link, on_old_format
from sbctune.inventory.parsers.dmesg import DmesgEvent, DmesgResult
from sbctune.inventory.pcie_aer import on_pcie_aer
from sbctune.inventory.pcie_bandwidth import on_pcie_bandwidth
from sbctune.inventory.sightings import Fact, Key, Sighting, device_keys, iface_key, usb_speed
from sbctune.inventory.trace_watch import KINDS as TRACE_KINDS
from sbctune.inventory.trace_watch import TraceWatch, tie_traces
from sbctune.inventory.usb_probe_watch import ProbeWatch
from sbctune.inventory.wiphy_join import WiphyWatch

_NAMED_BY_DRIVER = {"link_up", "link_down", "tx_timeout"}  # "r8125: eth0: link up"


def _driver_by_words(event: DmesgEvent, sighting: Sighting) -> None:
    known = driver_by_words(event.text)
    if known is None:
        return
    driver, message = known
    why = f"{event.text[:200]} (printed from {driver.name}'s format in {message.source})"
    sighting.add("driver", driver.name, _SRC, why, event.line)
    if len(driver.buses) == 1:
        sighting.add("bus", driver.buses[0], _SRC, why, event.line)


def _tag_is_driver(tag: str | None) -> bool:
    """A line with no device ("r8125: eth0: link up") names its driver by its tag alone, and so
    does a program's own message in the same shape ("ONIE: ni0: link down." of ONIE's network
    script, pasted with the kernel's lines): the tag is a driver only when a driver table knows
    it (the 6.1/6.12 kernels', the catalog's vendor drivers, an out-of-tree name of a chip)."""
    if not tag:
        return False
    return bool(
        load_kernel_drivers().get(tag)
        or load_catalog().chips_by_driver(tag)
        or out_of_tree_chip(tag)
    )


def _refused(text: str) -> bool:
    """The driver tried the device and gave up (a probe failure), so none is bound; a missing
    firmware file alone is not that (the driver may fall back to another file)."""
    probe = "probe" in text and "failed with error" in text
    return "Unknown version" in text or probe or "probe failed" in text


_NOT_DRIVERS = {"pci", "usb", "usbcore", "IPv6", "libphy", "systemd-udevd", "hwmon"}
_SRC = "dmesg"


def _base(event: DmesgEvent) -> Sighting | None:
    if port := dsa_port(event):
        return port  # "qca8k mdio.0:00 lan1: ...": a switch's port, not the MDIO bus's device
    keys: list[Key] = []
    bus = None
    found = device_keys(event.device)
    if found is not None:
        bus, key = found
        keys.append(key)
    elif child := child_key(event.driver, event.device):
        return Sighting([child])  # "mhi mhi0: ...": joined to its parent by join_children()
    elif (bus_id := event.fields.get("mdio")) and (child := child_key(bus_id[:-2], bus_id)):
        keys.append(child)  # "eth0: PHY ID ... (stmmac-0:00)": eth0 is stmmac-0's MAC's
    if key_if := iface_key(event.iface):
        keys.append(key_if)
    if not keys:
        return None
    driver = event.driver
    if bus == "sdio" and driver and driver not in _NOT_DRIVERS:
        keys.append(("wifi", driver))  # its lines without a device ("brcmfmac: ...") join it
    sighting = Sighting(keys)
    if event.fields.get("unnamed"):  # __netdev_printk() before register_netdev(): a NIC's line
        sighting.add("net_device", True, _SRC, event.text, event.line)
    if found is None and key_if is not None and (node := of_node_named(event.text)):
        # "eth0: EMAC-0 /plb/opb/ethernet@ef600c00" (%pOF): the OF core makes a node's device a
        # platform device (drivers/of/platform.c)
        sighting.add("bus", "platform", _SRC, event.text, event.line)
        sighting.add("of_node", node, _SRC, event.text, event.line)
    if found is None and key_if is not None and not event.driver:
        _driver_by_words(event, sighting)  # "eth0: Atheros AG71xx at ...": ag71xx's own words
    device = event.device or ""
    if bus == "sdio" and device.count(":") == 2:  # sdio_bus.c: "mmc1:0001:1", card and function
        sighting.add("sdio_function", device, _SRC, event.text, event.line)
    if bus == "platform":
        of_path = "@" in device.split(":")[0]  # "soc@ffe00000:ethernet@b0000" is one device
        name = device if of_path else device.split(":")[0]
        sighting.add("platform_name", name, _SRC, event.text, event.line)
        if ":" in device and not of_path:
            return sighting  # "8000000.ethernet:mdio@f00": a child (MDIO bus), another driver
    if _refused(event.text):
        sighting.add("driver_none", True, _SRC, event.text, event.line)
        sighting.add("refused_by", driver, _SRC, event.text, event.line)
        return sighting  # "r8152 1-10:2.0: Unknown version 0x7410": probed, not bound
    if (tried := driver_on_its_device(event.text, event.device)) is not None:
        sighting.add("refused_by", tried, _SRC, event.text, event.line)
        if wanted := firmware_not_got(event.text):  # the driver's own "Failed to get firmware"
            sighting.add("firmware_missing", event.text, _SRC, event.text, event.line)
            sighting.add("firmware_wanted", wanted, _SRC, event.text, event.line)
    speaks = None
    if bus == "usb" and tried is None and event.driver in (None, "usb"):
        # only a line on the whole USB device ("usb 1-1: ..."): a line a driver printed on its
        # interface ("smsc95xx 1-1.1:1.0: eth0: ...") already names its driver
        speaks = driver_speaks_on_its_device(event.text, event.device)
    if speaks is not None:
        driver = speaks  # "usb 1-1: rtl8xxxu: Loading firmware ...": rtl8xxxu's device
    named = (
        found is not None
        or speaks is not None
        or (
            event.kind in _NAMED_BY_DRIVER
            and key_if is not None
            and (event.kind == "tx_timeout" or _tag_is_driver(driver))
        )
    )  # dev_watchdog() prints the driver's own name (netdev_drivername(), sch_generic.c)
    if driver and driver not in _NOT_DRIVERS and named:
        sighting.add("driver", driver, _SRC, event.text, event.line)
        sighting.add("bus", bus, _SRC, event.text, event.line)
        if bus == "usb" and key_if is not None:
            # huawei_cdc_ncm's wwan0 on 1-1.4:1.2: a later usb-storage line on 1-1.4:1.3 keeps it
            sighting.add("net_driver", driver, _SRC, event.text, event.line)
    return sighting


def _link(event: DmesgEvent, sighting: Sighting, up: bool) -> None:
    f = event.fields
    sighting.add("link_event", (event.line, event.timestamp, up), _SRC, event.text, event.line)
    if f.get("port"):
        # "eth0: port 2 link down" (swconfig-era mtk_soc_eth, mt7530.c's own port lines): a
        # switch port behind the interface, whose drops are the interface's flapping; the
        # interface's own link (its CPU port) is not what the line says
        return
    sighting.add("link", up, _SRC, event.text, event.line)
    if up and f.get("speed"):
        speed = float(f["speed"])
        mbps = int(speed * 1000 if f.get("unit") == "G" else speed)
        sighting.add("link_speed_mbps", mbps, _SRC, event.text, event.line)
    for name, said in (("duplex", f.get("duplex", "").lower()), ("phy", f.get("phy"))):
        if up and said:  # phy: the PHY that says it (dmesg_mii_phy: r8169's PHY downshifted)
            sighting.add(name, said, _SRC, event.text, event.line)
    if mbps_usb := _USB_GENERATION.get(f.get("usb_gen", "")):
        sighting.add("usb_speed_mbps", mbps_usb, _SRC, event.text, event.line)


# aqc111's "Link Speed %d, USB %d" (aqc111_configure_rx()): 3 SUPER, 2 HIGH, 1 FULL or LOW
_USB_GENERATION = {"3": 5000.0, "2": 480.0}


def _usb_path(event: DmesgEvent) -> Sighting | None:
    path = event.device
    if not path:
        return None
    keys: list[Key] = [("usb", path)]
    number = event.fields.get("number")
    if number and event.kind == "usb_new_device":
        keys.append(("usbdev", f"{path.split('-')[0]}:{int(number)}"))
    sighting = Sighting(keys)
    sighting.add("bus", "usb", _SRC, event.text, event.line)
    return sighting


def _on_usb(event: DmesgEvent) -> Sighting | None:
    sighting = _usb_path(event)
    if sighting is None:
        return None
    kind, f = event.kind, event.fields
    if kind == "usb_new_device":
        sighting.add("usb_speed_mbps", usb_speed(f.get("speed")), _SRC, event.text, event.line)
        sighting.add("enumeration", event.text, _SRC, event.text, event.line)
    elif kind == "usb_ids":
        sighting.add("ids", f"{f['vendor']}:{f['product']}", _SRC, event.text, event.line)
    elif kind == "usb_product":  # "802.11n NIC", "USB 10/100/1G/2.5G LAN", "Aic MSC"
        sighting.add("usb_product", f["product"], _SRC, event.text, event.line)
    elif kind == "usb_serial":
        sighting.add("usb_serial", f["serial"], _SRC, event.text, event.line)
    elif kind == "usb_reset":
        sighting.add("usb_reset", event.text, _SRC, event.text, event.line)
        sighting.add("usb_speed_mbps", usb_speed(f.get("speed")), _SRC, event.text, event.line)
    elif kind == "usb_disconnect":
        sighting.add("usb_disconnect", event.text, _SRC, event.text, event.line)
    elif kind == "usb_not_top_speed":
        sighting.add("not_top_speed", event.text, _SRC, event.text, event.line)
    elif kind == "usb_unsupported":  # the driver that matched the IDs refused the device
        sighting.add("driver_none", True, _SRC, event.text, event.line)
    return sighting


def _on_pci(event: DmesgEvent) -> Sighting | None:
    found = device_keys(event.device)
    if found is None:
        return None
    sighting = Sighting([found[1]])
    f = event.fields
    sighting.add("bus", "pci", _SRC, event.text, event.line)
    sighting.add("ids", f"{f['vendor']}:{f['product']}", _SRC, event.text, event.line)
    sighting.add("pci_class", f.get("class", "")[2:6], _SRC, event.text, event.line)
    return sighting


def _on_device(event: DmesgEvent) -> Sighting | None:
    """Lines of a driver about its device or interface (registration, link, errors)."""
    sighting = _base(event)
    if sighting is None:
        return None
    kind, f, text, no = event.kind, event.fields, event.text, event.line
    if kind in ("link_up", "carrier_up"):
        _link(event, sighting, True)
    elif kind == "link_down":
        _link(event, sighting, False)
    elif kind == "carrier":
        _link(event, sighting, f.get("state") in ("Gained", "connected"))
    elif kind in _SAID_BY_SOURCE and kernel_complaint(text, event.driver):
        sighting.add("kernel_error", text, _SRC, text, no)
    elif kind in _COMPLAINTS:
        sighting.add(kind, text, _SRC, text, no)
        if kind == "usb_error" and kernel_complaint(text, event.driver):
            # the driver's own error line too (mt76's "vendor request ... failed:-32", or an
            # older kernel's wording with its errno), not only the USB error it reports
            sighting.add("kernel_error", text, _SRC, text, no)
        if kind == "firmware_missing" and (wanted := f.get("firmware") or f.get("firmware2")):
            sighting.add("firmware_wanted", wanted, _SRC, text, no)
        if kind == "phy_failure":  # the interface could not open: no link
            sighting.add("link", False, _SRC, text, no)
    elif kind in ("register", "description"):
        sighting.add("description", f.get("description"), _SRC, text, no)
    elif kind == "chip":
        sighting.add("chip_text", f.get("chip"), _SRC, text, no)
    elif kind == "phy_attached":
        sighting.add("phy", f.get("phy"), _SRC, text, no)
    elif kind == "driver_version":
        sighting.add("driver_version", f.get("version"), _SRC, text, no)
    elif kind == "firmware":
        sighting.add("firmware", f"{f.get('firmware')} v{f.get('version')}", _SRC, text, no)
    if kind == "device" and (named := firmware_file(text)):
        sighting.add("firmware_file", named, _SRC, text, no)  # a file it loads, by name
    if kind == "device" and (alone := chip_named_alone(text.rpartition(": ")[2])):
        sighting.add("chip_text", alone, _SRC, text, no)  # ath11k: "0000:01:00.0: qcn9074 hw1.0"
    if kind == "device" and (folder := firmware_dir_in(text)):
        sighting.add("firmware_dir", folder, _SRC, text, no)  # "from ath10k/QCA4019/hw1.0"
    if kind == "device" and firmware_runs(text):  # "WLAN FW is active": it runs one
        sighting.add("firmware", text.split(": ", 1)[-1][:120], _SRC, text, no)
    if kind == "device" and (chips := chips_by_function(text)):  # "rtl8192eu_parse_efuse: "
        why = f"{text[:200]} (printed by a function of {chips[1]}, the file of those chips)"
        sighting.add("chip_by_function", chips[0], _SRC, why, no)
    if kind == "device" and (rev := revision_chip(text, event.driver)):  # mt76: "79220010"
        sighting.add("chip_by_revision", rev[0], _SRC, rev[1], no)
    if kind == "renamed" and (old := iface_key(f.get("old"))):
        sighting.keys.append(old)
        sighting.add("former_name", f.get("old"), _SRC, text, no)
    if kind in ("register", "chip", "vendor_register", "mac") and f.get("mac"):
        sighting.keys.append(("mac", f["mac"].lower()))
    if kind in ("chip", "vendor_register") and f.get("irq"):
        sighting.add("irq_hint", int(f["irq"]), _SRC, text, no)
    if kind == "vendor_register":
        sighting.add("seen", True, _SRC, text, no)
    sighting.add("seen", True, _SRC, text, no)
    return sighting


_SAID_BY_SOURCE = frozenset({"device", "csum_failure"})  # + net/core's "eth0: hw csum failure"
_COMPLAINTS = (
    "phy_failure", "kevent_dropped", "usb_error", "tx_timeout", "firmware_missing", "probe_failed",
)  # fmt: skip


def _on_phy_link(event: DmesgEvent) -> Sighting | None:
    """libphy names the PHY by its MDIO bus (the MAC's platform device, maybe cut short)."""
    phy = event.fields.get("phy", "")
    sighting = Sighting([("platform", phy.split(".")[0])])
    _link(event, sighting, event.kind == "phy_link_up")
    return sighting


def _on_wifi(event: DmesgEvent) -> Sighting | None:
    """brcmfmac's chip line. It runs on SDIO, PCIe and USB: the bus is the one its device's
    address shows ("mmc1:0001:1", "0000:01:00.0", "1-1:1.0"), else the one its firmware's
    name says ("brcmfmac43455-sdio", "brcmfmac4366c-pcie", "brcmfmac43236b"), else unknown."""
    found = device_keys(event.device)
    sighting = Sighting([found[1] if found else ("wifi", "brcmfmac")])
    sighting.add("driver", "brcmfmac", _SRC, event.text, event.line)
    chip = event.fields.get("chip") or chip_of_id(event.fields.get("chip_id"))  # 4.x's hex id
    sighting.add("chip_text", chip, _SRC, event.text, event.line)
    if found is not None and found[0] in ("sdio", "pci", "usb"):
        sighting.add("bus", found[0], _SRC, event.text, event.line)
    elif by_name := firmware_bus(event.text):
        why = f"{event.text[:200]} ({by_name[1]})"
        sighting.add("bus", by_name[0], _SRC, why, event.line)
    sighting.add("wireless", True, _SRC, event.text, event.line)
    if "Firmware: " in event.text:  # brcmf_c_preinit_dcmds: the chip runs its firmware
        loaded = event.text.split("Firmware: ", 1)[1][:120]
        sighting.add("firmware", loaded, _SRC, event.text, event.line)
    return sighting


def _on_mmc_card(event: DmesgEvent) -> Sighting | None:
    """A card on an MMC host ("mmc1: new high speed SDIO card at address 0001", "mmc1: card
    0001 removed"): (its address, its type or "not shown"), read by bus_elimination."""
    f = event.fields
    sighting = Sighting([("sdio", f["device"])])
    kind = "disk" if f.get("disk") else f.get("type", "not shown")
    sighting.add("mmc_card", (f.get("rca", ""), kind), _SRC, event.text, event.line)
    return sighting


def _on_pci_seen(event: DmesgEvent) -> Sighting | None:
    found = device_keys(event.device)
    if found is None or found[0] != "pci":
        return None
    sighting = Sighting([found[1]])
    sighting.add("seen", True, _SRC, event.text, event.line)
    return sighting


_LEAN = {"link", "link_event", "link_speed_mbps", "duplex", "enumeration", "usb_speed_mbps"}


def _repeat(event: DmesgEvent) -> Sighting | None:
    handler = _HANDLERS.get(event.kind, _on_device)
    full = handler(event)
    if full is None:
        return None
    full.facts = [f for f in full.facts if f.field in _LEAN or f.field == event.kind]
    return full


def _again(template: Sighting, event: DmesgEvent) -> list[Fact]:
    """The template's facts said again by a repeat of its line (at the repeat's position)."""
    no = event.line
    return [
        f.at(no, (no, event.timestamp, f.value[2]))
        if f.field == "link_event"
        else f.at(no, f.value)
        for f in template.facts
    ]


_HANDLERS: dict[str, Callable[[DmesgEvent], Sighting | None]] = {
    "pci_device": _on_pci,
    "pci_bar": _on_pci_seen,
    "usb_new_device": _on_usb,
    "usb_ids": _on_usb,
    "usb_product": _on_usb,
    "usb_serial": _on_usb,
    "usb_reset": _on_usb,
    "usb_disconnect": _on_usb,
    "usb_not_top_speed": _on_usb,
    "usb_unsupported": _on_usb,
    "phy_link_up": _on_phy_link,
    "phy_link_down": _on_phy_link,
    "wifi_chip": _on_wifi,
    "driver_message": on_driver_message,
    "library_message": on_library_message,
    "old_format": on_old_format,
    "wiphy": on_wiphy,
    "mmc_card": _on_mmc_card,
    "pcie_aer": on_pcie_aer,
    "pcie_bandwidth": on_pcie_bandwidth,
    "daemon_iface": on_daemon_iface,
}
# Lines whose every occurrence counts (flapping, resets, errors); others are read once.
_COUNTED = {
    "link_up", "link_down", "carrier", "carrier_up", "phy_link_up", "phy_link_down",
    "usb_new_device", "usb_reset", "usb_disconnect", "usb_error", "kevent_dropped",
    "phy_failure", "tx_timeout", "firmware_missing", "usb_not_top_speed", "probe_failed",
    "pcie_aer",
}  # fmt: skip
_SKIP = {
    "under_voltage", "voltage_normalised", "driver_registered", "kernel_version",
    *TRACE_KINDS,
}  # fmt: skip


def from_dmesg(dmesg: DmesgResult | None) -> list[Sighting]:
    if dmesg is None:
        return []
    found: list[Sighting] = []
    firsts: list[Sighting] = []  # each distinct line's (a repeat's adds no driver): tie_traces
    seen: set[tuple[str, str]] = set()
    lean: dict[tuple[str, str], Sighting | None] = {}
    repeats: dict[tuple[str, str], Sighting] = {}
    complaints: dict[tuple[str, str], _Repeats] = {}
    probes = ProbeWatch()  # a USB reset that a just-registered driver's probe made
    ip_config = IpConfigWatch()
    wiphys = WiphyWatch()  # a chip named on a wiphy, joined to the device that made it
    probe_kinds = ProbeWatch.KINDS
    traces = TraceWatch()  # a trace's frames that name the NIC driver it ran in
    for event in dmesg.events:
        kind = event.kind
        if kind == "ip_config":
            if (configured := ip_config.see(event)) is not None:
                found.append(configured)
            continue
        if (kind in probe_kinds or probes.open) and (probed := probes.see(event)) is not None:
            found.append(probed)
        if kind in TRACE_KINDS and (traced := traces.see(event)) is not None:
            found.append(traced)
            firsts.append(traced)
        if (wiphy := wiphys.see(event)) is not None:
            found.append(wiphy)
            firsts.append(wiphy)
        if kind in _SKIP or kind in ("pcie_link_up", "pcie_link_down"):
            continue
        key = (kind, event.text)
        again = key in seen
        if again and kind not in _COUNTED:
            # The same line again says nothing new (a long log repeats itself), except that
            # a driver's error line is counted as often as the log shows it.
            if (complaint := complaints.get(key)) is not None:
                complaint.facts += _again(complaint.template, event)
            continue
        if again:  # counted again: its keys and the counted facts only, from the first one
            if key not in lean:
                lean[key] = _repeat(event)
                if (template := lean[key]) is not None:
                    # Every repeat's facts in one sighting (where the first repeat was):
                    # the same keys, joined once however often a long log says the line.
                    repeats[key] = Sighting(template.keys)
                    found.append(repeats[key])
            template = lean[key]
            if template is not None:
                repeats[key].facts += _again(template, event)
            continue
        seen.add(key)
        handler = _HANDLERS.get(kind, _on_device)
        sighting = handler(event)
        if sighting is not None:
            found.append(sighting)
            firsts.append(sighting)
            if kind == "device" and (said := ids_said(event.text, sighting)) is not None:
                found.append(said)
            if errors := [f for f in sighting.facts if f.field == "kernel_error"]:
                complaints[key] = _Repeats(Sighting(sighting.keys, errors))
    # One sighting per repeated line with a fact per repeat: counted, and cheap to join.
    found += [Sighting(r.template.keys, r.facts) for r in complaints.values() if r.facts]
    found = join_children(found)
    found += lone_wifi_devices(found)
    found += lone_phy_link(found)
    found += tie_traces(firsts)
    return found + buses_by_elimination(found)


@dataclass
class _Repeats:
    template: Sighting
    facts: list[Fact] = field(default_factory=list)
