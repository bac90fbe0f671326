"""What a Wi-Fi, wired or library driver says in the kernel log without naming a device, as
sightings (see ``log_sightings``): brcmfmac's "brcmfmac: ... err: -110", a driver's lines on
its wiphy ("ieee80211 phy0: ..."), wlcore's "wlcore: ERROR ...". Each is keyed by the driver
(or library) alone, and tied to that driver's one device when the log shows it driving just
one (``lone_wifi_devices``); with two, nothing ties them."""

from __future__ import annotations

from sbctune.catalog.bcmdhd_lines import bcmdhd_table
from sbctune.catalog.id_formats import load_id_formats
from sbctune.catalog.kernel_drivers import (
    KernelDriver,
    bus_named_by,
    driver_for_files,
    load_kernel_drivers,
)
from sbctune.catalog.kernel_messages import load_messages
from sbctune.catalog.vendor_formats import vendor_firmware_chip, vendor_row
from sbctune.catalog.wifi_ops import driver_callback
from sbctune.inventory.log_complaints import (
    IDS_BY_FORMAT,
    kernel_complaint,
    library_complaint,
)
from sbctune.inventory.lone_device_ties import lone_wifi_devices
from sbctune.inventory.parsers.dmesg import DmesgEvent
from sbctune.inventory.sightings import Key, Sighting, iface_key

__all__ = [
    "lone_wifi_devices",
    "on_bcmdhd_line",
    "on_driver_message",
    "on_library_message",
    "on_vendor_function",
    "on_wiphy",
]

_SRC = "dmesg"


def on_driver_message(event: DmesgEvent) -> Sighting | None:
    """A Wi-Fi driver's error line that names no device ("brcmfmac: ... err: -110"): it is
    about that driver's chip, the one the driver's other device-less lines name too. A wired
    driver's such line ("r8169: rtl_phyar_cond == 1 (loop: 20, delay: 25).") is about its
    device only when the log shows it driving just one (lone_wifi_devices); else it is left out."""
    driver = load_kernel_drivers().get(event.driver)
    if driver is None:
        return None
    if (said := _ids_of_its_device(event, driver)) is not None:
        return said
    if not kernel_complaint(event.text):
        if driver.wireless and (called := _callback_line(event, driver)) is not None:
            return called
        return _info_of_its_device(event, driver)
    if not driver.wireless:
        wired = Sighting([("drv", driver.name)])
        wired.add("kernel_error", event.text, _SRC, event.text, event.line)
        return wired
    sighting = Sighting([("wifi", driver.name)])
    sighting.add("driver", driver.name, _SRC, event.text, event.line)
    sighting.add("wireless", True, _SRC, event.text, event.line)
    known = load_messages().match(event.text) if driver.bus is None else None
    if bus := bus_named_by(driver, event.text, known.files if known is not None else ()):
        sighting.add("bus", bus, _SRC, event.text, event.line)
    sighting.add("kernel_error", event.text, _SRC, event.text, event.line)
    return sighting


def _callback_line(event: DmesgEvent, driver: KernelDriver) -> Sighting | None:
    """A Wi-Fi driver's device-less line printed by one of its cfg80211/mac80211 callbacks
    ("brcmfmac: brcmf_cfg80211_set_power_mgmt: power save enabled": brcmf_info() prefixes the
    function): the callback runs on a wiphy the driver registered, so it has a device, keyed
    ("wifi", driver) as its other device-less lines are (catalog.wifi_ops)."""
    head, _, rest = event.text.partition(": ")
    function = rest.partition(":")[0].strip()
    if head.strip() != driver.name or not function.isidentifier() or not driver.file:
        return None
    file = driver_callback(driver.file, function)
    if file is None:
        return None
    why = f"{event.text[:200]} ({function} is one of {driver.name}'s callbacks, {file})"
    sighting = Sighting([("wifi", driver.name)])
    sighting.add("driver", driver.name, _SRC, why, event.line)
    sighting.add("wireless", True, _SRC, why, event.line)
    if bus := bus_named_by(driver, event.text, (file,)):
        sighting.add("bus", bus, _SRC, why, event.line)
    return sighting


def on_vendor_function(event: DmesgEvent) -> Sighting | None:
    """An out-of-tree driver's line that names only its printing function (bcmdhd's
    "dhd_conf_set_hw_oob_intr: Enable HW OOB for 43362"), by its row of vendor_formats.json:
    about that driver's one device, whose bus, kind and chip the row's source says; joined to
    the driver's other device-less lines by the ("wifi", driver) key, as brcmfmac's are."""
    row = vendor_row(event.fields.get("function", ""), event.fields.get("format", ""))
    if row is None:
        return None
    why = f"{event.text[:200]} (the format of {row.source})"
    sighting = Sighting([("wifi" if row.wireless else "drv", row.driver)])
    if row.wireless:
        sighting.add("wireless", True, _SRC, why, event.line)
    if row.bus:
        sighting.add("bus", row.bus, _SRC, why, event.line)
    if row.prefix:  # the line begins with the driver's own name (CARDNAME): its driver
        sighting.add("driver", row.driver, _SRC, why, event.line)
    sighting.add("chip_text", row.chip_of(event.fields), _SRC, why, event.line)
    if row.firmware_missing and (wanted := event.fields.get(row.firmware_missing)):
        # the driver could not open the file: missing firmware, and the chip its name is for
        # (bcmdhd prints the path its module parameter gave; the name is the file's own)
        sighting.add("firmware_missing", event.text, _SRC, event.text, event.line)
        sighting.add("firmware_wanted", wanted, _SRC, event.text, event.line)
        named = vendor_firmware_chip(row.driver, wanted.rpartition("/")[2])
        sighting.add("chip_text", named, _SRC, f"{why}; the file is the {named}'s", event.line)
    if row.complaint:
        sighting.add("kernel_error", event.text, _SRC, event.text, event.line)
    return sighting


def on_bcmdhd_line(event: DmesgEvent) -> Sighting | None:
    """A line of Broadcom's out-of-tree bcmdhd (catalog/bcmdhd_lines.py): about the driver's
    one Wi-Fi device, joined to its other lines by the ("wifi", "bcmdhd") key as the
    function-keyed rows are; the interface a line names ("[dhd] [wlan0] ...") is that device's,
    the bus is its printing function's file's, the chip the F1 signature's."""
    told = "its [dhd] prefix" if "[dhd" in event.text else "its function name space"
    why = f"{event.text[:200]} (Broadcom's bcmdhd: {told})"
    keys: list[Key] = [("wifi", "bcmdhd")]
    if key := iface_key(event.fields.get("iface")):
        keys.append(key)
    sighting = Sighting(keys)
    sighting.add("wireless", True, _SRC, why, event.line)
    table = bcmdhd_table()  # its own lines: it drives the chip ("bcmdhd", bcmdhd_lines.json)
    sighting.add("driver", table.driver if table else None, _SRC, why, event.line)
    sighting.add("bus", event.fields.get("bus"), _SRC, why, event.line)
    sighting.add("chip_text", event.fields.get("chip"), _SRC, why, event.line)
    sighting.add("ids", event.fields.get("ids"), IDS_BY_FORMAT, why, event.line)
    return sighting


def on_library_message(event: DmesgEvent) -> Sighting | None:
    """A library module's complaint ("wlcore: ERROR could not get configuration binary ...",
    wl1271_error() in wlcore/debug.h): about the device of a driver that uses the library
    (catalog.library_modules), tied to it by lone_wifi_devices when the log shows one."""
    library = event.driver
    if library is None or not library_complaint(event.text, library):
        return None
    sighting = Sighting([("lib", library)])
    sighting.add("kernel_error", event.text, _SRC, event.text, event.line)
    return sighting


def on_wiphy(event: DmesgEvent) -> Sighting | None:
    """A Wi-Fi driver's line on its wiphy ("ieee80211 phy0: ..."): the driver is the one whose
    source prints that format; it joins that driver's other lines and its device."""
    text = event.fields.get("message", "")
    known = load_messages().match(text)
    driver = driver_for_files(known.files) if known is not None else None
    if known is None or driver is None or not driver.wireless:
        return None
    sighting = Sighting([("wifi", driver.name)])
    sighting.add("driver", driver.name, _SRC, event.text, event.line)
    sighting.add("wireless", True, _SRC, event.text, event.line)
    if bus := driver.bus or bus_named_by(driver, text, known.files):
        sighting.add("bus", bus, _SRC, event.text, event.line)
    if known.level != "info" or kernel_complaint(event.text, driver.name):  # an info line's rule
        sighting.add("kernel_error", event.text, _SRC, event.text, event.line)
    return sighting


def _info_of_its_device(event: DmesgEvent, driver: KernelDriver) -> Sighting | None:
    """A USB Wi-Fi driver's device-less report, prefixed with its module's name (6.1
    rtlwifi/rtl8192cu/mac.c rtl92c_read_chip_version(): pr_info("Chip version 0x%x\n") as
    "rtl8192cu: Chip version 0x10"): the driver is probing its device. It names the driver of
    the one device the log shows it driving or whose IDs its alias table lists (a hot-plug
    with the module loaded already prints no "registered new interface driver" line), tied
    by lone_wifi_devices; with no such device or two, the keyed sighting ties nothing."""
    if not driver.wireless or driver.bus != "usb":
        return None
    sighting = Sighting([("winfo", driver.name)])
    sighting.add("driver", driver.name, _SRC, event.text, event.line)
    sighting.add("wireless", True, _SRC, event.text, event.line)
    return sighting


def _ids_of_its_device(event: DmesgEvent, driver: KernelDriver) -> Sighting | None:
    """A device-less line printed from one of the driver's own ID formats (id_formats.tsv:
    brcmfmac's debug "brcmf_pcie_probe Enter 14e4:4488", pcie.c, its arguments pdev->vendor
    and pdev->device) gives the IDs of the driver's device, tied to it by lone_wifi_devices
    when the log shows it driving just one. A format that prints the PCI device number alone
    (iwl_pci_probe()'s pr_err "No config found for PCI dev %04x/%04x, ...", pdev->device and
    pdev->subsystem_device, pcie/drv.c 6.1 and 6.12) takes the vendor from the line's driver's
    own alias table, as on a line with its device."""
    found = load_id_formats().ids_in(event.text, driver.name)
    if found is None or (own := driver_for_files(found[1].files)) is None:
        return None
    if own.name != driver.name:
        return None
    sighting = Sighting([("wifi" if driver.wireless else "drv", driver.name)])
    why = f"{event.text[:200]} (the IDs as {found[1].files[0]} prints them)"
    sighting.add("ids", found[0], IDS_BY_FORMAT, why, event.line)
    return sighting
