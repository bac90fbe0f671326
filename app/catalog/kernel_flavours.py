"""The SoC a kernel build names in its release string (resources/catalog/kernel_flavours.json):
Raspberry Pi OS's "6.12.20+rpt-rpi-2712" runs only on a BCM2712. Suffixes, not patterns: the
release comes from a Pi and is only compared, never made a regex."""

from __future__ import annotations

import functools
import json
from typing import Any


@functools.cache
def _flavours() -> list[dict[str, Any]]:
    from sbctune.resources import resource_root

    try:
        text = (
            resource_root().joinpath("catalog", "kernel_flavours.json").read_text(encoding="utf-8")
        )
        rows = json.loads(text).get("flavours", [])
    except (OSError, ValueError, AttributeError):
        return []
    return [r for r in rows if isinstance(r, dict) and isinstance(r.get("suffix"), str)]


def soc_by_kernel(release: object) -> tuple[str, str] | None:
    """(SoC, source) for a kernel release whose build names its SoC, else None."""
    if not isinstance(release, str) or len(release) > 200:
        return None
    text = release.strip()
    for row in _flavours():
        if text.endswith(row["suffix"]):
            return str(row["soc"]), str(row.get("source", ""))
    return None
