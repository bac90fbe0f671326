"""What a bus's or a chip's own kernel line says about its device, as a sighting (one handler
per kind, called by ``log_sightings`` once per distinct message): a PCI device and its BARs,
a USB device's enumeration, IDs, strings, resets and disconnects, libphy's link of a PHY,
brcmfmac's chip line, an MMC card."""

from __future__ import annotations

from sbctune.inventory.brcmfmac_bus import chip_bus, chip_of_id, firmware_bus
from sbctune.inventory.device_line_facts import link_facts
from sbctune.inventory.parsers.dmesg import DmesgEvent
from sbctune.inventory.sightings import Key, Sighting, device_keys, usb_speed

_SRC = "dmesg"


def usb_path(event: DmesgEvent) -> Sighting | None:
    path = event.device
    if not path:
        return None
    keys: list[Key] = [("usb", path)]
    number = event.fields.get("number") or event.fields.get("address")  # hub.c's devnum
    if number and event.kind == "usb_new_device":
        keys.append(("usbdev", f"{path.split('-')[0]}:{int(number)}"))
    sighting = Sighting(keys)
    sighting.add("bus", "usb", _SRC, event.text, event.line)
    return sighting


def on_usb(event: DmesgEvent) -> Sighting | None:
    sighting = usb_path(event)
    if sighting is None:
        return None
    kind, f = event.kind, event.fields
    if kind == "usb_new_device":
        sighting.add("usb_speed_mbps", usb_speed(f.get("speed")), _SRC, event.text, event.line)
        # with the kernel's clock: one record shown twice is one (nic_log._once_per_record)
        sighting.add("enumeration", (event.text, event.timestamp), _SRC, event.text, event.line)
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


def on_pci(event: DmesgEvent) -> Sighting | None:
    found = device_keys(event.device)
    if found is None:
        return None
    sighting = Sighting([found[1]])
    f = event.fields
    sighting.add("bus", "pci", _SRC, event.text, event.line)
    sighting.add("ids", f"{f['vendor']}:{f['product']}", _SRC, event.text, event.line)
    sighting.add("pci_class", f.get("class", "")[2:6], _SRC, event.text, event.line)
    return sighting


def on_phy_link(event: DmesgEvent) -> Sighting | None:
    """libphy names the PHY by its MDIO bus (the MAC's platform device, maybe cut short)."""
    phy = event.fields.get("phy", "")
    sighting = Sighting([("platform", phy.split(".")[0])])
    link_facts(event, sighting, event.kind == "phy_link_up")
    return sighting


def on_wifi(event: DmesgEvent) -> Sighting | None:
    """brcmfmac's chip line. It runs on SDIO, PCIe and USB: the bus is the one its device's
    address shows ("mmc1:0001:1", "0000:01:00.0", "1-1:1.0"), else the one its firmware's
    name says ("brcmfmac43455-sdio", "brcmfmac4366c-pcie", "brcmfmac43236b"), else the one
    bus whose firmware table lists its chip ("BCM43430/1": SDIO only), else unknown."""
    found = device_keys(event.device)
    sighting = Sighting([found[1] if found else ("wifi", "brcmfmac")])
    sighting.add("driver", "brcmfmac", _SRC, event.text, event.line)
    f = event.fields
    chip = f.get("chip") or chip_of_id(f.get("chip_id") or f.get("chip_id2"))  # 4.x's hex id
    sighting.add("chip_text", chip, _SRC, event.text, event.line)
    if found is not None and found[0] in ("sdio", "pci", "usb"):
        sighting.add("bus", found[0], _SRC, event.text, event.line)
    elif by_name := firmware_bus(event.text) or chip_bus(chip):
        why = f"{event.text[:200]} ({by_name[1]})"
        sighting.add("bus", by_name[0], _SRC, why, event.line)
    sighting.add("wireless", True, _SRC, event.text, event.line)
    if "Firmware: " in event.text:  # brcmf_c_preinit_dcmds: the chip runs its firmware
        loaded = event.text.split("Firmware: ", 1)[1][:120]
        sighting.add("firmware", loaded, _SRC, event.text, event.line)
    return sighting


def on_mmc_card(event: DmesgEvent) -> Sighting | None:
    """A card on an MMC host ("mmc1: new high speed SDIO card at address 0001", "mmc1: card
    0001 removed"): (its address, its type or "not shown"), read by bus_elimination."""
    f = event.fields
    sighting = Sighting([("sdio", f["device"])])
    kind = "disk" if f.get("disk") else f.get("type", "not shown")
    sighting.add("mmc_card", (f.get("rca", ""), kind), _SRC, event.text, event.line)
    return sighting


def on_pci_seen(event: DmesgEvent) -> Sighting | None:
    found = device_keys(event.device)
    if found is None or found[0] != "pci":
        return None
    sighting = Sighting([found[1]])
    sighting.add("seen", True, _SRC, event.text, event.line)
    return sighting
