"""A USB device that left the bus and came back on another port: one device (issue 24).

rtw88's USB parts switch a chip to USB 3 mode when they probe it (rtw_usb_switch_mode(),
drivers/net/wireless/realtek/rtw88/usb.c): the dongle leaves its USB 2 port ("usb 1-1: USB
disconnect") and enumerates again on the root hub's USB 3 bus ("usb 2-1: new SuperSpeed USB
device") with the same IDs and serial number (hub.c announce_device() prints both). The log
names two port paths; the reader sees one dongle, now at the second.

The probe's own line says the same when no disconnect line is shown (a `dmesg | grep` of the
driver's name keeps no "USB disconnect"): after rtw_usb_switch_mode() asks the chip to switch,
rtw_usb_probe() prints "switching to USB 3 mode" and returns without registering the hardware
(usb.c, 6.12 and 7.2: rtw_dbg(); trees that print it at info level show it in a plain log), so
the device at that port path is gone from that line on. The one device that shows up later
with the same IDs and driver is the dongle back on its USB 3 port (no serial number needed:
the switch names the device that left)."""

from __future__ import annotations

from sbctune.inventory.graph import Device


def _said(device: Device, name: str) -> set[object]:
    return {f.value for f in device.all(name) if f.source == "dmesg"}


# rtw88's usb.c rtw_usb_probe(): the line printed when the chip was told to switch to USB 3
_SWITCHED = "switching to USB 3 mode"


def _switched_at(device: Device) -> int | None:
    """The order of the device's driver line that says it switches the chip to USB 3 mode."""
    said = [f.order for f in device.all("driver") if f.source == "dmesg" and _SWITCHED in f.line]
    return max(said) if said else None


def _left_at(device: Device) -> int | None:
    """The order of the device's last disconnect, if no enumeration came after it."""
    gone = [f.order for f in device.all("usb_disconnect")]
    if not gone:
        return None
    left = max(gone)
    return None if any(f.order > left for f in device.all("enumeration")) else left


def join_returned(found: list[Device]) -> list[Device]:
    """Each device that left is joined to the one device that enumerated after it with the
    same IDs and serial number (a serial number the port paths' own lines print)."""
    out = list(found)
    for gone in list(out):
        if (switched := _switched_at(gone)) is not None and gone in out:
            _join_switched(out, gone, switched)
            continue
        left = _left_at(gone)
        serials, ids = _said(gone, "usb_serial"), _said(gone, "ids")
        if left is None or not serials or not ids:
            continue
        back = [
            d
            for d in out
            if d is not gone
            and _said(d, "usb_serial") & serials
            and _said(d, "ids") & ids
            and min((f.order for f in d.all("enumeration")), default=-1) > left
        ]
        if len(back) == 1 and gone in out:
            keep = back[0]
            keep.keys |= gone.keys
            keep.facts += gone.facts
            out.remove(gone)
    return out


def _join_switched(out: list[Device], gone: Device, switched: int) -> None:
    """The device that left by its driver's USB 3 switch, joined to the one device whose log
    lines start after that line with the same IDs and driver (module docstring)."""
    ids, drivers = _said(gone, "ids"), _said(gone, "driver")
    if not ids or not drivers:
        return
    back = [
        d
        for d in out
        if d is not gone
        and _said(d, "ids") & ids
        and _said(d, "driver") & drivers
        and min((f.order for f in d.facts if f.source == "dmesg"), default=-1) > switched
    ]
    if len(back) == 1:
        keep = back[0]
        keep.keys |= gone.keys
        keep.facts += gone.facts
        out.remove(gone)
