"""Limits several NICs share (seed 004: a CM4's ports each do ~940 Mbit/s alone, ~3.06 Gbit/s
together): the profile's ``[[shared_limit]]`` tables and the fair share the shaper applies.

``lab.toml``::

    [[shared_limit]]
    interfaces = ["eth0", "eth1", "eth2", "eth3"]   # at least two of the profile's interfaces
    pc_to_pi_mbps = 3060     # the most all of them carry together, per direction (either or both)
    pi_to_pc_mbps = 3060
    source = "seed 004: ..."

While the busy members of a limit would carry more than its rate in a direction, the shaper
lowers each busy member's rate in proportion to its own (a fair share of the sum, as TCP flows
through one bottleneck settle); idle members keep their rates, so a port that starts sending
is seen busy at once. Pure logic: tested without a lab.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sbctune.lab.errors import ProfileError

KEY = "shared_limit"
_RATES = ("pi_to_pc_mbps", "pc_to_pi_mbps")
# Both directions, in the order the shaper's (Pi->PC, PC->Pi) pairs use.
Pair = tuple[float, float]


@dataclass(frozen=True)
class SharedLimit:
    interfaces: tuple[str, ...]
    pi_to_pc_mbps: float | None = None
    pc_to_pi_mbps: float | None = None
    source: str = ""

    def cap(self, direction: int) -> float | None:
        """0: Pi->PC, 1: PC->Pi."""
        return self.pi_to_pc_mbps if direction == 0 else self.pc_to_pi_mbps


def parse_shared_limits(
    data: Mapping[str, Any], names: Sequence[str], where: str
) -> tuple[SharedLimit, ...]:
    """The ``[[shared_limit]]`` tables of a parsed lab.toml; ProfileError says what is wrong."""
    items = data.get(KEY, [])
    if not isinstance(items, list):
        raise ProfileError(f"{where}: {KEY} must be an array of tables ([[{KEY}]])")
    limits = []
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
        limits.append(SharedLimit(tuple(members), source=str(item.get("source", "")), **rates))
    return tuple(limits)


@dataclass
class BusyHold:
    """Busy while traffic flows, and for ``hold`` quiet samples after (no flapping on a dip)."""

    hold: int = 3
    busy: bool = False
    quiet: int = 0

    def update(self, busy_now: bool) -> bool:
        if busy_now:
            self.busy, self.quiet = True, 0
        elif self.busy:
            self.quiet += 1
            if self.quiet >= self.hold:
                self.busy, self.quiet = False, 0
        return self.busy


def share(
    targets: Mapping[str, Pair],
    busy: Mapping[str, tuple[bool, bool]],
    limits: Sequence[SharedLimit],
) -> tuple[dict[str, Pair], set[str]]:
    """Each NIC's (Pi->PC, PC->Pi) rate under the shared limits, and the NICs held down.

    `targets`: each NIC's own rates (duplex and tweak effects applied); `busy`: which of its
    directions carry traffic now.
    """
    out = {name: [up, down] for name, (up, down) in targets.items()}
    held: set[str] = set()
    for limit in limits:
        for direction in (0, 1):
            cap = limit.cap(direction)
            if cap is None:
                continue
            members = [
                n for n in limit.interfaces if n in out and busy.get(n, (False, False))[direction]
            ]
            total = sum(out[n][direction] for n in members)
            if len(members) < 2 or total <= cap:
                continue
            for name in members:
                out[name][direction] *= cap / total
                held.add(name)
    return {name: (rates[0], rates[1]) for name, rates in out.items()}, held
