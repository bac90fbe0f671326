"""A Wi-Fi chip named on its wiphy ("ieee80211 phy0: rt2x00_set_rt: Info - RT chipset 3070,
rev 0201 detected"), joined to the USB/PCI/SDIO device whose probe created that wiphy (issue 24,
ninth unseen set).

cfg80211 names a wiphy "phy%d" (net/wireless/core.c wiphy_new_nm()), not by its device; the
driver's probe creates it, so its first line follows that device's lines: the device named by
the log's last device line before it, when the two are at most _PROBE_WINDOW_S apart on the
kernel's clock (or adjacent where the log has no clock). A USB disconnect in between, or no
such line, joins nothing: the chip stays a Wi-Fi NIC of its own, with no bus and no IDs.
"""

from __future__ import annotations

from sbctune.catalog.wiphy_chips import wiphy_chip
from sbctune.inventory.parsers.dmesg import DmesgEvent
from sbctune.inventory.sightings import Key, Sighting, device_keys

_PROBE_WINDOW_S = 2.0
_BUSES = ("usb", "pci", "sdio")


class WiphyWatch:
    """Follows the log's lines in order; ``see(event)`` gives a wiphy chip's sighting."""

    def __init__(self) -> None:
        self.last: tuple[DmesgEvent, Key] | None = None  # the last line naming a device

    def see(self, event: DmesgEvent) -> Sighting | None:
        if event.kind == "wiphy":
            sighting = self._chip(event)
            self.last = None
            return sighting
        if event.kind == "usb_disconnect":
            self.last = None
        elif event.device and (found := device_keys(event.device)) and found[0] in _BUSES:
            self.last = (event, found[1])
        return None

    def _chip(self, event: DmesgEvent) -> Sighting | None:
        named = wiphy_chip(event.fields.get("message", ""))
        if named is None:
            return None
        key = self._device(event) or ("wiphy", f"{event.device}@{event.line}")
        sighting = Sighting([key])
        why = f"{event.text[:200]} (the chip as {named.family} prints it: {named.source})"
        sighting.add("chip_text", named.chip, "dmesg", why, event.line)
        sighting.add("wireless", True, "dmesg", why, event.line)
        sighting.add("wiphy", event.device, "dmesg", event.text, event.line)
        return sighting

    def _device(self, event: DmesgEvent) -> Key | None:
        if self.last is None:
            return None
        before, key = self.last
        if before.timestamp is None and event.timestamp is None:
            return key if event.line - before.line == 1 else None
        if before.timestamp is None or event.timestamp is None:
            return None
        return key if 0.0 <= event.timestamp - before.timestamp <= _PROBE_WINDOW_S else None
