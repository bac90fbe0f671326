"""DSA switch drivers (resources/kernel_source/dsa_switch_drivers.json, generated from Debian's
5.10, 6.1 and 6.12 source by scripts/regen_dsa_switch_drivers.py): the names drivers/net/dsa/'s
drivers register under (what the driver core prints before a device's name). Such a driver
registers no net_device of its own, only DSA's user ports (net/dsa/slave.c dsa_slave_create(),
6.12 net/dsa/user.c dsa_user_create()), so an interface a line names under one is a switch port."""

from __future__ import annotations

import functools
import json

_MAX_NAME = 40  # the longest name in the table is 17 characters


@functools.cache
def _drivers() -> dict[str, str]:
    """Each driver's name, with its first source file."""
    from sbctune.resources import resource_root

    try:
        path = resource_root().joinpath("kernel_source", "dsa_switch_drivers.json")
        rows = json.loads(path.read_text(encoding="utf-8"))["drivers"]
        return {str(name): str(files[0]) for name, _buses, _series, files in rows}
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        return {}


def switch_driver_file(name: object) -> str | None:
    """The source file of the DSA switch driver of this exact name; None for any other text."""
    if not isinstance(name, str) or not 0 < len(name) <= _MAX_NAME:
        return None
    return _drivers().get(name)
