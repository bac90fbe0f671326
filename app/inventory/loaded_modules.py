"""A USB or PCI device whose driver `lsmod` shows is not loaded.

`lsmod` lists the modules loaded, never the drivers built into the kernel, so a driver missing
from it may still be there. Kconfig rules that out when a library module the driver needs is
listed: a driver that selects or depends on a library through tristate symbols only cannot be
built in (=y) while the library is a module (=m) (library_modules.json's "needed_by"; a bool
between them may be y over an m library, so such a path does not count). So when every driver
whose ID table lists the device's IDs is missing from `lsmod` and needs a library module `lsmod`
lists, no driver of the kernel's drives the device. A module no table knows whose name encodes
a chip (an out-of-tree driver, Realtek's 8192cu) might: then nothing is concluded.
"""

from __future__ import annotations

from sbctune.catalog.ids import load_ids
from sbctune.catalog.library_modules import libraries_of, library_users
from sbctune.catalog.oot_chips import out_of_tree_chip
from sbctune.inventory.parsers.lsmod import LoadedModules


def drivers_not_loaded(bus: str | None, ids: str | None, modules: LoadedModules | None) -> str:
    """Why no driver drives the device with these IDs ("" when lsmod cannot say): the
    drivers whose ID tables list it, none loaded, each shown not built in."""
    if modules is None or bus not in ("usb", "pci") or not ids:
        return ""
    drivers = load_ids().drivers_for(bus, ids)
    if not drivers or any(modules.loaded(d) for d in drivers):
        return ""
    if any(out_of_tree_chip(name) for name in modules.modules):
        return ""  # an out-of-tree driver is loaded: it may bind the device
    shown: list[str] = []
    for driver in drivers:
        # the library fewest drivers share first: ath9k_hw says more than ath
        loaded = sorted(
            (lib for lib in libraries_of(driver) if modules.loaded(lib)),
            key=lambda lib: (len(library_users(lib)), lib),
        )
        if not loaded:
            return ""  # it may be built in
        shown.append(f"{driver} (not built in either: it needs {loaded[0]}, a loaded module)")
    which = "the driver" if len(shown) == 1 else "no driver"
    head = f"{modules.source}: {which} whose ID table lists {ids[:9]} is not loaded: "
    return head + "; ".join(shown)
