"""A USB reset that a driver's probe made (r8152, mt7601u reset their device when they probe
it): the driver that probed a device the log names only by its port path (issue 24)."""

from __future__ import annotations

from sbctune.catalog.kernel_drivers import probe_resets
from sbctune.inventory.parsers.dmesg import DmesgEvent
from sbctune.inventory.sightings import Sighting

_PROBE_WINDOW_S = 2.0
# A log with no clock (pasted "<6>" lines, a console's): "right after" is a few lines later
_PROBE_WINDOW_LINES = 12
_OPEN_LIMIT = 64


def _soon_after(first: DmesgEvent, then: DmesgEvent) -> bool:
    """``then`` came within the probe window after ``first``: by the kernel's clock, or, where
    neither line has one, by the lines between them."""
    if first.timestamp is not None and then.timestamp is not None:
        return 0.0 <= then.timestamp - first.timestamp <= _PROBE_WINDOW_S
    if first.timestamp is None and then.timestamp is None:
        return 0 <= then.line - first.line <= _PROBE_WINDOW_LINES
    return False


class ProbeWatch:
    """Follows the log's lines in order: ``see(event)`` gives the sighting of a device that a
    driver's probe reset, when this line shows it: a driver just registered (its module
    loaded with the device there, or the device plugged in after), or, on a hot-plug with the
    module loaded already, the driver's own line about a device just enumerated and reset.
    Lines of other kinds than KINDS change nothing while no reset is open: a long log's
    caller passes only these, and every line while ``open`` holds a reset."""

    KINDS = frozenset({"driver_registered", "usb_reset", "usb_new_device", "usb_disconnect"})

    def __init__(self) -> None:
        self.probing: DmesgEvent | None = None  # a driver that resets on probe, just loaded
        self.reset_before: DmesgEvent | None = None  # a reset no such loading explained yet
        # resets no loading explained, by USB device, until a driver's own line explains one
        # (its module was loaded already: a hot-plug); the caller passes every line while any
        # is open, so it is kept small (dropped past the window)
        self.open: dict[str, DmesgEvent] = {}
        self.enumerated: dict[str, DmesgEvent] = {}  # a USB device's last "new ... USB device"
        self.expires = float("inf")  # when the oldest open reset leaves the window

    def see(self, event: DmesgEvent) -> Sighting | None:
        kind = event.kind
        if self.open and (own := self._own_line(event)) is not None:
            return own
        if kind not in self.KINDS:
            return None
        probed: Sighting | None = None
        if kind == "usb_disconnect" and event.device:
            self.open.pop(event.device, None)
            return None
        if kind == "driver_registered":
            self.probing = event if probe_resets(event.driver) else None
            # The device was there when the module loaded: usb_register_driver() probes it
            # (and its probe resets it) before it prints "registered new interface driver"
            # (drivers/usb/core/driver.c), so the reset comes first.
            if self.probing is not None and self.reset_before is not None:
                probed = probed_by(self.probing, self.reset_before, before=True)
                if probed is not None:
                    self.open.pop(self.reset_before.device or "", None)
            self.reset_before = None
        elif self.probing is not None and kind in ("usb_reset", "usb_new_device"):
            if kind == "usb_reset":
                probed = probed_by(self.probing, event)
            self.probing = None
        elif kind == "usb_reset":
            self.reset_before = event
        if kind == "usb_new_device" and event.device:
            self.enumerated[event.device] = event
            if len(self.enumerated) > _OPEN_LIMIT:
                self.enumerated.pop(next(iter(self.enumerated)))
        elif kind == "usb_reset" and probed is None and self._just_enumerated(event):
            self.open[event.device or ""] = event
            self.expires = min(self.expires, (event.timestamp or 0.0) + _PROBE_WINDOW_S)
            if len(self.open) > _OPEN_LIMIT:
                self.open.pop(next(iter(self.open)))
        return probed

    def _just_enumerated(self, reset: DmesgEvent) -> bool:
        """A probe's reset comes right after the device enumerated (a driver probes a new
        device at once); a reset later in the device's life is no probe's."""
        at = self.enumerated.pop(reset.device or "", None)
        return at is not None and _soon_after(at, reset)

    def _own_line(self, event: DmesgEvent) -> Sighting | None:
        """A driver whose probe resets its device speaking of an interface of a device reset
        just before ("usb 1-1.4: reset ..." then "mt7601u 1-1.4:1.0: ASIC revision ..."): the
        reset was that driver's probe (mt7601u_probe() calls usb_reset_device()), not a fault.
        Only a driver that resets on probe (usb_probe_resets.json), within the window."""
        ts = event.timestamp
        if ts is None:
            # no clock: the resets opened more than the window's lines ago are closed
            self.open = {p: o for p, o in self.open.items() if _soon_after(o, event)}
        elif ts > self.expires:  # the oldest open reset is past the window: drop those that are
            self.open = {
                path: opened
                for path, opened in self.open.items()
                if ts - (opened.timestamp or 0.0) <= _PROBE_WINDOW_S
            }
            stamps = [opened.timestamp or 0.0 for opened in self.open.values()]
            self.expires = min(stamps, default=float("inf")) + _PROBE_WINDOW_S
        device, driver = event.device, event.driver
        if not device or not driver or ":" not in device:
            return None
        reset = self.open.get(device.split(":")[0])
        if reset is None or not probe_resets(driver):
            return None
        del self.open[device.split(":")[0]]
        return probed_by(event, reset, before=True, own_line=True)


def probed_by(
    registered: DmesgEvent, reset: DmesgEvent, before: bool = False, own_line: bool = False
) -> Sighting | None:
    """The first USB reset right after a driver whose probe resets its device registered
    (r8152: rtl8152_probe_once() starts with usb_reset_device()), or, with ``before``, the
    last one just before it (the device was present when the module loaded): that driver
    probing this device, which the log names only by its port path. Both lines need the
    kernel's clock, or neither has one and they are a few lines apart."""
    if not reset.device or not (
        _soon_after(reset, registered) if before else _soon_after(registered, reset)
    ):
        return None
    sighting = Sighting([("usb", reset.device)])
    said = "spoke of the device right after" if own_line else "had just registered"
    why = (
        f"{reset.text} ({registered.driver} {said}, and its probe resets the "
        f"device: {probe_resets(registered.driver)}())"
    )
    sighting.add("probed_by", registered.driver, "dmesg", why, reset.line)
    return sighting
