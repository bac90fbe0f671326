"""Reading a lab.toml table: a sub-table, its allowed keys, a number; each refusal a
ProfileError naming where in the profile it is."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sbctune.lab.errors import ProfileError


def sub_table(data: Mapping[str, Any], key: str, where: str) -> dict[str, Any]:
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise ProfileError(f"{where}: [{key}] must be a table")
    return value


def check_keys(table: Mapping[str, Any], allowed: set[str], where: str) -> None:
    unknown = sorted(set(table) - allowed)
    if unknown:
        raise ProfileError(
            f"{where}: unknown {'key' if len(unknown) == 1 else 'keys'} {', '.join(unknown)}",
            "allowed: " + ", ".join(sorted(allowed)),
        )


def number(
    table: Mapping[str, Any],
    key: str,
    where: str,
    *,
    positive: bool = True,
) -> float | None:
    if key not in table:
        return None
    value = table[key]
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ProfileError(f"{where}: {key} must be a number, got {value!r}")
    if value < 0 or (positive and value == 0):
        raise ProfileError(f"{where}: {key} must be {'positive' if positive else '>= 0'}")
    return float(value)
