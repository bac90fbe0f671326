"""A USB reset that a driver's probe made (r8152 resets its device when it probes it): the
driver that probed a device the log names only by its port path (issue 24)."""

from __future__ import annotations

from sbctune.catalog.kernel_drivers import probe_resets
from sbctune.inventory.parsers.dmesg import DmesgEvent
from sbctune.inventory.sightings import Sighting

_PROBE_WINDOW_S = 2.0


class ProbeWatch:
    """Follows the log's lines in order: ``see(event)`` gives the sighting of a device that a
    just-registered driver's probe reset, when this line shows it. Lines of other kinds than
    KINDS change nothing: a long log's caller passes only these."""

    KINDS = frozenset({"driver_registered", "usb_reset", "usb_new_device"})

    def __init__(self) -> None:
        self.probing: DmesgEvent | None = None  # a driver that resets on probe, just loaded
        self.reset_before: DmesgEvent | None = None  # a reset no such loading explained yet

    def see(self, event: DmesgEvent) -> Sighting | None:
        kind = event.kind
        probed: Sighting | None = None
        if kind == "driver_registered":
            self.probing = event if probe_resets(event.driver) else None
            # The device was there when the module loaded: usb_register_driver() probes it
            # (and its probe resets it) before it prints "registered new interface driver"
            # (drivers/usb/core/driver.c), so the reset comes first.
            if self.probing is not None and self.reset_before is not None:
                probed = probed_by(self.probing, self.reset_before, before=True)
            self.reset_before = None
        elif self.probing is not None and kind in ("usb_reset", "usb_new_device"):
            if kind == "usb_reset":
                probed = probed_by(self.probing, event)
            self.probing = None
        elif kind == "usb_reset":
            self.reset_before = event
        return probed


def probed_by(registered: DmesgEvent, reset: DmesgEvent, before: bool = False) -> Sighting | None:
    """The first USB reset right after a driver whose probe resets its device registered
    (r8152: rtl8152_probe_once() starts with usb_reset_device()), or, with ``before``, the
    last one just before it (the device was present when the module loaded): that driver
    probing this device, which the log names only by its port path. Both lines need the
    kernel's clock."""
    if registered.timestamp is None or reset.timestamp is None or not reset.device:
        return None
    gap = reset.timestamp - registered.timestamp
    if not 0.0 <= (-gap if before else gap) <= _PROBE_WINDOW_S:
        return None
    sighting = Sighting([("usb", reset.device)])
    why = (
        f"{reset.text} ({registered.driver} had just registered, and its probe resets the "
        f"device: {probe_resets(registered.driver)}())"
    )
    sighting.add("probed_by", registered.driver, "dmesg", why, reset.line)
    return sighting
