"""A USB serial port's removal: "option1 ttyUSB0: GSM modem (1-port) converter now disconnected
from ttyUSB0". The USB serial core prints it on the port device, named ttyUSB<minor>, under its
usb-serial driver's name (drivers/usb/serial/bus.c usb_serial_device_remove(): dev_info(dev,
"%s converter now disconnected from ttyUSB%d\\n", driver->description, minor), 6.1 and 6.12).
The line names no USB device; usb_teardown.py ties it to the USB disconnect it follows."""

from __future__ import annotations

from .lazy_pattern import later

_NEEDLE = " converter now disconnected from ttyUSB"
_PORT_RE = later(
    r"^([\w-]{1,32}) (ttyUSB\d{1,3}): (\S.{0,80}) converter now disconnected from ttyUSB\d{1,3}$"
)


def usb_serial_gone(msg: str) -> tuple[str, dict[str, str]] | None:
    """("usb_serial_gone", its usb-serial driver, port and description), or None."""
    if _NEEDLE not in msg:  # per distinct message of a long log: the cheap test first
        return None
    m = _PORT_RE.match(msg)
    if m is None:
        return None
    return "usb_serial_gone", {"serial_driver": m.group(1), "port": m.group(2),
                               "description": m.group(3)}  # fmt: skip
