"""A USB serial port removed in the teardown of a USB disconnect is that device's port.

usb_disconnect() (drivers/usb/core/hub.c) prints "USB disconnect, device number N" and then,
in the same call, unbinds the device's interfaces: each driver's disconnect runs there, and
the USB serial core removes the device's ports, printing "option1 ttyUSB0: GSM modem (1-port)
converter now disconnected from ttyUSB0" (drivers/usb/serial/bus.c usb_serial_device_remove(),
6.1 and 6.12). The port line names no USB device: it is the one just disconnected when it
comes within the teardown's moments (a second by the kernel's clock, a few lines without
one) and no other device was disconnected in between. A port of a modem driver (option,
qcserial, sierra: wwan_usb_ids.json "serial_drivers") says the device is a modem
(corpus/dwr512_lede_pr641_*: its cdc_ether usb0 and option's ttyUSB0 go together)."""

from __future__ import annotations

from sbctune.catalog.wwan_ids import serial_modem_driver
from sbctune.inventory.parsers.dmesg import DmesgEvent
from sbctune.inventory.sightings import Sighting

_TEARDOWN_S = 1.0
_TEARDOWN_LINES = 8


class TeardownWatch:
    """Follows the log's disconnects: ``see(event)`` gives the sighting of a modem port that
    a just-disconnected device had. Only lines of KINDS change anything."""

    KINDS = frozenset({"usb_disconnect", "usb_serial_gone"})

    def __init__(self) -> None:
        self.last: DmesgEvent | None = None

    def see(self, event: DmesgEvent) -> Sighting | None:
        if event.kind == "usb_disconnect":
            self.last = event if event.device else None
            return None
        gone = self.last
        if gone is None or not _within(gone, event):
            return None
        module = serial_modem_driver(event.fields.get("serial_driver"))
        if module is None:
            return None
        sighting = Sighting([("usb", str(gone.device))])
        why = (
            f"{event.text[:200]} (a port of {module}, a modem driver, removed in the teardown "
            f"of {gone.device}'s disconnect: {gone.text[:120]})"
        )
        sighting.add("modem_port", module, "dmesg", why, event.line)
        return sighting


def _within(gone: DmesgEvent, then: DmesgEvent) -> bool:
    if gone.timestamp is not None and then.timestamp is not None:
        return 0.0 <= then.timestamp - gone.timestamp <= _TEARDOWN_S
    if gone.timestamp is None and then.timestamp is None:
        return 0 <= then.line - gone.line <= _TEARDOWN_LINES
    return False
