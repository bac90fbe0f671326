"""A Wi-Fi chip named on its wiphy ("ieee80211 phy0: rt2x00_set_rt: Info - RT chipset 3070,
rev 0201 detected"), joined to the USB/PCI/SDIO device whose probe created that wiphy (issue 24,
ninth unseen set).

cfg80211 names a wiphy "phy%d" (net/wireless/core.c wiphy_new_nm()), not by its device; the
driver's probe creates it, so its first line follows that device's lines: the device named by
the log's last device line before it, when the two are at most _PROBE_WINDOW_S apart on the
kernel's clock (or adjacent where the log has no clock), and that line is the bus core's or
a driver's of the chip's family. A USB disconnect in between, or no
such line, or a device on another bus, joins nothing: the chip stays a Wi-Fi NIC of its own,
with no bus and no IDs. Per line of a long log this costs a kind test; the device's name is
read only when a wiphy line comes.
"""

from __future__ import annotations

from sbctune.catalog.kernel_drivers import load_kernel_drivers
from sbctune.catalog.wiphy_chips import wiphy_chip
from sbctune.inventory.parsers.dmesg import DmesgEvent
from sbctune.inventory.sightings import Key, Sighting, device_keys

_PROBE_WINDOW_S = 2.0
_BUSES = ("usb", "pci", "sdio")


class WiphyWatch:
    """Follows the log's lines in order; ``see(event)`` gives a wiphy chip's sighting."""

    def __init__(self) -> None:
        self.last: DmesgEvent | None = None  # the last line naming a device

    def see(self, event: DmesgEvent) -> Sighting | None:
        # per line of a long log: no regex here; the device is read when a wiphy line comes
        if event.kind == "wiphy":
            sighting = self._chip(event)
            self.last = None
            return sighting
        if event.kind == "usb_disconnect":
            self.last = None
        elif event.fields.get("device"):  # event.device without its property's call
            self.last = event
        return None

    def _chip(self, event: DmesgEvent) -> Sighting | None:
        named = wiphy_chip(event.fields.get("message", ""))
        if named is None:
            return None
        # unjoined: one NIC per wiphy name and chip, however often the log says the line
        key = self._device(event, named.family) or ("wiphy", f"{event.device} {named.chip}")
        sighting = Sighting([key])
        why = f"{event.text[:200]} (the chip as {named.family} prints it: {named.source})"
        sighting.add("chip_text", named.chip, "dmesg", why, event.line)
        sighting.add("wireless", True, "dmesg", why, event.line)
        sighting.add("wiphy", event.device, "dmesg", event.text, event.line)
        return sighting

    def _device(self, event: DmesgEvent, family: str) -> Key | None:
        before = self.last
        found = device_keys(before.device) if before is not None else None
        if before is None or found is None or found[0] not in _BUSES:
            return None
        if not _bus_core_or_family(before.driver, family):
            return None  # "r8169 0000:02:00.0 eth0: ..." just before: another driver's device
        if before.timestamp is None and event.timestamp is None:
            return found[1] if event.line - before.line == 1 else None
        if before.timestamp is None or event.timestamp is None:
            return None
        gap = event.timestamp - before.timestamp
        return found[1] if 0.0 <= gap <= _PROBE_WINDOW_S else None


def _bus_core_or_family(driver: str | None, family: str) -> bool:
    """The line before is the bus core's ("usb 1-1.2: reset ...", "pci 0000:01:00.0: ...") or
    a driver of the wiphy's family (rt2800usb's file is under rt2x00/)."""
    if driver in (None, "usb", "pci", "usbcore", "mmc"):
        return True
    known = load_kernel_drivers().get(driver)
    return known is not None and f"/{family}/" in (known.file or "")
