"""driver_chips.bound_ids() reads modules.alias's IDs from one index by module, made in one
pass over the ID tables (issue 24, speed: it scanned all ~3 500 USB/PCI IDs again for each
driver asked): for every module the tables name, what it gives is what the scan gave."""

from __future__ import annotations

import pytest

from sbctune.catalog import driver_chips
from sbctune.catalog.ids import load_ids
from sbctune.catalog.kernel_drivers import load_kernel_drivers


def _scanned(driver: str) -> tuple[tuple[str, str], ...]:
    """bound_ids() as it was (bcb75921): the ID tables scanned for the driver."""
    wanted = driver.replace("-", "_")
    found = set(load_kernel_drivers().ids_of(wanted))
    for bus, table in load_ids().drivers.items():
        if bus in ("pci", "usb"):
            found.update((bus, key) for key, mods in table.items() if wanted in mods)
    return tuple(sorted((bus, key) for bus, key in found if bus in ("pci", "usb")))


def test_every_module_binds_what_the_scan_found() -> None:
    modules = {m for table in load_ids().drivers.values() for mods in table.values() for m in mods}
    names = sorted(modules | set(load_kernel_drivers().names()) | {"r8152", "ax88179-178a", "nope"})
    assert len(names) > 500
    for name in names:
        assert driver_chips.bound_ids(name) == _scanned(name), name
    assert driver_chips.bound_ids("r8152") and not driver_chips.bound_ids("nope")


def test_the_id_tables_are_walked_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Before, each driver asked walked every bus's table again (load_ids().drivers read per
    driver); now the index is made once for all drivers."""
    driver_chips.bound_ids.cache_clear()
    driver_chips._alias_ids.cache_clear()
    walks: list[int] = []
    real = load_ids()

    class Counting:
        def __getattr__(self, name: str) -> object:
            if name == "drivers":
                walks.append(1)
            return getattr(real, name)

    monkeypatch.setattr(driver_chips, "load_ids", lambda: Counting())
    try:
        for name in ("r8152", "ax88179_178a", "smsc95xx", "lan78xx", "igb", "r8169"):
            driver_chips.bound_ids(name)
    finally:
        driver_chips.bound_ids.cache_clear()
        driver_chips._alias_ids.cache_clear()
    assert walks == [1]


def test_a_kernel_drivers_ids_are_the_scan_of_its_table() -> None:
    """KernelDrivers.ids_of() from its index by driver = the scan of the ID table it replaced,
    order included, for every driver the table names and one it does not."""
    table = load_kernel_drivers()
    ids = table._ids
    for name in [*table.names(), "nope"]:
        want = [
            (k.split(":", 1)[0], k.split(":", 1)[1])
            for k, drivers in ids.items()
            if name in drivers
        ]
        assert table.ids_of(name) == want, name
