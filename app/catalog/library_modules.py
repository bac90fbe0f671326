"""The kernel's network library modules and the drivers that use them
(``resources/kernel_source/library_modules.json``, generated from Debian's linux-source-6.1 and
6.12 by ``scripts/regen_library_modules.py`` from the Makefiles and Kconfig of drivers/net/).

A library prints its complaints under its own name ("wlcore: ERROR could not get configuration
binary ...", wl1271_error() in drivers/net/wireless/ti/wlcore/debug.h): the line is about the
device of one of the drivers that use it. One dictionary look-up per line."""

from __future__ import annotations

import functools
import json


@functools.cache
def _rows() -> dict[str, tuple[frozenset[str], str]]:
    from sbctune.resources import resource_root

    try:
        path = resource_root().joinpath("kernel_source", "library_modules.json")
        rows = json.loads(path.read_text(encoding="utf-8")).get("libraries", {})
        return {
            str(name): (frozenset(str(u) for u in row["users"]), str(row["makefile"]))
            for name, row in rows.items()
        }
    except (OSError, ValueError, AttributeError, KeyError, TypeError):
        return {}


@functools.cache
def _table() -> dict[str, frozenset[str]]:
    return {name: row[0] for name, row in _rows().items()}


def library_users(module: str) -> frozenset[str]:
    """The drivers whose Kconfig symbol selects or depends on library `module` (none: not a
    library module of drivers/net/)."""
    return _table().get(module, frozenset())


def library_of(line: str, driver: str | None) -> tuple[str, str] | None:
    """(library, the Makefile that builds it) when `line` is printed under the name of a library
    module that `driver` uses ("wlcore: ERROR ..." on a wl18xx_driver NIC)."""
    head = line.partition(": ")[0]
    row = _rows().get(head)
    return (head, row[1]) if row is not None and driver in row[0] else None


def library_makefile(module: str) -> str | None:
    """The Makefile that builds library `module` (None: not a library module of drivers/net/):
    its directory holds the drivers that share it (stmmac and the dwmac glue drivers)."""
    row = _rows().get(module)
    return row[1] if row is not None else None


@functools.cache
def _needed_by() -> dict[str, frozenset[str]]:
    from sbctune.resources import resource_root

    try:
        path = resource_root().joinpath("kernel_source", "library_modules.json")
        rows = json.loads(path.read_text(encoding="utf-8")).get("libraries", {})
        needs: dict[str, set[str]] = {}
        for library, row in rows.items():
            for driver in row.get("needed_by", []):
                needs.setdefault(str(driver), set()).add(str(library))
        return {driver: frozenset(libs) for driver, libs in needs.items()}
    except (OSError, ValueError, AttributeError, TypeError):
        return {}


def libraries_of(driver: str) -> frozenset[str]:
    """The library modules driver `driver` needs through tristate symbols only (its Kconfig
    symbol selects or depends on theirs): built in, it forces them built in. ath9k_htc's
    ath, ath9k_common, ath9k_hw."""
    return _needed_by().get(driver, frozenset())
