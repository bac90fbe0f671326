"""A device-less line printed after a USB device left and before another arrived is about the
one that left: a hot-plug log (a Jetson Nano's, robot83's realsense bundle) shows rtl_usb's
"usbctrl_vendorreq TimeOut!" right after "usb 1-2.1: USB disconnect" and before 1-2.3 enumerates;
the device that came later cannot have printed them (6.1 rtlwifi/usb.c _usbctrl_vendorreq_sync()
retries a control transfer on the device it was given, the one unplugged)."""

from __future__ import annotations

from sbctune.inventory.found_index import FoundIndex
from sbctune.inventory.sightings import Key, Sighting

_SRC = "dmesg"


def _kernel_lines(sightings: list[Sighting], key: Key) -> list[int]:
    return [f.order for s in sightings if key in s.keys for f in s.facts if f.source == _SRC]


def came_after_a_departure(said: FoundIndex, device: Key, lines_of: Key) -> bool:
    """`device` first shows in the kernel log after the first device-less line keyed `lines_of`
    ("lib", "rtl_usb"), and a USB device left before that line: the lines are the departed
    device's, so no tie makes them `device`'s. A log with no departure keeps every tie."""
    if device[0] != "usb":
        return False
    usb = said.keyed("usb")
    departures = [f.order for s in usb for f in s.facts if f.field == "usb_disconnect"]
    if not departures:
        return False
    lines = _kernel_lines(said.keyed(lines_of[0]), lines_of)
    seen = _kernel_lines(usb, device)
    if not lines or not seen:
        return False
    first = min(lines)
    return min(seen) > first and min(departures) <= first
