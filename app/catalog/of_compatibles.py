"""Which network driver binds a device-tree node, by its ``compatible`` list
(``resources/kernel_source/of_compatibles.json``, scripts/regen_of_compatibles.py, from the
``struct of_device_id`` tables of drivers/net/ in Debian's linux-source-6.1 and 6.12).

The kernel's own rule: a node's compatible list is most specific first; drivers/of/base.c
__of_match_node() scores each table entry with __of_device_is_compatible(), which ranks a
match on an earlier compatible of the node higher, so the node's first compatible that a driver
lists decides, whatever comes after it ("raspberrypi,rp1-gem", "cdns,macb": the first one no
Debian table lists, so "cdns,macb" names macb). Two drivers listing that compatible (a switch's
MDIO and its SPI front end) are both returned: the table does not say which one probed.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

_MAX_COMPATIBLES = 32  # a node lists a handful; a longer list is not a real node's
_MAX_COMPATIBLE = 128


@dataclass(frozen=True)
class OfMatch:
    compatible: str  # the node's compatible that matched
    drivers: tuple[str, ...]  # the drivers whose tables list it (driver struct .name)
    bus: str  # the driver struct's kind when all agree ("platform", "spi" ...), else ""
    file: str  # the source file of the first driver
    series: tuple[str, ...]  # kernel series whose source lists it


class OfCompatibles:
    def __init__(self, data: dict[str, Any]) -> None:
        found = data.get("compatibles")
        known = data.get("drivers")
        self._compatibles: dict[str, Any] = found if isinstance(found, dict) else {}
        self._drivers: dict[str, Any] = known if isinstance(known, dict) else {}

    def match(self, compatibles: Sequence[object]) -> OfMatch | None:
        """The binding of the first compatible (the node's own order) that a driver lists."""
        for item in list(compatibles)[:_MAX_COMPATIBLES]:
            if not isinstance(item, str) or len(item) > _MAX_COMPATIBLE:
                continue
            listed = self._compatibles.get(item.strip())
            if not isinstance(listed, dict) or not listed:
                continue
            names = tuple(str(n) for n in listed)
            infos = [self._drivers.get(n) for n in names]
            kinds = {str(i.get("bus", "")) for i in infos if isinstance(i, dict)}
            first = infos[0] if isinstance(infos[0], dict) else {}
            series = sorted({str(s) for v in listed.values() if isinstance(v, list) for s in v})
            return OfMatch(
                compatible=item.strip(),
                drivers=names,
                bus=kinds.pop() if len(kinds) == 1 else "",
                file=str(first.get("file", "")),
                series=tuple(series),
            )
        return None


@functools.cache
def load_of_compatibles() -> OfCompatibles:
    """The shipped table (cached). A missing file gives an empty table: nothing known."""
    from sbctune.catalog.table_cache import json_file
    from sbctune.resources import resource_root

    try:
        path = resource_root().joinpath("kernel_source", "of_compatibles.json")
        data = json_file("of-compatibles", path)
    except (OSError, ValueError):
        return OfCompatibles({})
    return OfCompatibles(data if isinstance(data, dict) else {})
