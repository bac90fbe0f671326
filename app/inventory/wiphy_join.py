"""A Wi-Fi chip named on its wiphy ("ieee80211 phy0: rt2x00_set_rt: Info - RT chipset 3070,
rev 0201 detected"), joined to the USB/PCI/SDIO device whose probe created that wiphy (issue 24,
ninth unseen set).

cfg80211 names a wiphy "phy%d" (net/wireless/core.c wiphy_new_nm()), not by its device; the
driver's probe creates it, so its first line follows that device's lines: the device named by
the log's last device line before it, when the two are at most _PROBE_WINDOW_S apart on the
kernel's clock (or adjacent where the log has no clock), and that line is the bus core's or
a driver's of the chip's family. A USB disconnect in between, or no
such line, or a device on another bus, joins nothing: the chip stays a Wi-Fi NIC of its own,
with no bus and no IDs. An SoC's own radio joins its platform device the same way, by its
driver's line only. Per line of a long log this costs a kind test; the device's name is
read only when a wiphy line comes.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterator
from itertools import chain, repeat
from operator import itemgetter

from sbctune.catalog.kernel_drivers import load_kernel_drivers
from sbctune.catalog.wiphy_chips import wiphy_chip
from sbctune.inventory.parsers.dmesg import DmesgEvent, DmesgResult
from sbctune.inventory.sightings import Key, Sighting, device_keys

_PROBE_WINDOW_S = 2.0
_BUSES = ("usb", "pci", "sdio")


# The kinds ``see`` reads whatever their fields; of other lines it reads only those naming a
# device (fields["device"]). from_dmesg calls ``at`` for these kinds alone: the lines naming
# a device in between are read then, in one loop, not by a call per line (~4 * 10^4 in a long
# log, whose wiphy lines are a few hundred at most).
KINDS = ("wiphy", "usb_disconnect")
# lines from_dmesg gives no watcher but their own (IpConfigWatch's), so never this one
_NOT_PASSED = "ip_config"


class NamedLines:
    """A log's lines naming a device, as ``see`` keeps them (not an IP configuration's line):
    their places in its columns (DmesgResult.columns), in order, found per distinct message
    (DmesgResult.places), and each one's driver."""

    def __init__(self, log: DmesgResult) -> None:
        said = log.columns.said
        named = [
            at
            for at in log.places().values()
            if said[at[0]][1].get("device") and said[at[0]][0] != _NOT_PASSED
        ]
        self.places = sorted(chain.from_iterable(named))
        self.said = said

    def drivers(self, places: list[int]) -> Iterator[str | None]:
        """The driver of each of these places' lines (in C)."""
        fields = map(itemgetter(1), map(self.said.__getitem__, places))
        return map(dict.get, fields, repeat("driver"))


class WiphyWatch:
    """Follows the log's lines in order; ``see(event)`` gives a wiphy chip's sighting."""

    def __init__(self) -> None:
        self.last: DmesgEvent | None = None  # the last line naming a device
        # each driver's last line naming a device (a probe's lines may be followed by another
        # driver's before the wiphy line: i915's "irq 44 for MSI/MSI-X" between ath9k's
        # "0000:02:00.0: PCI INT A" and "phy0: Atheros AR9285 ..."); bus cores not kept.
        # ``at_columns`` keeps a line's place in the columns instead, its event made only
        # when a wiphy line reads it (``_event``): a long log's ~720 catch-ups keep ~14 000
        # lines, of which a few dozen are read
        self.by_driver: dict[str, DmesgEvent | int] = {}
        self._event_at: Callable[[int], DmesgEvent] | None = None
        self._read_to = 0  # ``at``: the index in the events of the first line not yet read

    def at(self, events: list[DmesgEvent], index: int) -> Sighting | None:
        """``see(events[index])`` (a line of KINDS) after ``see`` of each line before it since
        the last such line that names a device: what calling ``see`` on every line of a log
        gives, with the lines between read here in a loop, without a call each."""
        last, by_driver = self.last, self.by_driver
        for event in events[self._read_to : index]:
            fields = event.fields
            if fields.get("device") and event.kind != _NOT_PASSED:
                last = event
                driver = fields.get("driver")
                if driver in by_driver or (
                    driver and driver not in _BUS_CORES and len(by_driver) < 64
                ):
                    by_driver[driver] = event
        self.last, self._read_to = last, index + 1
        return self.see(events[index])

    def at_columns(
        self, named: NamedLines, event_at: Callable[[int], DmesgEvent], index: int
    ) -> Sighting | None:
        """``at`` over a log's columns: the lines naming a device between the last call and
        this one found by bisection, each driver's last of them in C (a dict keeps the
        drivers in the order they first came, as ``see`` would have met them); only the
        events kept are made (``event_at``)."""
        places = named.places
        low, high = bisect_left(places, self._read_to), bisect_left(places, index)
        if high > low:
            span = places[low:high]
            by_driver = self.by_driver
            latest = dict(zip(named.drivers(span), span, strict=True))
            self._event_at = event_at
            for driver, place in latest.items():
                if driver in by_driver or (
                    driver and driver not in _BUS_CORES and len(by_driver) < 64
                ):
                    by_driver[driver] = place  # its event made when read (_event)
            self.last = event_at(places[high - 1])
        self._read_to = index + 1
        return self.see(event_at(index))

    def see(self, event: DmesgEvent) -> Sighting | None:
        # per line of a long log: no regex here; the device is read when a wiphy line comes
        kind = event.kind
        if kind == "wiphy":
            sighting = self._chip(event)
            self.last = None
            return sighting
        if kind == "usb_disconnect":
            self.last = None
            self.by_driver.clear()
            return None
        fields = event.fields  # event.device and .driver without their properties' calls
        if fields.get("device"):
            self.last = event
            driver = fields.get("driver")
            by_driver = self.by_driver
            if driver in by_driver or (driver and driver not in _BUS_CORES and len(by_driver) < 64):
                by_driver[driver] = event
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
        if before is not None and not _bus_core_or_family(before.driver, family):
            # "r8169 0000:02:00.0 eth0: ..." just before: another driver's device; the
            # family's own driver's last line, if it is within the window, made the wiphy
            before = self._family_line(family)
            if before is None or before.timestamp is None:
                return None  # without a clock, only the line just before is the probe's
        found = device_keys(before.device) if before is not None else None
        if before is None or found is None or found[0] not in (*_BUSES, "platform"):
            return None
        if not _bus_core_or_family(before.driver, family, found[0] == "platform"):
            return None  # an SoC radio's line must be its own driver's, not a bus core's
        if before.timestamp is None and event.timestamp is None:
            return found[1] if event.line - before.line == 1 else None
        if before.timestamp is None or event.timestamp is None:
            return None
        gap = event.timestamp - before.timestamp
        return found[1] if 0.0 <= gap <= _PROBE_WINDOW_S else None

    def _family_line(self, family: str) -> DmesgEvent | None:
        """The latest line of a driver of the wiphy's family, when only one device of the
        family spoke (two: which one made the wiphy is not said)."""
        lines = [
            self._event(e) for d, e in self.by_driver.items() if _bus_core_or_family(d, family)
        ]
        devices = {e.device for e in lines}
        return max(lines, key=lambda e: e.line) if len(devices) == 1 else None

    def _event(self, kept: DmesgEvent | int) -> DmesgEvent:
        """A kept line's event: kept as one, or made now from its place (``at_columns``)."""
        if isinstance(kept, DmesgEvent):
            return kept
        assert self._event_at is not None  # a place is kept only by at_columns, which sets it
        return self._event_at(kept)


_BUS_CORES = (None, "usb", "pci", "usbcore", "mmc")


def _bus_core_or_family(driver: str | None, family: str, platform: bool = False) -> bool:
    """The line before is the bus core's ("usb 1-1.2: reset ...", "pci 0000:01:00.0: ...") or
    a driver of the wiphy's family (rt2800usb's file is under rt2x00/). An SoC's own radio
    (platform bus: "rt2800_wmac 10180000.wmac: ...", rt2x00/rt2800soc.c) only by its driver:
    the platform bus core prints no such line."""
    if not platform and driver in _BUS_CORES:
        return True
    known = load_kernel_drivers().get(driver)
    return known is not None and f"/{family}/" in (known.file or "")
