"""The Debian kernel source trees a generated table came from, for the tests that check the
table against them: each series at the package version the table's pins name, obtained by
scripts/kernel_source.py (~25 s the first time on a machine, then cached)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

from sbctune.resources import resource_root

SCRIPTS = Path(__file__).resolve().parents[1] / "scripts"
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
