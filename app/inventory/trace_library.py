"""A kernel trace in a driver family's bus part: a library module built for one bus of the
drivers that use it, named for that bus as a multi-bus driver's parts are (rtlwifi's rtl_usb and
rtl_pci, rtw88_usb, mt76_usb; catalog.kernel_drivers.bus_named_by reads a driver's function names
the same way). A frame in it (`_rtl_rx_completed+0xac/0x1bc [rtl_usb]`) says a device of that bus
ran one of the library's drivers: that device when the log shows one, else a NIC of that bus,
wireless when the library is one of drivers/net/wireless/, its driver not claimed."""

from __future__ import annotations

import functools

from sbctune.catalog.kernel_drivers import bus_word, load_kernel_drivers
from sbctune.catalog.library_modules import library_makefile, library_users
from sbctune.inventory.sightings import Sighting

PREFIX = "lib:"  # a trace key for a library module's bus part (trace_watch's directory keys)
_SRC = "dmesg"


@functools.cache
def library_part(module: str) -> str | None:
    """The trace key of a library module named for one of its users' buses, else None."""
    users = library_users(module)
    bus = bus_word(module)
    table = load_kernel_drivers()
    if bus is None or not any(bus in d.buses for n in users if (d := table.get(n)) is not None):
        return None
    return PREFIX + module


def uses(key: str, driver: str) -> bool:
    """Whether `driver` is one of the drivers that use the library of trace key `key`."""
    return driver in library_users(key.removeprefix(PREFIX))


def library_nic(key: str) -> Sighting:
    """The NIC a library part's trace stands for when the log shows none of its devices."""
    module = key.removeprefix(PREFIX)
    why = f"{module}: the kernel's trace ran in this library part of its drivers"
    own = Sighting([("trace", key)])
    own.add("bus", bus_word(module), _SRC, why)
    own.add("net_device", True, _SRC, why)  # only a network driver's device runs its code
    if (library_makefile(module) or "").startswith("drivers/net/wireless/"):
        own.add("wireless", True, _SRC, why)
    return own
