"""Which chip a NIC is, by name: the catalog's (by IDs, by a model shown in the lines, by a
driver that binds one family), then the kernel's (firmware files, link speed, a driver's own
description or name), then pci.ids/usb.ids and the device's own strings."""

from __future__ import annotations

import re

from sbctune.catalog import Catalog, Chip
from sbctune.catalog import driver_chips as _chips
from sbctune.catalog.driver_chips import family_by_platform_name, names_one_chip, one_family
from sbctune.catalog.ids import IdDatabase
from sbctune.catalog.kernel_drivers import (
    chip_by_description,
    chip_by_driver_name,
    chip_by_firmware,
    chip_by_speed,
)
from sbctune.catalog.modeswitch import storage_mode
from sbctune.catalog.oot_chips import out_of_tree_chip
from sbctune.inventory.graph import Device
from sbctune.inventory.model import Nic
from sbctune.inventory.usbnet_info import class_description


def catalog_chip(device: Device, bus: str, catalog: Catalog) -> Chip | None:
    found = device.value("ids")
    if not found:
        return None
    return catalog.chip_by_usb_id(found) if bus == "usb" else catalog.chip_by_pci_id(found)


def chip_of(
    device: Device, bus: str, driver: str | None, catalog: Catalog, ids: IdDatabase
) -> tuple[str | None, Chip | None]:
    chip = catalog_chip(device, bus, catalog)
    text = device.value("chip_text")
    described = " ".join(str(f.value) for f in device.all("description") + device.all("firmware"))
    shown = f"{text or ''} {described}".upper()
    if chip is None:
        for word in re.findall(r"\b[A-Z]*[0-9]{3,}[A-Z0-9]*\b", shown):
            chip = catalog.find_chip(word)
            if chip is not None:
                break
    if chip is None and bus == "platform" and (name := device.value("platform_name")):
        # the device its board's device tree makes of the MAC ("1f00100000.ethernet"), for a
        # driver of that chip: macb alone is the GEM of Zynq, SAMA5 and PolarFire too
        chip = catalog.chip_on_platform(driver, str(name))
    # A driver's one catalog chip, only if the driver binds that one family (driver_chips), and
    # not an SoC's MAC glue: macb drives the GEM of Zynq, SAMA5, PolarFire and the Pi 5's RP1
    if chip is None and driver and not device.value("ids") and bus != "platform":
        drives = [c for c in catalog.chips_by_driver(driver) if c.kind == "nic"]
        chip = drives[0] if len(drives) == 1 and one_family(driver, drives[0]) else None
    if chip is not None:
        name = _variant_name(chip, device.value("ids"))
        # a model the lines show, never a firmware file's name ("rtl8153a-4": its -4 is a version)
        models = " ".join(str(f.value) for f in device.all("description"))
        variant = _shown_variant(chip, name, f"{text or ''} {models}".upper())
        return (f"{name} ({variant})" if variant else name), chip
    found = device.value("ids") or _ids_by_name(device, ids)
    known = ids.name("usb" if bus == "usb" else "pci", found)
    if text:
        return str(text), None
    if known and " device " not in known:
        return known, None
    # a class driver's description ("RNDIS device", "CDC NCM") names no chip: the device's own
    # USB product string does ("MDM9207-MTP _SN:8A86A342")
    product = device.value("usb_product") if ids.is_generic_usb(driver) else None
    description = product or device.value("description") or device.value("device_name")
    if class_description(str(description or "")):
        description = None  # cdc_ether's "CDC Ethernet Device": the driver's, not a chip's
    return (str(description) if description else known), None


def _shown_variant(chip: Chip, name: str, shown: str) -> str | None:
    """The variant a shown model names within the catalog's family: "I226-LM" of "Intel
    I225/I226" (networkctl's Model:, lshw's product:)."""
    family = f"{chip.name} {' '.join(chip.variants)}".upper()
    for word in re.findall(r"\b([A-Z]*[0-9]{3,}[A-Z0-9]*)-[A-Z0-9]{1,4}\b", shown):
        full = re.search(rf"\b{re.escape(word)}-[A-Z0-9]{{1,4}}\b", shown)
        if full and word in family and full.group(0) not in name.upper():
            return full.group(0)
    return None


def _ids_by_name(device: Device, ids: IdDatabase) -> str | None:
    """An old pci.ids prints "Realtek Semiconductor Co., Ltd. Device 8125": vendor by name."""
    match = re.match(r"^(.+) Device ([0-9a-f]{4})$", str(device.value("description") or ""))
    if match is None:
        return None
    vendor = ids.vendor_id("pci", match.group(1))
    return f"{vendor}:{match.group(2)}" if vendor else None


def _variant_name(chip: Chip, ids: str | None) -> str:
    """The catalog's variant whose model number is the product ID ("LAN7801" for 0424:7801),
    when the chip's name does not already say it."""
    product = (ids or "").split(":")[-1].upper()
    for variant in chip.variants:
        if product and variant.upper().endswith(product) and variant not in chip.name:
            return f"{chip.name.split()[0]} {variant}"
    return chip.name


def _chip_by_firmware(device: Device, driver: object) -> str | None:
    """The chip named by a firmware file the driver asked for, loaded, or printed the name
    of (iwlwifi's "Loaded firmware version: ... 7260-17.ucode")."""
    for field in ("firmware_wanted", "firmware", "firmware_file", "firmware_dir"):
        for fact in device.all(field):
            if chip := chip_by_firmware(driver, fact.value):
                return chip
    return None


def chip_otherwise(nic: Nic, device: Device) -> tuple[str | None, str | None]:
    """(chip, why: when no log line says it) from the driver, its link, firmware and lines; a
    driver's description or name names a chip only if it binds no other (driver_chips)."""
    driver = nic.driver or device.value("refused_by")
    named = (
        chip_by_speed(nic.driver, device.value("link_speed_mbps"))  # r8169 at 2.5 Gbit/s
        or _chip_by_firmware(device, driver)  # rtl_nic/rtl8168h-2.fw: its RTL8168h/8111h
        # rtl8xxxu's "rtl8192eu_parse_efuse: ...", mt76's "ASIC revision: 79220010"
        or device.value("chip_by_function")
        or device.value("chip_by_revision")
    )
    if named:
        return str(named), None
    own = device.value("driver") or driver
    if not nic.ids and (one := chip_by_description(own)) and names_one_chip(own, one):
        return one, None  # a driver for one chip (rtw89_8852be), even refused
    if (switchable := storage_mode(nic.ids)) is not None:
        return switchable.name, None  # usb_modeswitch's name for the dongle in storage mode
    if not nic.ids and (by_name := chip_by_driver_name(own)) and names_one_chip(own, by_name):
        return by_name, None  # a driver named for its chip: mt7601u (not dm9601: ADM8515 too)
    oot = None if nic.ids else out_of_tree_chip(device.value("driver") or driver)
    oot = oot or (None if nic.ids else family_by_platform_name(own))  # wl18xx_driver: WL18xx
    oot = oot or (None if nic.ids else _chips.chip_by_platform_name(own))  # mt7986-wmac
    return (oot[0], oot[1]) if oot else (None, None)  # rtw89_8852bu_git: RTL8852BU
