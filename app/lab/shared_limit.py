"""Limits several NICs share (seed 004: a CM4's ports each do ~940 Mbit/s alone, ~3.06 Gbit/s
together): the profile's ``[[shared_limit]]`` tables (the kernel holds them: shaping_shared).

``lab.toml``::

    [[shared_limit]]
    interfaces = ["eth0", "eth1", "eth2", "eth3"]   # at least two of the profile's interfaces
    pc_to_pi_mbps = 3060     # the most all of them carry together, per direction (either or both)
    pi_to_pc_mbps = 3060
    source = "seed 004: ..."

A NIC is in at most one limit per direction (its traffic is redirected to one limit's IFB).
Pure logic: tested without a lab.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sbctune.lab.errors import ProfileError

KEY = "shared_limit"
_RATES = ("pi_to_pc_mbps", "pc_to_pi_mbps")


@dataclass(frozen=True)
class SharedLimit:
    interfaces: tuple[str, ...]
    pi_to_pc_mbps: float | None = None
    pc_to_pi_mbps: float | None = None
    source: str = ""

    def cap(self, direction: int) -> float | None:
        """0: Pi->PC, 1: PC->Pi."""
        return self.pi_to_pc_mbps if direction == 0 else self.pc_to_pi_mbps


def _has(limit: SharedLimit, key: str) -> bool:
    return getattr(limit, key) is not None


def parse_shared_limits(
    data: Mapping[str, Any], names: Sequence[str], where: str
) -> tuple[SharedLimit, ...]:
    """The ``[[shared_limit]]`` tables of a parsed lab.toml; ProfileError says what is wrong."""
    items = data.get(KEY, [])
    if not isinstance(items, list):
        raise ProfileError(f"{where}: {KEY} must be an array of tables ([[{KEY}]])")
    limits: list[SharedLimit] = []
    for index, item in enumerate(items):
        here = f"{where}: {KEY} #{index + 1}"
        if not isinstance(item, dict):
            raise ProfileError(f"{here} must be a table")
        unknown = sorted(set(item) - {"interfaces", "source", *_RATES})
        if unknown:
            raise ProfileError(
                f"{here}: unknown {'key' if len(unknown) == 1 else 'keys'} {', '.join(unknown)}",
                "allowed: interfaces, pi_to_pc_mbps, pc_to_pi_mbps, source",
            )
        members = item.get("interfaces")
        if (
            not isinstance(members, list)
            or len(members) < 2
            or not all(isinstance(m, str) for m in members)
            or len(set(members)) != len(members)
        ):
            raise ProfileError(f"{here}: interfaces must list two or more distinct interface names")
        strays = sorted(set(members) - set(names))
        if strays:
            raise ProfileError(
                f"{here}: names {'interface' if len(strays) == 1 else 'interfaces'} "
                f"{', '.join(strays)}, which the profile lacks"
                f" (it has {', '.join(names)})"
            )
        rates: dict[str, float] = {}
        for key in _RATES:
            value = item.get(key)
            if value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
                raise ProfileError(f"{here}: {key} must be a positive number")
            rates[key] = float(value)
        if not rates:
            raise ProfileError(f"{here}: give pi_to_pc_mbps, pc_to_pi_mbps or both")
        for key in rates:
            twice = sorted(
                set(members) & {m for lim in limits if _has(lim, key) for m in lim.interfaces}
            )
            if twice:
                raise ProfileError(
                    f"{here}: {', '.join(twice)} already in another limit's {key}",
                    "a NIC's traffic in one direction goes through one limit: merge the tables",
                )
        limits.append(SharedLimit(tuple(members), source=str(item.get("source", "")), **rates))
    return tuple(limits)
