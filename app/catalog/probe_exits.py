"""Messages a network driver's probe function prints on its way out with an error
(``resources/kernel_source/probe_exits.json``, generated from Debian's 6.1 and 6.12 source by
``scripts/regen_probe_exits.py``).

The driver core says "probe of ... failed with error" for every error but -ENODEV and -ENXIO,
which drivers/base/dd.c call_driver_probe() logs at debug level only; rtw88's rtw_sdio_probe()
prints "failed to setup chip information" and returns rtw_chip_info_setup()'s -ENODEV, so that
line is the only one that says no driver is bound. A row is read only for a driver whose probe
function prints it, so another driver's same words are never taken for a failed probe; a line
holding none of its driver's rows' needles (each row's longest literal, the one the table's match
tests first) is not matched at all: most lines of a driver with such rows are not its probe's
exits (issue 24: ~1 500 of a long log's first readings, ~4 % of them)."""

from __future__ import annotations

import functools
import json

from sbctune.catalog.kernel_messages import _NEEDLE_END as NEEDLE_END
from sbctune.catalog.kernel_messages import KernelMessage, MessageTable, is_packed, packed_rows

_Built = tuple[dict[str, list[str]], dict[str, str], dict[str, list[str]]]


def _build(raw: bytes) -> _Built:
    """Each probe function's drivers, the rows' packed index and each driver's needles (what
    the cache keeps)."""
    data = json.loads(raw.decode("utf-8"))
    probes = {str(k): [str(d) for d in v] for k, v in data["probes"].items()}
    index = packed_rows("\n".join(str(row) for row in data["rows"]))
    return probes, index, _needles_by_driver(probes, index)


def _needles_by_driver(probes: dict[str, list[str]], index: dict[str, str]) -> dict[str, list[str]]:
    """Each driver's needles: those of the rows one of its probe functions prints, as the
    packed index holds them (the very strings MessageTable._match tests before a row)."""
    needles: dict[str, set[str]] = {}
    for rows in index.values():
        for packed in rows.split("\n"):
            needle, _sep, row = packed.partition(NEEDLE_END)
            files = row.split("\t", 3)[2] if row.count("\t") >= 3 else ""
            for file in files.split(","):
                for driver in probes.get(file, ()):
                    needles.setdefault(driver, set()).add(needle)
    return {driver: sorted(found) for driver, found in needles.items()}


def _fits(value: object) -> bool:
    if not (type(value) is tuple and len(value) == 3 and type(value[0]) is dict):
        return False
    probes, index, needles = value
    return (
        is_packed(index)
        and _lists_of_str(probes)
        and type(needles) is dict
        and _lists_of_str(needles)
    )


def _lists_of_str(value: dict[str, list[str]]) -> bool:
    return all(
        type(k) is str and type(v) is list and all(type(d) is str for d in v)
        for k, v in value.items()
    )


@functools.cache
def _table() -> tuple[MessageTable, dict[str, frozenset[str]], dict[str, tuple[str, ...]]]:
    """The rows as a message table, each probe function's drivers, and each of those drivers'
    needles (built once and kept in the cache: table_cache)."""
    from sbctune.catalog.table_cache import cached_file
    from sbctune.resources import resource_root

    try:
        path = resource_root().joinpath("kernel_source", "probe_exits.json")
        lists, index, needles = cached_file("probe-exits", path, _build, _fits)
        probes = {k: frozenset(v) for k, v in lists.items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return MessageTable("", {}), {}, {}
    drivers = {d: tuple(needles.get(d, ())) for names in probes.values() for d in names}
    return MessageTable("", {}, index), probes, drivers


def probe_exit(driver: str | None, text: str) -> KernelMessage | None:
    """The message of `driver`'s own probe function this line was printed from, on an error
    exit of that probe ("rtw_8822cs mmc0:0001:1: failed to setup chip information"), or None.
    Its `files` are that driver's probe functions ("drivers/.../sdio.c:rtw_sdio_probe")."""
    table, probes, drivers = _table()
    if not driver or driver not in drivers or len(text) > 400:
        return None
    # the match's best row is one of the driver's own only if the line holds its needle (an
    # empty needle is in every line: then matched as before)
    if not any(map(text.__contains__, drivers[driver])):
        return None
    found = table.match(text)
    own = tuple(p for p in found.files if driver in probes.get(p, ())) if found else ()
    return KernelMessage(found.format, found.level, own, found.series) if found and own else None
