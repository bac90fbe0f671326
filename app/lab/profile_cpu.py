"""A lab profile's [cpu] table: the CPUs and cpufreq policy the lab's sysfs shows (the count
must match the captured /proc/interrupts' CPU columns)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sbctune.lab.errors import ProfileError
from sbctune.lab.profile_tables import check_keys, sub_table

DEFAULT_GOVERNORS = (
    "conservative",
    "ondemand",
    "userspace",
    "powersave",
    "performance",
    "schedutil",
)


@dataclass(frozen=True)
class CpuModel:
    count: int
    governors: tuple[str, ...] = DEFAULT_GOVERNORS
    governor: str = "ondemand"
    min_khz: int = 600000
    max_khz: int = 1500000
    governor_modules: tuple[str, ...] = ()  # built as modules: listed once a write loads them
    isolated: tuple[int, ...] = ()  # the CPUs the Pi's isolcpus= takes from housekeeping


def parse_cpu(data: Mapping[str, Any], captured_cpus: int | None, where: str) -> CpuModel:
    table = sub_table(data, "cpu", where)
    keys = {"count", "governors", "governor", "min_khz", "max_khz", "governor_modules",
            "isolated"}  # fmt: skip
    check_keys(table, keys, f"{where} [cpu]")
    count = table.get("count", captured_cpus)
    if count is None:
        raise ProfileError(f"{where}: [cpu] count is required (no /proc/interrupts to count)")
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= 256:
        raise ProfileError(f"{where}: [cpu] count must be a whole number from 1 to 256")
    if captured_cpus is not None and count != captured_cpus:
        raise ProfileError(
            f"{where}: [cpu] count is {count} but the captured /proc/interrupts has"
            f" {captured_cpus} CPU columns"
        )
    governors = table.get("governors", list(DEFAULT_GOVERNORS))
    if (
        not isinstance(governors, list)
        or not governors
        or not all(isinstance(g, str) and g.isidentifier() for g in governors)
    ):
        raise ProfileError(f"{where}: [cpu] governors must be a list of governor names")
    governor = str(table.get("governor", "ondemand" if "ondemand" in governors else governors[0]))
    if governor not in governors:
        raise ProfileError(f"{where}: [cpu] governor {governor!r} is not in governors")
    min_khz = table.get("min_khz", 600000)
    max_khz = table.get("max_khz", 1500000)
    for key, value in (("min_khz", min_khz), ("max_khz", max_khz)):
        if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
            raise ProfileError(f"{where}: [cpu] {key} must be a positive whole number")
    if min_khz > max_khz:
        raise ProfileError(f"{where}: [cpu] min_khz is above max_khz")
    modules = table.get("governor_modules", [])
    if not isinstance(modules, list) or not all(
        isinstance(g, str) and g.isidentifier() and g not in governors for g in modules
    ):
        raise ProfileError(f"{where}: [cpu] governor_modules must list governors not loaded")
    isolated = table.get("isolated", [])
    if not isinstance(isolated, list) or not all(
        isinstance(c, int) and not isinstance(c, bool) and 0 < c < count for c in isolated
    ):  # the kernel keeps one housekeeping CPU: the boot CPU, 0, is never isolated here
        raise ProfileError(f"{where}: [cpu] isolated must list CPUs from 1 to count - 1")
    return CpuModel(count, tuple(governors), governor, min_khz, max_khz, tuple(modules),
                    tuple(sorted(set(isolated))))  # fmt: skip
