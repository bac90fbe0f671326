"""What each network driver can do, from the kernel's own source (resources/tuning/driver_caps.json,
made by scripts/regen_driver_caps.py from Debian's linux-source-6.1 and -6.12; hand-written facts
in the same file cite the source file and function).

A driver the table does not know is "unknown": the planners then go by what ethtool says.

This module reads the table (every reader of it is here, so a test that swaps `table` swaps it
for all); the rest is split by concern and re-exported: DriverCaps (driver_caps_model), how
caps() gathers one driver (driver_caps_build), kernel trees and Raspberry Pi branches
(driver_caps_series), per-chip rules read from the facts (driver_caps_rules).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from sbctune.resources import resource_root
from sbctune.tuning.driver_caps_build import add_generated_mtu, add_hand_facts, from_source
from sbctune.tuning.driver_caps_model import DriverCaps
from sbctune.tuning.driver_caps_rules import (
    by_chip,
    chip_rule,
    coalesce_scale_rows,
    coalesce_written,
    edom_frame_extra,
    floor_read_back,
    floor_steps,
    floor_written,
    mtu_drops,
    mtu_fifo_refused,
    mtu_renegotiates,
)
from sbctune.tuning.driver_caps_series import (
    RPI_TREE,
    SERIES,
    release_holds,
    rpi_carried,
    tree_of,
)

__all__ = [
    "RPI_TREE",
    "DriverCaps",
    "by_chip",
    "caps",
    "chip_rule",
    "coalesce_scale_rows",
    "coalesce_written",
    "edom_frame_extra",
    "fact_in_every_series",
    "floor_read_back",
    "floor_steps",
    "floor_written",
    "kernel_fact",
    "mtu_drops",
    "mtu_fifo_refused",
    "mtu_renegotiates",
    "release_holds",
    "rpi_carried",
    "seen_as",
    "series_of",
    "table",
    "tree_of",
]


@lru_cache(maxsize=1)
def table() -> dict[str, Any]:
    """The table as json.loads() gives it (its "drivers" a read-only map whose rows are
    decoded when first read: catalog/lazy_rows), kept in the table cache
    (catalog/table_cache.py): its 1.8 MB are read and decoded by marshal, not json (callgrind,
    a process reading it: +51 M instructions against +81 M), and hashed only when the file's
    stat changed."""
    from sbctune.catalog.table_cache import json_file

    path = resource_root().joinpath("tuning").joinpath("driver_caps.json")
    # "drivers" (229 drivers, ~80 % of the table) a row at a time: a bundle names a few
    data: dict[str, Any] = json_file("driver-caps", path, rows=("drivers",))
    return data


def series_of(kernel: str | None) -> tuple[str, ...]:
    """The table's series for a running kernel: its own where the table has it ("6.12.25+rpt"
    -> 6.12), else every series, so that only what all of them agree on counts (a 6.6 kernel,
    or an unknown one)."""
    known = sorted(table()["kernels"], key=lambda s: tuple(int(p) for p in s.split(".")))
    match = SERIES.search(kernel or "")
    if match is None:
        return tuple(known)
    running = (int(match.group(1)), int(match.group(2)))
    exact = [s for s in known if tuple(int(p) for p in s.split(".")) == running]
    if exact:
        return tuple(exact)
    return tuple(known)


@lru_cache(maxsize=1)
def seen_as() -> dict[str, str]:
    """The names under which a NIC of a table driver is seen on a board, and that driver: the
    hand facts ``seen_as`` (stmmac: ethtool -i's "st_gmac", sysfs's glue "rk_gmac-dwmac" ...)."""
    return {
        name: driver
        for driver, facts in table()["hand"].items()
        for fact in facts
        if fact.get("fact") == "seen_as"
        for name in fact["value"]
    }


def caps(
    driver: str | None, kernel: str | None = None, chip: str | None = None
) -> DriverCaps | None:
    """The driver's capabilities for this kernel, or None where the table does not know it.
    Hand facts written for the Raspberry Pi tree (their "tree") count only on that tree's
    kernels; their "ops_added" / "coalesce_params_added" extend what Debian's source has. An op
    the running kernel's branch is not known to carry (or, with no kernel version, either tree)
    is "unsure": not in `ops`, so the lab refuses it, and the planner tries it and reads back."""
    if not driver:
        return None
    data = table()
    driver = seen_as().get(driver, driver)  # stmmac: "st_gmac", "rk_gmac-dwmac" ...
    by_series = data["drivers"].get(driver)
    if not by_series:
        return None
    series = tuple(s for s in series_of(kernel) if s in by_series)
    if not series:
        return None
    b, ring_max, multiqueue = from_source(
        [by_series[s] for s in series], ops_table(data["hand"].get(driver, []), series, chip)
    )
    tree = tree_of(kernel, chip)
    # No kernel version and a chip that does not say: either tree may be running, so what the
    # Raspberry Pi tree adds is neither claimed nor denied (the lab's Pi 5 shows no uname).
    either = tree != RPI_TREE and SERIES.search(kernel or "") is None
    # the tree's own facts first: they win over upstream's for the same name
    hand = sorted(data["hand"].get(driver, []), key=lambda f: f.get("tree", "debian") != tree)
    older = frozenset(data.get("cited_kernels", {}))  # 5.10: facts dated by release only
    add_hand_facts(b, hand, series, kernel, tree, either, older)
    add_generated_mtu(b, [by_series[s] for s in series], hand, _usbnet_lowering(series), kernel)
    if driver not in data["hand"]:
        # no one read this driver's sets for restarts (audits: the 13, then audit 50's twelve)
        b.facts["restarts_unread"] = True
    return DriverCaps(
        driver,
        series,
        b.ops,
        b.coalesce,
        ring_max,
        multiqueue,
        b.facts,
        b.cites,
        frozenset(b.unsure - b.ops),
        frozenset(b.dated),
    )


def _usbnet_lowering(series: tuple[str, ...]) -> tuple[dict[str, Any], str] | None:
    """The _kernel fact that usbnet_probe lowers max_mtu after the bind, with its cite."""
    for fact in table()["hand"].get("_kernel", []):
        if fact["fact"] == "usbnet_max_mtu_from_hard_mtu" and set(series) & set(fact["kernels"]):
            return fact, f"{fact['file']}: {fact['symbol']}"
    return None


def ops_table(hand: list[dict[str, Any]], series: tuple[str, ...], chip: str | None) -> str | None:
    """The ethtool_ops table this chip's bind sets (the longest chip name `chip` contains, in
    facts of every series), else None: the driver has one table, or the chip does not say."""
    rules: dict[str, str] = {}
    for fact in hand:
        if fact["fact"] == "ops_table_by_chip" and set(series) <= set(fact["kernels"]):
            rules.update(fact["value"])
    found = by_chip(rules, chip)
    return str(found) if found else None


def fact_in_every_series(caps: DriverCaps, name: str) -> bool:
    """Whether the table has a `name` fact for every series `caps` holds for: with an unknown
    kernel (both series) a default read for one series only is not claimed, unless the fact's
    release dating says it holds on the running kernel (`DriverCaps.dated`, audit 26)."""
    if name in caps.dated:
        return True
    covered = {s for f in table()["hand"].get(caps.driver, []) if f["fact"] == name
               for s in f["kernels"]}  # fmt: skip
    return set(caps.series) <= covered


def kernel_fact(name: str, kernel: str | None = None) -> tuple[Any, str] | None:
    """A fact of the kernel's core (net/core, kernel/irq): (value, "file: function"). A fact
    whose release range ("since"/"until") leaves the running kernel out is skipped, so a kernel
    between or after the series takes the one its release has (6.18: 6.12's netdev_fix_features
    with the USO rule of 2b2bc3bab158, 6.11; audit 37 row 4), not the first listed."""
    series = set(series_of(kernel))
    facts = [f for f in table()["hand"].get("_kernel", []) if f["fact"] == name]
    older = set(table().get("cited_kernels", {}))
    # a fact read in an older tree (5.10: the ring attributes before 5.17, audit 40) is the
    # running kernel's own where its release range says it holds, and only there
    for fact in facts:
        if set(fact["kernels"]) <= older and release_holds(fact, kernel) is True:
            return fact["value"], f"{fact['file']}: {fact['symbol']}"
    for fact in facts:
        if not series & set(fact["kernels"]):
            continue
        if release_holds(fact, kernel) is not False:
            return fact["value"], f"{fact['file']}: {fact['symbol']}"
    return None
