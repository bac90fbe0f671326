"""Ties a driver's (or a library module's) lines that name no device to that driver's one
device, when the log shows it driving (or trying) just one: the sightings of
``driver_line_sightings`` keyed ("wifi", driver), ("drv", driver) or ("lib", library) joined to
the device's bus key. With two such devices, nothing ties them."""

from __future__ import annotations

from sbctune.catalog.ids import load_ids
from sbctune.catalog.kernel_drivers import load_kernel_drivers
from sbctune.catalog.library_modules import library_users
from sbctune.inventory.found_index import FoundIndex
from sbctune.inventory.sightings import Fact, Key, Sighting, says_any
from sbctune.inventory.usb_departures import came_after_a_departure


def lone_wifi_devices(found: list[Sighting], index: FoundIndex | None = None) -> list[Sighting]:
    """A Wi-Fi driver's lines that name no device ("ath9k_htc: Failed to initialize the
    device") are about its one device when the log shows it driving (or trying) just one:
    a sighting that ties the two. With two such devices, nothing ties them. So are a wired
    driver's complaints ("drv" keys), on any bus, and a library module's ("lib" keys) when the
    log shows one device of all the drivers that use it. (`index`: found's, when made already.)"""
    said = index or FoundIndex(found)
    wanted = {k[1]: k[0] for s in said.keyed(*_TIED) for k in s.keys if k[0] in _TIED}
    libraries = {k[1] for s in said.keyed("lib") for k in s.keys if k[0] == "lib"}
    if not wanted and not libraries:
        return []
    users = {lib: library_users(lib) for lib in libraries}
    used = set().union(*users.values()) if users else set()
    devices = _devices_of_drivers(found, wanted, used, said)
    ties = _driver_ties(devices, wanted) + _library_ties(devices, users)
    # lines printed after a USB device left and before this one came are the departed one's
    return [t for t in ties if not came_after_a_departure(said, t.keys[0], t.keys[1])]


_TIED = ("wifi", "drv", "winfo")


def _bus_keys(sighting: Sighting, kind: str) -> set[Key]:
    """A wired driver's ("drv") device may be a platform one; a Wi-Fi driver's is on a bus."""
    buses = ("usb", "pci", "sdio") + (("platform",) if kind == "drv" else ())
    return {k for k in sighting.keys if k[0] in buses}


def _devices_of_drivers(
    found: list[Sighting],
    wanted: dict[str, str],
    used: frozenset[str] | set[str],
    index: FoundIndex | None = None,
) -> dict[str, set[Key]]:
    """Each wanted (or library-using) driver's devices, by their bus keys; a wired driver's
    interface stands for its device when the log names no other (an older kernel's)."""
    said = index or FoundIndex(found)
    devices: dict[str, set[Key]] = {}
    ifaces: dict[str, set[Key]] = {}
    # _driver_of gives None for each fact of the others
    for sighting in said.saying(*_DRIVER_FIELDS):
        for fact in sighting.facts:
            if fact.field not in _DRIVER_FIELDS:
                continue  # _driver_of gives None (a call per fact saved: ~10^4 on a long log)
            driver = _driver_of(fact, sighting)
            if driver is None or (driver not in wanted and driver not in used):
                continue
            devices.setdefault(driver, set()).update(_bus_keys(sighting, wanted.get(driver, "drv")))
            if fact.field == "driver" and wanted.get(driver) == "drv":
                ifaces.setdefault(driver, set()).update(k for k in sighting.keys if k[0] == "if")
    for driver, named in ifaces.items():
        if not devices.get(driver):  # "eth0: Freescale FEC PHY driver ...": eth0 alone
            devices[driver] = named
    # a Wi-Fi driver's own device-less lines (driver_line_sightings._info_of_its_device) are
    # about a device its alias table lists as much as a library's are: the bus core bound it
    # by those IDs; a wired driver's complaint ("drv") keeps needing a line that names its device
    listed = set(used) | {d for d, kind in wanted.items() if kind in ("wifi", "winfo")}
    if listed:
        for sighting in said.saying("ids"):  # _alias_drivers gives the others none
            for driver in _alias_drivers(sighting, listed):
                devices.setdefault(driver, set()).update(_bus_keys(sighting, "wifi"))
    return devices


def _alias_drivers(sighting: Sighting, used: frozenset[str] | set[str]) -> list[str]:
    """The library users whose alias table names a device no line gives a driver: the bus core
    matches a device to a driver by those IDs (usb_match_id(), pci_match_id()), so a library's
    line about a user's device, where the log shows one such device, is about it (rt2x00lib's
    "phy0 -> rt2x00lib_probe_dev: ..." beside a 148f:3070 that rt2800usb's table lists)."""
    # read in C (says_any): called for every sighting of the log (~5 000 on a long one, a
    # counted line's with a fact per repeat), of which a few dozen hold IDs
    if not says_any(sighting, _IDS) or says_any(sighting, _DRIVEN):
        return []
    ids = next((str(f.value) for f in sighting.facts if f.field == "ids"), None)
    buses = {k[0] for k in sighting.keys if k[0] in ("usb", "pci", "sdio")}
    if ids is None or len(buses) != 1:
        return []
    return [d for d in load_ids().drivers_for(buses.pop(), ids) if d in used]


def _driver_ties(devices: dict[str, set[Key]], wanted: dict[str, str]) -> list[Sighting]:
    ties: list[Sighting] = []
    for driver, keys in sorted(devices.items()):
        if driver not in wanted or len(keys) != 1:
            continue
        kinds = ("wifi", "winfo") if wanted[driver] in ("wifi", "winfo") else (wanted[driver],)
        ties.append(Sighting([next(iter(keys)), *((kind, driver) for kind in kinds)]))
    return ties


def untied_info(found: list[Sighting]) -> list[Sighting]:
    """``found`` without the ("winfo", driver) sightings no tie joined to a device: a Wi-Fi
    driver's device-less report names its driver only for the one device it is about; with
    none or two, it is no device of its own (`found` itself when nothing is left out)."""
    info = {k for s in found for k in s.keys if k[0] == "winfo"}
    if not info:
        return found
    tied = {k for s in found if len(s.keys) > 1 for k in s.keys if k in info}
    kept = [s for s in found if not (s.keys and set(s.keys) <= info - tied)]
    return kept if len(kept) != len(found) else found


def _library_ties(devices: dict[str, set[Key]], users: dict[str, frozenset[str]]) -> list[Sighting]:
    ties: list[Sighting] = []
    for lib, its_users in sorted(users.items()):
        keys = set().union(*(k for d, k in devices.items() if d in its_users))
        if len(keys) == 1:
            ties.append(Sighting([next(iter(keys)), ("lib", lib)]))
    return ties


_IDS = frozenset(("ids",))
_DRIVEN = frozenset(("driver", "refused_by"))
# the fields _driver_of reads a driver from (any other fact gives None)
_DRIVER_FIELDS = frozenset(("driver", "refused_by", "firmware_wanted"))


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
