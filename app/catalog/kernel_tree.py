"""Which source tree a running kernel was built from, and whether a fact mainline gained or lost
in a release of its own holds on it: the kernel's release string read the one way that both the
inventory (which interrupt chips cannot steer: inventory/irq_chips.py) and the tuning table
(tuning/driver_caps_series.py, which re-exports these) need."""

from __future__ import annotations

import re
from typing import Any

SERIES = re.compile(r"(\d+)\.(\d+)")
# Raspberry Pi OS kernels: "6.12.25+rpt-rpi-2712", "6.1.0-rpi7-rpi-v8", "6.1.21-v8+",
# "5.15.84-v7l+". Any other build of the Raspberry Pi tree keeps its defconfig's
# CONFIG_LOCALVERSION as a word of the release (bcm2711_defconfig "-v8", bcm2712_defconfig
# "-v8-16k", bcm2709 "-v7", bcm2711 on arm "-v7l"): with setlocalversion's "+" only when the tree
# is not at a tag (Yocto's "5.4.69-v8" has none), with a builder's own words after it ("-v8-rt",
# "6.12.25-v8-morse+") and with the RT patch's "-rtN" before it ("6.1.77-rt24-v8-16k+"): audit
# 24 row 1. The word ends at "-", "+", "_", a space or the end: "-v8" inside a word is not one.
_RPI_KERNEL = re.compile(r"rpi|\+rpt|-v[678]l?(?=[-+_\s]|$)")
# Ubuntu's Raspberry Pi kernels ("6.8.0-1056-raspi"): Ubuntu's own tree with the Raspberry Pi
# patches, not an rpi-N.y branch; a fact's "branches" says them apart ("ubuntu-raspi-6.8").
_UBUNTU_RASPI = re.compile(r"\d-raspi\b")
RPI_TREE = "raspberrypi/linux"
# Chips that only the Raspberry Pi tree drives before mainline gained them, with that release:
# Debian's 6.1 and 6.12 macb has no RP1 entry in macb_dt_ids; mainline has one from 6.18
# (dc110d1b2356 "net: cadence: macb: Add support for Raspberry Pi RP1 ethernet controller",
# raspberrypi_rp1_config, without the tree's gem_set_coalesce: audit 31 row 3). Before it (or
# with no version: the lab's Pi 5 shows no uname) a NIC on them runs that tree.
_RPI_ONLY_CHIPS = {"rp1": (6, 18)}


def tree_of(kernel: str | None, chip: str | None = None) -> str:
    """Which source tree the running kernel was built from: the Raspberry Pi tree for Raspberry
    Pi OS kernels (and Ubuntu's raspi builds, which carry its patches), and for a chip only that
    tree drives until the release mainline gained it; else Debian's (upstream)."""
    if _RPI_KERNEL.search(kernel or ""):
        return RPI_TREE
    squeezed = (chip or "").lower().replace(" ", "")
    upstream = [release for c, release in _RPI_ONLY_CHIPS.items() if c in squeezed]
    if not upstream:
        return "debian"
    match = SERIES.search(kernel or "")
    if match is None or _UBUNTU_RASPI.search(kernel or ""):
        return RPI_TREE
    return "debian" if (int(match.group(1)), int(match.group(2))) >= min(upstream) else RPI_TREE


def release_holds(fact: dict[str, Any], kernel: str | None) -> bool | None:
    """Whether the running kernel's release carries a fact that mainline gained or lost in a
    release of its own: its "since" names the first release that has it, its "until" the first
    that no longer has it, each with the commit (bcmgenet's get/set_pauseparam since 5.16,
    2d8bdf525d71; stmmac's EBUSY while down until 6.12, 55ddb6c5a3ae). The table is read from
    6.1 and 6.12 only, so without a date a kernel before, between or after them took what
    both say (audit 26). None where the kernel string has no version; True for an undated
    fact. Such changes are not backported to stable releases, so the series decides."""
    since, until = fact.get("since"), fact.get("until")
    if not since and not until:
        return True
    match = SERIES.search(kernel or "")
    if match is None:
        return None
    running = (int(match.group(1)), int(match.group(2)))
    if since and running < _version(str(since["release"])):
        return False
    return not (until and running >= _version(str(until["release"])))


def _version(series: str) -> tuple[int, int]:
    major, minor = series.split(".")[:2]
    return int(major), int(minor)
