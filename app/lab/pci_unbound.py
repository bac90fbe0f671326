"""A profile's PCI functions with no driver bound, as the lab's sysfs shows them.

``[pci] unbound = ["0000:01:00.0", ...]`` in lab.toml: functions the real board listed and no
driver bound (a model of the state the profile's source states, not a capture: SOURCE.md says
from where). The lab makes each a folder under its own /sys/bus/pci/devices (nsinit lays an
empty tmpfs there, so the host's devices never show) without a `driver` link, which is what
drivers/base/dd.c leaves when no driver binds (driver_sysfs_add() makes the link at bind).
`sbctune collect` reads those links (inventory/pci_driver_links.py).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from sbctune.lab.errors import ProfileError
from sbctune.lab.profile_tables import check_keys, sub_table

_ADDRESS = re.compile(r"^[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]$")
MAX_UNBOUND = 64


def parse_unbound(data: Mapping[str, Any], where: str) -> tuple[str, ...]:
    """The [pci] table's unbound functions (full addresses, "0000:01:00.0")."""
    table = sub_table(data, "pci", where)
    check_keys(table, {"unbound"}, f"{where} [pci]")
    unbound = table.get("unbound", [])
    if not isinstance(unbound, list) or len(unbound) > MAX_UNBOUND:
        raise ProfileError(f"{where} [pci]: unbound must be a list of at most {MAX_UNBOUND}")
    for address in unbound:
        if not isinstance(address, str) or not _ADDRESS.match(address):
            raise ProfileError(
                f"{where} [pci]: {address!r} is not a PCI address", 'write "0000:01:00.0"'
            )
    return tuple(unbound)


def served_files(unbound: tuple[str, ...]) -> dict[str, str]:
    """What `sbctune collect` stores from the lab for them: each driver link, none."""
    return {f"/sys/bus/pci/devices/{address}/driver": "" for address in unbound}
