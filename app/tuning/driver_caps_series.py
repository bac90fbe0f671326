"""Which kernel a driver fact holds on: the source tree a running kernel was built from, and
whether a Raspberry Pi kernel's branch carries a fact of that tree (read by driver_caps.caps)."""

from __future__ import annotations

import re
from typing import Any

# the kernel-tree rule lives in catalog (the inventory reads it too); re-exported as "X as X"
from sbctune.catalog.kernel_tree import _UBUNTU_RASPI, _version
from sbctune.catalog.kernel_tree import RPI_TREE as RPI_TREE
from sbctune.catalog.kernel_tree import SERIES as SERIES
from sbctune.catalog.kernel_tree import release_holds as release_holds
from sbctune.catalog.kernel_tree import tree_of as tree_of
from sbctune.tuning import debian_abi

# The patch level a kernel string says: "6.1.170", "6.12.25+rpt-rpi-2712", "5.15.4-0-rpi4". An
# ABI name's ".0-" ("6.1.0-41-arm64": Debian's 6.1.158 package; "6.1.0-rpi7-rpi-v8"; Ubuntu's
# "6.8.0-1056-raspi") says the series only: its real patch level is in uname -v, not here.
_PATCH = re.compile(r"([0-9]+)\.([0-9]+)\.([0-9]+)(-?)")


def rpi_carried(fact: dict[str, Any], kernel: str | None) -> bool | None:
    """Whether the running Raspberry Pi kernel's branch carries a fact of the Raspberry Pi tree:
    True, False, or None where nothing shows it either way (an unknown kernel, or a branch no
    paste or stored commit covers). Its "rpi_series" says so: "from" the first rpi-N.y branch
    shown to carry it, "without" the branches shown not to, "branches" each one's state
    ("carried", "not carried", "unknown"). A fact without "rpi_series" holds for every branch
    (the tree's own, as RP1's device tree); a branch its "rpi_series" does not name (macb's RP1
    coalescing on rpi-6.12.y) is unknown, never denied.
    Ubuntu's Raspberry Pi kernels ("6.8.0-1056-raspi") are their own tree: only a branch entry
    for them ("ubuntu-raspi-6.8") answers, never the rpi-N.y one of the same number."""
    span = fact.get("rpi_series")
    if not span:
        return True
    match = SERIES.search(kernel or "")
    if match is None:
        return None
    running = (int(match.group(1)), int(match.group(2)))
    if _UBUNTU_RASPI.search(kernel or ""):
        state = span.get("branches", {}).get(f"ubuntu-raspi-{running[0]}.{running[1]}")
        return {"carried": True, "not carried": False}.get(str(state))
    if span.get("from") and running >= _version(span["from"]):
        return True
    if any(running == _version(v) for v in span.get("without", [])):
        return False
    state = span.get("branches", {}).get(f"rpi-{running[0]}.{running[1]}.y")
    return {"carried": True, "not carried": False}.get(str(state))


def patch_level(kernel: str | None) -> tuple[int, int, int] | None:
    """(major, minor, patch) of a kernel string that says its patch level, else None."""
    match = _PATCH.search(kernel or "")
    if match is None or (match.group(3) == "0" and match.group(4)):
        return None
    return int(match.group(1)), int(match.group(2)), int(match.group(3))


def patch_holds(fact: dict[str, Any], kernel: str | None) -> bool | None:
    """Whether a fact that a stable backport changed within a series holds on the running
    kernel: its "patch" says which side of the change it is ("holds": "since" or "before") and
    "first", per series, the first patch level with the change (ax88179's max_mtu: usbnet_probe
    caps it at 1500 from c7159e960f14, 6.1.162 and 6.12.68). None where the kernel string has no
    patch level or its series is not in "first" (6.6: not read): the fact is neither claimed nor
    denied. The stable patch level is the Raspberry Pi tree's too: its rpi-N.y branches merge
    the stable releases their version names. "mainline": the release from which every series
    has it (bcmgenet's phylib EEE: 7.0, and 6.12.78 by backport; audit 26). A fact without
    "patch" holds at every level."""
    span = fact.get("patch")
    if not span:
        return True
    series = SERIES.search(kernel or "")
    mainline = span.get("mainline")  # the first release whose .0 has it: every later series
    if series and mainline and (int(series[1]), int(series[2])) >= _version(str(mainline)):
        return bool(span["holds"] == "since")
    level = patch_level(kernel)
    if level is None:
        return _abi_holds(span, kernel)
    changed = _changed_at(span, level)
    if changed is None:
        return None
    return changed if span["holds"] == "since" else not changed


def _changed_at(span: dict[str, Any], level: tuple[int, int, int]) -> bool | None:
    """Whether `level` has the change: from "first" of its series; a series "first" names as
    null never took it (5.10 for igc's tx-usecs: the cited tree, 5.10.262, has not); None for a
    series it does not name. Where only bounds are known (a backport not yet seen in the
    series' trees read), "first" is {"above": the newest level read without it, "by": a level
    read with it}: without it up to "above", with it from "by", None between (r8169's RTL8168h
    EEE fix: not in Debian's 6.12.117, first point release of 6.12.y not known)."""
    firsts = span["first"]
    key = f"{level[0]}.{level[1]}"
    if key not in firsts:
        return None
    first = firsts[key]
    if isinstance(first, dict):
        if first.get("by") and level >= _level(str(first["by"])):
            return True
        if first.get("above") and level <= _level(str(first["above"])):
            return False
        return None
    return first is not None and level >= _level(str(first))


def _level(dotted: str) -> tuple[int, ...]:
    return tuple(int(p) for p in dotted.split("."))


def _abi_holds(span: dict[str, Any], kernel: str | None) -> bool | None:
    """patch_holds for a Debian ABI name ("6.1.0-13-arm64"): the patch levels Debian built that
    ABI from (debian_abi, from Debian's changelog) decide where all of them are on one side of
    the change; else, or with no such name, None (audit 30 row 2)."""
    found = debian_abi.patch_span(kernel)
    if found is None:
        return None
    low, high = found
    at_low = _changed_at(span, low)
    # every level the ABI was built from on one side (the highest unknown: only "changed")
    changed = at_low if at_low or (high is not None and _changed_at(span, high) is False) else None
    if changed is None:
        return None
    return changed if span["holds"] == "since" else not changed
