"""What every tweak planner gets: the tweak, the facts read on the Pi, the inventory, the NIC,
the user's options, and the boot files as edited by the tweaks planned before it."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sbctune.inventory.model import Inventory, Nic
from sbctune.tuning import driver_caps
from sbctune.tuning.driver_caps import DriverCaps
from sbctune.tuning.knobs import parse_cpu_list
from sbctune.tuning.model import NotNeeded, PlannedTweak, Tweak
from sbctune.tuning.probe import Facts


@dataclass
class Context:
    tweak: Tweak
    facts: Facts
    inventory: Inventory
    nic: Nic | None
    options: dict[str, Any]
    pending: dict[str, str] = field(default_factory=dict)  # boot files as edited so far
    selected: tuple[str, ...] = ()  # the tweak ids planned together

    @property
    def iface(self) -> str | None:
        return self.facts.nic

    @property
    def caps(self) -> DriverCaps | None:
        """What the NIC's driver can do, from the kernel's source (None: not in the table)."""
        nic = self.nic
        return driver_caps.caps(
            nic.driver if nic else None, self.inventory.board.kernel, nic.chip if nic else None
        )

    def carries_ssh(self) -> bool:
        """Whether the NIC is the one this SSH session runs over (unknown counts as yes)."""
        result = self.facts.step("ssh-route")
        if result is None or not result.ok:
            return True
        try:
            routes = json.loads(result.text or "[]")
            dev = routes[0].get("dev") if isinstance(routes, list) and routes else None
        except (ValueError, AttributeError):
            dev = None
        return dev is None or dev == self.iface

    def cpus(self) -> list[int]:
        online = self.facts.knob("/sys/devices/system/cpu/online")
        return parse_cpu_list(online.text) if online and online.ok else []


Planner = Callable[[Context], PlannedTweak]
_NUMBER = re.compile(r"[0-9]{1,19}")


def is_number(text: str) -> bool:
    return _NUMBER.fullmatch(text.strip()) is not None


def not_applicable(ctx: Context, reason: str) -> PlannedTweak:
    """Left out, why; a NotNeeded reason marks it not needed rather than not possible."""
    return PlannedTweak(ctx.tweak, False, reason, not_needed=isinstance(reason, NotNeeded))


def all_mask(cpus: list[int]) -> int:
    mask = 0
    for cpu in cpus:
        mask |= 1 << cpu
    return mask


def queue_files(ctx: Context, prefix: str, knob: str) -> list[tuple[str, Any]]:
    base = f"/sys/class/net/{ctx.iface}/queues/{prefix}"
    found = ctx.facts.glob(base, "/" + knob)
    return sorted(found.items(), key=lambda item: int(item[0][len(base) :].split("/")[0] or 0))
