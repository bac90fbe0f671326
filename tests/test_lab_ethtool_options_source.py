"""The lab's ethtool option table (resources/lab/ethtool/options.json) against the kernel source
it cites: every function named for an option's refusal, and every PHY / SFP attachment that
lets a PHY answer instead, exists in both Debian source versions of the driver table
(linux-source-6.1 and -6.12, cached in ~/.cache/sbctune/kernel-src as for
tests/test_driver_caps_source.py)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import kernel_source  # noqa: E402

TABLE: dict[str, Any] = json.loads(
    (ROOT / "resources/tuning/driver_caps.json").read_text(encoding="utf-8")
)
OPTIONS: dict[str, Any] = json.loads(
    (ROOT / "resources/lab/ethtool/options.json").read_text(encoding="utf-8")
)
GLOBS = ("drivers/net/*", "net/ethtool/*")


@pytest.fixture(scope="module")
def trees() -> dict[str, Path]:
    roots = {}
    for series, info in TABLE["kernels"].items():
        source = kernel_source.obtain(series, GLOBS, version=info["version"])
        roots[series] = source.root
    return roots


def _cites() -> list[tuple[str, str]]:
    """(series or "", "file: function") for every citation of the table."""
    found = []
    for spec in OPTIONS["options"]:
        by_series = spec.get("kernel_by_series", {})
        for series in TABLE["kernels"]:
            found.append((series, by_series.get(series, spec["kernel"])))
    for kind in ("phy_drivers", "sfp_drivers"):
        for where in OPTIONS[kind].values():
            found += [(s, f"{where['file']}: {where['function']}") for s in TABLE["kernels"]]
    return found


@pytest.mark.parametrize(("series", "cite"), _cites())
def test_each_cited_function_is_in_the_source(
    trees: dict[str, Path], series: str, cite: str
) -> None:
    file, function = cite.split(": ")
    text = (trees[series] / file).read_text(encoding="utf-8", errors="replace")
    assert re.search(rf"(?m)^[a-z].*[\s*]{re.escape(function)}\(", text), f"{series} {cite}"


@pytest.mark.parametrize("driver", sorted(OPTIONS["phy_drivers"]))
def test_a_phy_driver_attaches_a_phy(trees: dict[str, Path], driver: str) -> None:
    """The cited function connects a PHY (phylib or phylink) in both series."""
    where = OPTIONS["phy_drivers"][driver]
    for root in trees.values():
        text = (root / where["file"]).read_text(encoding="utf-8", errors="replace")
        body = text[text.index(f" {where['function']}(") :][:6000]
        assert re.search(r"phy_connect|phylink_\w*connect|of_phy_connect", body), driver


def test_the_driver_tables_drivers_without_a_phy_attach_none(trees: dict[str, Path]) -> None:
    """The pasted drivers not listed as PHY drivers never call phylib's connect in their own
    source (a PHY cannot answer for them: the kernel refuses)."""
    others = [d for d in TABLE["pasted"] if d not in OPTIONS["phy_drivers"]]
    for series, root in trees.items():
        for driver in others:
            for file in TABLE["drivers"][driver][series]["sources"]:
                text = (root / file).read_text(encoding="utf-8", errors="replace")
                assert not re.search(r"phy_connect|phylink_create", text), (series, driver, file)
