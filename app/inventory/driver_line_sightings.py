"""What a Wi-Fi, wired or library driver says in the kernel log without naming a device, as
sightings (see ``log_sightings``): brcmfmac's "brcmfmac: ... err: -110", a driver's lines on
its wiphy ("ieee80211 phy0: ..."), wlcore's "wlcore: ERROR ...". Each is keyed by the driver
(or library) alone, and tied to that driver's one device when the log shows it driving just
one (``lone_wifi_devices``); with two, nothing ties them."""

from __future__ import annotations

from sbctune.catalog.id_formats import load_id_formats
from sbctune.catalog.kernel_drivers import (
    KernelDriver,
    bus_named_by,
    driver_for_files,
    load_kernel_drivers,
)
from sbctune.catalog.kernel_messages import load_messages
from sbctune.catalog.library_modules import library_users
from sbctune.inventory.log_complaints import (
    IDS_BY_FORMAT,
    kernel_complaint,
    library_complaint,
)
from sbctune.inventory.parsers.dmesg import DmesgEvent
from sbctune.inventory.sightings import Fact, Key, Sighting

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
        return None
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


def lone_wifi_devices(found: list[Sighting]) -> list[Sighting]:
    """A Wi-Fi driver's lines that name no device ("ath9k_htc: Failed to initialize the
    device") are about its one device when the log shows it driving (or trying) just one:
    a sighting that ties the two. With two such devices, nothing ties them. So are a wired
    driver's complaints ("drv" keys), on any bus, and a library module's ("lib" keys) when the
    log shows one device of all the drivers that use it."""
    wanted = {k[1]: k[0] for s in found for k in s.keys if k[0] in ("wifi", "drv")}
    libraries = {k[1] for s in found for k in s.keys if k[0] == "lib"}
    if not wanted and not libraries:
        return []
    users = {lib: library_users(lib) for lib in libraries}
    used = set().union(*users.values()) if users else set()
    devices: dict[str, set[Key]] = {}
    ifaces: dict[str, set[Key]] = {}  # an older kernel's device named only by its interface
    for sighting in found:
        for fact in sighting.facts:
            driver = _driver_of(fact, sighting)
            if driver is None:
                continue
            if driver in wanted or driver in used:
                buses = ("usb", "pci", "sdio") + (
                    ("platform",) if wanted.get(driver, "drv") == "drv" else ()
                )
                keys = {k for k in sighting.keys if k[0] in buses}
                devices.setdefault(driver, set()).update(keys)
                if fact.field == "driver" and wanted.get(driver) == "drv":
                    ifaces.setdefault(driver, set()).update(
                        k for k in sighting.keys if k[0] == "if"
                    )
    for driver, named in ifaces.items():
        if not devices.get(driver):  # "eth0: Freescale FEC PHY driver ...": eth0 alone
            devices[driver] = named
    ties = [
        Sighting([next(iter(keys)), (wanted[driver], driver)])
        for driver, keys in sorted(devices.items())
        if driver in wanted and len(keys) == 1
    ]
    for lib, its_users in sorted(users.items()):
        keys = set().union(*(k for d, k in devices.items() if d in its_users))
        if len(keys) == 1:
            ties.append(Sighting([next(iter(keys)), ("lib", lib)]))
    return ties


def _driver_of(fact: Fact, sighting: Sighting) -> str | None:
    """The driver a fact says drives (or tried to drive) the sighting's device. The firmware
    loader's line ("usb 2-6: Direct firmware load for brcm/brcmfmac43143.clm_blob failed")
    names the device a driver asked for the file for (request_firmware(..., &udev->dev)): when
    no line names that device's driver, the one driver that declares the file (MODULE_FIRMWARE,
    6.1/6.12, drivers.json) is its driver."""
    if fact.field in ("driver", "refused_by"):
        return str(fact.value)
    if fact.field != "firmware_wanted" or any(f.field == "driver" for f in sighting.facts):
        return None
    drivers = {d.name for d in load_kernel_drivers().for_firmware(fact.value)}
    return drivers.pop() if len(drivers) == 1 else None


def _ids_of_its_device(event: DmesgEvent, driver: KernelDriver) -> Sighting | None:
    """A device-less line printed from one of the driver's own ID formats (id_formats.tsv:
    brcmfmac's debug "brcmf_pcie_probe Enter 14e4:4488", pcie.c, its arguments pdev->vendor
    and pdev->device) gives the IDs of the driver's device, tied to it by lone_wifi_devices
    when the log shows it driving just one."""
    found = load_id_formats().ids_in(event.text)
    if found is None or (own := driver_for_files(found[1].files)) is None:
        return None
    if own.name != driver.name:
        return None
    sighting = Sighting([("wifi" if driver.wireless else "drv", driver.name)])
    why = f"{event.text[:200]} (the IDs as {found[1].files[0]} prints them)"
    sighting.add("ids", found[0], IDS_BY_FORMAT, why, event.line)
    return sighting
