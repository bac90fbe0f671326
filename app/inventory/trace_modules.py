"""Which of a traced directory's drivers ran, by the trace's own `Modules linked in:` line
(issue 24, the seventy-ninth set).

A WARNING in a file several drivers share (`WARNING: ... at drivers/net/wireless/realtek/
rtw88/ps.c:107 rtw_power_mode_change+0xe6/0x120 [rtw88_core]`: rtw88's power-save code, which
rtw_8822ce, rtw_8821ce and a dozen others use) names the directory, not the driver. The code
ran for a device of one of them; a driver whose module is not loaded has no device. The
kernel prints the loaded modules right after the head (kernel/module/main.c print_modules(),
"Modules linked in:"): when exactly one module in that list is a device driver of the
directory (a module whose alias table lists IDs, modules.alias of Debian's kernels:
resources/ids/drivers.json), that driver is the device's. Library modules of the directory
(rtw88_core, rtw88_pci, rtw88_8822c) have no alias table and do not count. The list names
loaded modules, not the code that ran: it is read only to choose among the directory's
drivers, never to name a NIC of its own.
"""

from __future__ import annotations

import functools
from pathlib import PurePosixPath

from sbctune.catalog.ids import load_ids
from sbctune.catalog.kernel_drivers import load_kernel_drivers

_MAX_MODULES = 400  # a list is some 50-200 names; a longer one is not the kernel's
_BUSES = ("usb", "pci", "sdio")


def listed_modules(message: str) -> tuple[str, ...]:
    """The module names of a `Modules linked in:` line ("88x2bu(O)" → "88x2bu")."""
    _, _, names = message.partition("Modules linked in:")
    out = []
    for word in names.split()[:_MAX_MODULES]:
        name = word.split("(", 1)[0].strip("[]")
        if name and len(name) <= 64:
            out.append(name.replace("-", "_"))
    return tuple(out)


def driver_among(directory: str, modules: tuple[str, ...]) -> str | None:
    """The one driver of `directory` whose module the list names; None for none or several."""
    found = {d for m in modules for d in _drivers_of_module(m, directory)}
    return found.pop() if len(found) == 1 else None


@functools.lru_cache(maxsize=1024)
def _drivers_of_module(module: str, directory: str) -> frozenset[str]:
    """The kernel's drivers in `directory` that the module's alias table binds."""
    ids_db = load_ids()
    known = ids_db.module(module)
    if known is None or str(PurePosixPath(known.path).parent) != directory:
        return frozenset()
    table = load_kernel_drivers()
    out: set[str] = set()
    for bus in _BUSES:
        for ids, modules in ids_db.drivers.get(bus, {}).items():
            if module not in modules:
                continue
            for driver in table.for_ids(bus, ids):
                if driver.file and str(PurePosixPath(driver.file).parent) == directory:
                    out.add(driver.name)
    return frozenset(out)
