"""Messages a network driver's probe function prints on its way out with an error
(``resources/kernel_source/probe_exits.json``, generated from Debian's 6.1 and 6.12 source by
``scripts/regen_probe_exits.py``).

The driver core says "probe of ... failed with error" for every error but -ENODEV and -ENXIO,
which drivers/base/dd.c call_driver_probe() logs at debug level only; rtw88's rtw_sdio_probe()
prints "failed to setup chip information" and returns rtw_chip_info_setup()'s -ENODEV, so that
line is the only one that says no driver is bound. A row is read only for a driver whose probe
function prints it, so another driver's same words are never taken for a failed probe."""

from __future__ import annotations

import functools
import json

from sbctune.catalog.kernel_messages import KernelMessage, MessageTable, is_packed, packed_rows

_Built = tuple[dict[str, list[str]], dict[str, str]]


def _build(raw: bytes) -> _Built:
    """Each probe function's drivers and the rows' packed index (what the cache keeps)."""
    data = json.loads(raw.decode("utf-8"))
    probes = {str(k): [str(d) for d in v] for k, v in data["probes"].items()}
    return probes, packed_rows("\n".join(str(row) for row in data["rows"]))


def _fits(value: object) -> bool:
    if not (type(value) is tuple and len(value) == 2 and type(value[0]) is dict):
        return False
    probes, index = value
    return is_packed(index) and all(
        type(k) is str and type(v) is list and all(type(d) is str for d in v)
        for k, v in probes.items()
    )


@functools.cache
def _table() -> tuple[MessageTable, dict[str, frozenset[str]], frozenset[str]]:
    """The rows as a message table, each probe function's drivers, and all those drivers
    (built once and kept in the cache: table_cache)."""
    from sbctune.catalog.table_cache import cached_file
    from sbctune.resources import resource_root

    try:
        path = resource_root().joinpath("kernel_source", "probe_exits.json")
        lists, index = cached_file("probe-exits", path, _build, _fits)
        probes = {k: frozenset(v) for k, v in lists.items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return MessageTable("", {}), {}, frozenset()
    drivers = frozenset(d for names in probes.values() for d in names)
    return MessageTable("", {}, index), probes, drivers


def probe_exit(driver: str | None, text: str) -> KernelMessage | None:
    """The message of `driver`'s own probe function this line was printed from, on an error
    exit of that probe ("rtw_8822cs mmc0:0001:1: failed to setup chip information"), or None.
    Its `files` are that driver's probe functions ("drivers/.../sdio.c:rtw_sdio_probe")."""
    table, probes, drivers = _table()
    if not driver or driver not in drivers or len(text) > 400:
        return None
    found = table.match(text)
    own = tuple(p for p in found.files if driver in probes.get(p, ())) if found else ()
    return KernelMessage(found.format, found.level, own, found.series) if found and own else None
