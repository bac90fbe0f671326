"""Devices the kernel registers below a NIC's own device (``resources/kernel_source/
child_devices.json``, hand-written from the kernel source, each entry citing where the name is
made): an MHI controller that ath11k_pci registers below its PCI device prints "mhi mhi0: ...",
a Wi-Fi PHY prints "ieee80211 phy0: ...". Such a name carries nothing of its parent's; the
inventory joins its lines to the device whose driver registers such children
(``sbctune.inventory.child_join``)."""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ChildKind:
    prefix: str  # what dev_printk prints before the name: the bus's or class's name
    name: re.Pattern[str]  # the device's name; group "base" is the device its channels share
    what: str  # "the MHI controller"
    parents: frozenset[str]  # the drivers that register it; empty: any Wi-Fi driver
    registered_by: str  # the kernel function a parent's driver calls
    parent_dir: str = ""  # its parents: every driver whose source file is in this directory


@functools.cache
def child_kinds() -> dict[str, ChildKind]:
    """The shipped table by prefix (cached); a missing or broken file gives none."""
    from sbctune.resources import resource_root

    try:
        text = (
            resource_root()
            .joinpath("kernel_source", "child_devices.json")
            .read_text(encoding="utf-8")
        )
        data: Any = json.loads(text)
        return {
            str(c["prefix"]): ChildKind(
                str(c["prefix"]),
                re.compile(str(c["name"])),
                str(c["what"]),
                frozenset(str(p) for p in c["parents"]),
                str(c["registered_by"]),
                str(c.get("parent_dir", "")),
            )
            for c in data["children"]
        }
    except (OSError, ValueError, KeyError, TypeError, re.error):
        return {}


def pattern() -> str:
    """One regex of every child's "<prefix> <name>" (for the log's line patterns); one that
    matches nothing when the table is missing."""
    kinds = child_kinds().values()
    alternatives = [
        f"{re.escape(k.prefix)} (?:{k.name.pattern.replace('(?P<base>', '(?:')})" for k in kinds
    ]
    return "(?:" + "|".join(alternatives) + ")" if alternatives else "(?!x)x"


def child_name(prefix: str | None, device: str | None) -> tuple[ChildKind, str] | None:
    """(its kind, the device it belongs to: "mhi0" for "mhi0_IPCR") for a child's line."""
    kind = child_kinds().get(prefix or "")
    if kind is None or not device:
        return None
    match = kind.name.fullmatch(device)
    return (kind, match.group("base")) if match else None
