"""Which chip a NIC is, by name: the catalog's (by IDs, by a model shown in the lines, by a
driver that binds one family), then the kernel's (firmware files, link speed, a driver's own
description or name), then pci.ids/usb.ids and the device's own strings."""

from __future__ import annotations

import re
from collections.abc import Callable

from sbctune.catalog import Catalog, Chip
from sbctune.catalog import driver_chips as _chips
from sbctune.catalog.driver_chips import family_by_platform_name, names_one_chip, one_family
from sbctune.catalog.driver_firmware import chip_by_firmware
from sbctune.catalog.ids import IdDatabase
from sbctune.catalog.kernel_drivers import chip_by_description, chip_by_driver_name, chip_by_speed
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


def _by_shown_model(device: Device, bus: str, driver: str | None, catalog: Catalog) -> Chip | None:
    """A model number the chip's line, a description or a firmware's name shows."""
    text = device.value("chip_text")
    described = " ".join(str(f.value) for f in device.all("description") + device.all("firmware"))
    shown = f"{text or ''} {described}".upper()
    for word in re.findall(r"\b[A-Z]*[0-9]{3,}[A-Z0-9]*\b", shown):
        chip = catalog.find_chip(word)
        if chip is not None:
            return chip
    return None


def _by_platform_name(
    device: Device, bus: str, driver: str | None, catalog: Catalog
) -> Chip | None:
    """The device its board's device tree makes of the MAC ("1f00100000.ethernet"), for a
    driver of that chip: macb alone is the GEM of Zynq, SAMA5 and PolarFire too."""
    if bus == "platform" and (name := device.value("platform_name")):
        return catalog.chip_on_platform(driver, str(name))
    return None


def _by_compatible(device: Device, bus: str, driver: str | None, catalog: Catalog) -> Chip | None:
    """The chip whose own compatible the device's node lists (of_sightings.py)."""
    found = device.value("of_compatible")
    return catalog.chip_by_compatible(found) if isinstance(found, tuple) and found else None


def _by_driver_family(
    device: Device, bus: str, driver: str | None, catalog: Catalog
) -> Chip | None:
    """A driver's one catalog chip that every shown fact allows, only if the driver binds that
    one family (driver_chips) and every other catalog chip of the driver is ruled out by what
    the device shows (advice.chips.usb3_only_chips' rule: lan78xx also binds the LAN7850, USB
    2.0 by lan78xx.c lan78xx_init_ltm, so lan78xx alone is no LAN7800 unless SuperSpeed says
    so); and not an SoC's MAC glue: macb drives the GEM of Zynq, SAMA5, PolarFire and RP1."""
    if not driver or device.value("ids") or bus == "platform":
        return None
    drives = [c for c in catalog.chips_by_driver(driver) if c.kind == "nic"]
    left = [c for c in drives if _allowed(c, device)]
    return left[0] if len(left) == 1 and one_family(driver, left[0]) else None


def _allowed(chip: Chip, device: Device) -> bool:
    """Whether what the device shows allows this chip: a SuperSpeed enumeration no USB 2.0
    chip, a link faster than the chip's line rate no such chip."""
    usb = device.value("usb_speed_mbps")
    if isinstance(usb, (int, float)) and usb > _USB2_MAX and (chip.usb_generation or "") < "3":
        return False
    link = device.value("link_speed_mbps")
    rate = chip.line_rate_mbps
    return not (isinstance(link, (int, float)) and rate is not None and link > rate)


_USB2_MAX = 480  # Mbit/s: high speed; above it a device enumerated at SuperSpeed
# A driver named for its chip family: letters, digits, an "x" per digit it spans ("lan78xx").
_FAMILY = re.compile(r"([a-z]{2,5}[0-9]{1,4}x+)")


def catalog_family(driver: str | None, catalog: Catalog) -> str | None:
    """The family a driver named for it drives, when the catalog knows several of its chips
    of one vendor and the NIC's facts chose none: "Microchip LAN78xx" (LAN7800/7801: USB 3.0,
    LAN7850: USB 2.0), no one chip's figures."""
    if not driver or (m := _FAMILY.fullmatch(driver)) is None:
        return None
    drives = [c for c in catalog.chips_by_driver(driver) if c.kind == "nic"]
    vendors = {c.vendor for c in drives}
    if len(drives) < 2 or len(vendors) != 1:
        return None
    family = re.sub(r"^[a-z]+", lambda w: w.group(0).upper(), m.group(1))
    return f"{vendors.pop()} {family}"


def _by_ids(device: Device, bus: str, driver: str | None, catalog: Catalog) -> Chip | None:
    return catalog_chip(device, bus, catalog)


# The catalog's chip, by the first of these that names one.
_CATALOG_RULES: tuple[Callable[[Device, str, str | None, Catalog], Chip | None], ...] = (
    _by_ids,
    _by_shown_model,
    _by_platform_name,
    _by_compatible,
    _by_driver_family,
)


def _catalog_name(chip: Chip, device: Device) -> str:
    """The catalog chip's name, its variant by IDs, and a model the lines show, never a
    firmware file's name ("rtl8153a-4": its -4 is a version)."""
    text = device.value("chip_text")
    name = _variant_name(chip, device.value("ids"))
    models = " ".join(str(f.value) for f in device.all("description"))
    variant = _shown_variant(chip, name, f"{text or ''} {models}".upper())
    return f"{name} ({variant})" if variant else name


def _own_description(device: Device, driver: str | None, ids: IdDatabase) -> str | None:
    """A class driver's description ("RNDIS device", "CDC NCM") names no chip: the device's own
    USB product string does ("MDM9207-MTP _SN:8A86A342")."""
    product = device.value("usb_product") if ids.is_generic_usb(driver) else None
    description = product or device.value("description") or device.value("device_name")
    if class_description(str(description or "")):
        return None  # cdc_ether's "CDC Ethernet Device": the driver's, not a chip's
    return str(description) if description else None


def _name_otherwise(device: Device, bus: str, driver: str | None, ids: IdDatabase) -> str | None:
    """No catalog chip: the kernel's chip line, then pci.ids/usb.ids, then the device's own
    description."""
    text = device.value("chip_text")
    found = device.value("ids") or ids.ids_by_name("pci", device.value("description"))
    known = ids.name("usb" if bus == "usb" else "pci", found)
    if text and not (known and _product_of_series(str(text), known)):
        return str(text)
    if known and " device " not in known:
        return known
    return _own_description(device, driver, ids) or known


# a chip model: capitals then four digits ("RT5390", "AR9271")
_MODEL = re.compile(r"\b([A-Z]{2,4})(\d{2})(\d{2})\b")


def _product_of_series(text: str, known: str) -> bool:
    """Whether the IDs' name (usb.ids, pci.ids) names another product of the series the chip
    line names: rt2x00's "RT chipset 5390" is the MAC's register (rt2800lib.c rt2800_probe_rt()
    reads MAC_CSR0's chipset field), which the RT5370, RT5372 and RT5390 share (rt2800.h lists
    their RF chips apart), while 148f:5370 is the RT5370 itself: the product the IDs name wins."""
    line = _MODEL.fullmatch(text.strip())
    if line is None:
        return False
    named = _MODEL.findall(known)
    return any(m[:2] == line.groups()[:2] and m[2] != line.group(3) for m in named) and not any(
        m == line.groups() for m in named
    )


def chip_of(
    device: Device, bus: str, driver: str | None, catalog: Catalog, ids: IdDatabase
) -> tuple[str | None, Chip | None]:
    for rule in _CATALOG_RULES:
        if (chip := rule(device, bus, driver, catalog)) is not None:
            return _catalog_name(chip, device), chip
    return _name_otherwise(device, bus, driver, ids), None


def _shown_variant(chip: Chip, name: str, shown: str) -> str | None:
    """The variant a shown model names within the catalog's family: "I226-LM" of "Intel
    I225/I226" (networkctl's Model:, lshw's product:)."""
    family = f"{chip.name} {' '.join(chip.variants)}".upper()
    for word in re.findall(r"\b([A-Z]*[0-9]{3,}[A-Z0-9]*)-[A-Z0-9]{1,4}\b", shown):
        full = re.search(rf"\b{re.escape(word)}-[A-Z0-9]{{1,4}}\b", shown)
        if full and word in family and full.group(0) not in name.upper():
            return full.group(0)
    return None


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


def chip_otherwise(
    nic: Nic, device: Device, catalog: Catalog | None = None
) -> tuple[str | None, str | None]:
    """(chip, why: when no log line says it) from the driver, its link, firmware and lines; a
    driver's description or name names a chip only if it binds no other (driver_chips)."""
    driver = nic.driver or device.value("refused_by")
    named = (
        chip_by_speed(nic.driver, device.value("link_speed_mbps"))  # r8169 at 2.5 Gbit/s
        # the silicon's own register before the file the driver loads: mt7601u loads
        # mt7601u.bin for an MT7610 bound by a hand-added ID ("ASIC revision: 76100002")
        or device.value("chip_by_revision")
        or _chip_by_firmware(device, driver)  # rtl_nic/rtl8168h-2.fw: its RTL8168h/8111h
        or device.value("chip_by_function")  # rtl8xxxu's "rtl8192eu_parse_efuse: ..."
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
    oot = oot or (None if nic.ids else _chips.chip_by_one_compatible(own))  # enc28j60 (SPI)
    if not oot and not nic.ids and catalog is not None and (fam := catalog_family(own, catalog)):
        return fam, None  # lan78xx without IDs or SuperSpeed: LAN7800/7801 or the LAN7850
    return (oot[0], oot[1]) if oot else (None, None)  # rtw89_8852bu_git: RTL8852BU
