"""The Debian kernel source trees a generated table came from, for the tests that check the
table against them: each series at the package version the table's pins name, obtained by
scripts/kernel_source.py (~25 s the first time on a machine, then cached)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from sbctune.resources import resource_root

SCRIPTS = Path(__file__).resolve().parents[1] / "scripts"
# the generated tables and VERSION.json (their pins), as the source tests read them
KERNEL_SOURCE = Path(__file__).resolve().parents[1] / "resources" / "kernel_source"
if str(SCRIPTS) not in sys.path:
    sys.path.insert(0, str(SCRIPTS))


def pinned_packages() -> dict[str, str]:
    """linux-source-<series> → version, as resources/kernel_source/VERSION.json pins them."""
    path = resource_root().joinpath("kernel_source", "VERSION.json")
    packages: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))["packages"]
    return packages


def kernel_trees(
    globs: Sequence[str],
    series: Iterable[str] | None = None,
    packages: dict[str, str] | None = None,
) -> dict[str, Path]:
    """series → the root of its tree holding `globs`; every series of `packages` (default: the
    pinned ones) or only those of `series`."""
    from kernel_source import obtain

    versions = packages if packages is not None else pinned_packages()
    wanted = (
        list(series) if series is not None else [n.removeprefix("linux-source-") for n in versions]
    )
    return {s: obtain(s, globs, version=versions[f"linux-source-{s}"]).root for s in wanted}


def shipped_table(name: str) -> Any:
    """A generated table of resources/kernel_source as shipped (JSON)."""
    return json.loads((KERNEL_SOURCE / name).read_text(encoding="utf-8"))


def shipped_rows(name: str) -> list[str]:
    """A generated TSV table of resources/kernel_source as shipped: its lines after the header."""
    return (KERNEL_SOURCE / name).read_text(encoding="utf-8").splitlines()[1:]
