"""A driver table in which one Raspberry Pi branch is shown to carry macb's RP1 coalescing, for
tests of the lab's and the planner's gem_get/set_coalesce model (issue 21).

HYPOTHETICAL branch (rpi-6.19.y, which the table does not name; driver_caps.json says rpi-6.18.y
on, inferred from code). Only the data changes; the rule that reads
it (driver_caps.rpi_carried) is the product's. In-process only: a lab whose fake ethtool runs
in its own processes reads the shipped table.
"""

from __future__ import annotations

import copy
import json

import pytest

from sbctune.tuning import driver_caps

CARRYING_KERNEL = "6.19.2+rpt-rpi-2712"


def carrying(monkeypatch: pytest.MonkeyPatch, branch: str = "rpi-6.19.y") -> None:
    data = copy.deepcopy(driver_caps.table())
    for fact in data["hand"]["macb"]:
        span = fact.get("rpi_series")
        if span and "coalesce" in json.dumps(fact["value"]) + fact["fact"]:
            span["branches"][branch] = "carried"
    monkeypatch.setattr(driver_caps, "table", lambda: data)
