"""A driver that binds on several buses (brcmfmac: SDIO, USB and PCIe), whose lines in a log
name none of its devices ("ieee80211 phy0: brcmf_fw_crashed: ...", "brcmfmac: ..."): its bus
from the devices the log shows.

The driver drives a device on one of its buses. The candidates are the log's devices on those
buses that no other driver claims and that could be this driver's: a USB or PCI device whose
IDs are shown only if the driver's ID table lists them, a card on an MMC host only if the log
does not show it to be a memory card (an MMC, SD, SDHC, SDXC or SDUC card, or a card with a
disk, ``mmcblk0: mmc0:aaaa ...``). When every candidate is on one bus, that is the driver's
bus; the line that showed the first of them is the evidence and says how. With candidates on
two buses, or none, nothing is concluded.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sbctune.catalog.kernel_drivers import KernelDriver, load_kernel_drivers
from sbctune.inventory.found_index import FoundIndex
from sbctune.inventory.sightings import Fact, Key, Sighting

_SRC = "dmesg"
_BUS_OF_KEY = {"usb": "usb", "pci": "pci", "sdio": "sdio"}  # a device key's kind -> its bus
_BUS_WORD = {"usb": "USB", "pci": "PCIe", "sdio": "SDIO"}
_OWNERS = ("driver", "refused_by", "probed_by")
# mmc_add_card()'s types that are memory (drivers/mmc/core/bus.c): no SDIO function on them
_MEMORY = {"MMC", "SD", "SDHC", "SDXC", "SDUC", "disk"}  # "not shown" may be SDIO


@dataclass
class _Seen:
    """What the log says of one device key."""

    owners: set[str] = field(default_factory=set)
    ids: set[str] = field(default_factory=set)
    cards: dict[str, set[str]] = field(default_factory=dict)  # a card's address -> its types
    first: Fact | None = None  # the first line that showed it


def _devices(said: FoundIndex) -> dict[Key, _Seen]:
    seen: dict[Key, _Seen] = {}
    for sighting in said.keyed(*_BUS_OF_KEY):  # the others have no key read here
        keys = [k for k in sighting.keys if k[0] in _BUS_OF_KEY]
        for key in keys:
            item = seen.setdefault(key, _Seen())
            for fact in sighting.facts:
                if fact.field in _OWNERS and isinstance(fact.value, str):
                    item.owners.add(fact.value)
                elif fact.field == "ids" and isinstance(fact.value, str):
                    item.ids.add(fact.value.lower())
                elif fact.field == "mmc_card" and isinstance(fact.value, tuple):
                    address, kind = fact.value
                    item.cards.setdefault(str(address), set()).add(str(kind))
                if fact.source == _SRC and (item.first is None or fact.order < item.first.order):
                    item.first = fact
    return seen


def _could_be(driver: KernelDriver, listed: set[tuple[str, str]], key: Key, item: _Seen) -> bool:
    if item.owners - {driver.name} or item.first is None:
        return False  # another driver's device (a hub, a keyboard's usbhid, smsc95xx ...)
    bus = _BUS_OF_KEY[key[0]]
    if bus not in driver.buses:
        return False
    if bus == "sdio":  # an MMC host: a card of it (by its address) that may be an SDIO one
        return any(not kinds <= _MEMORY for kinds in item.cards.values())
    return all((bus, ids) in listed for ids in item.ids)


def _without_device(found: list[Sighting], index: FoundIndex | None = None) -> set[str]:
    """Drivers whose lines have a ("wifi", driver) key but that the log shows on no device
    and gives no bus."""
    said = index or FoundIndex(found)
    wifi = said.keyed("wifi")
    wanted = {k[1] for s in wifi for k in s.keys if k[0] == "wifi"}
    # none of the others' facts could name an owner
    for sighting in said.saying(*_OWNERS) if wanted else ():
        if not wanted:
            break
        if not any(k[0] in _BUS_OF_KEY for k in sighting.keys):
            continue
        for fact in sighting.facts:
            if fact.field in _OWNERS and fact.value in wanted:
                wanted.discard(str(fact.value))
    for sighting in wifi:  # a ("wifi", driver) line that says its bus
        for key in sighting.keys:
            if key[0] == "wifi" and any(f.field == "bus" for f in sighting.facts):
                wanted.discard(key[1])
    return wanted


def buses_by_elimination(found: list[Sighting], index: FoundIndex | None = None) -> list[Sighting]:
    """A sighting giving each such driver's ("wifi", driver) device its bus, when the log's
    devices leave one. (`index`: found's, when made already.)"""
    said = index or FoundIndex(found)
    wanted = _without_device(found, said)
    if not wanted:
        return []
    table = load_kernel_drivers()
    devices = _devices(said)
    out: list[Sighting] = []
    for name in sorted(wanted):
        driver = table.get(name)
        if driver is None or len({b for b in driver.buses if b in _BUS_WORD}) < 2:
            continue
        listed = set(table.ids_of(name))
        fits = sorted(
            (item.first.order, key)
            for key, item in devices.items()
            if item.first is not None and _could_be(driver, listed, key, item)
        )
        buses = {_BUS_OF_KEY[key[0]] for _order, key in fits}
        if len(buses) != 1:
            continue
        bus = buses.pop()
        first = devices[fits[0][1]].first
        assert first is not None
        what = ", ".join(key[1] for _o, key in fits[:3]) + (" ..." if len(fits) > 3 else "")
        on = ", ".join(_BUS_WORD[b] for b in driver.buses if b in _BUS_WORD)
        why = (
            f"{first.line} ({name} binds on {on}; "
            f"the only devices this log shows on them that no other driver claims are on "
            f"{_BUS_WORD[bus]}: {what})"
        )
        sighting = Sighting([("wifi", name)])
        sighting.add("bus", bus, _SRC, why, first.order)
        out.append(sighting)
    return out
