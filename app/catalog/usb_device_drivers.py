"""The names the kernel's USB *device* drivers print their devices' lines under
(``resources/kernel_source/usb_device_drivers.json``, generated from Debian's linux-source-6.1
and 6.12 by ``scripts/regen_usb_device_drivers.py``: every ``struct usb_device_driver``'s
``.name``). The USB core's own lines about a device (hub.c's "reset ... USB device number",
"USB disconnect") are dev_info() on the device, so they carry the name of the driver bound to
the whole device: ``usb`` (generic.c) or, once r8152's configuration selector holds an RTL815x
adapter, ``r8152-cfgselector``."""

from __future__ import annotations

import functools
import json
import re

# The generic driver is always there (drivers/usb/core/generic.c usb_generic_driver)
_GENERIC = "usb"


@functools.cache
def device_driver_names() -> tuple[str, ...]:
    """Every USB device driver's name, the generic ``usb`` first."""
    from sbctune.resources import resource_root

    try:
        path = resource_root().joinpath("kernel_source", "usb_device_drivers.json")
        drivers = json.loads(path.read_text(encoding="utf-8")).get("drivers", {})
        names = [str(n) for n in drivers] if isinstance(drivers, dict) else []
    except (OSError, ValueError, AttributeError):
        names = []
    return (_GENERIC, *sorted(n for n in names if n != _GENERIC))


def device_prefix_pattern() -> str:
    """A regex alternation of those names (escaped constants of the table, no text of a log)."""
    return "(?:" + "|".join(re.escape(n) for n in device_driver_names()) + ")"
