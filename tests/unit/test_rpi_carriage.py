"""Which Raspberry Pi kernel branches carry a fact read in the raspberrypi/linux tree, as the
evidence shows it (issue 21): each branch the table names is "carried", "not carried" or
"unknown"; a carried or not-carried branch has a public source that names it, the words
(`carried_by`) say the same, and the code's answer (`rpi_carried`) agrees: never a denial
without evidence. macb's RP1 coalescing is seen only in a 6.19-or-later tree and in the 2024
posting of the downstream code: every released branch is unknown.
"""

from __future__ import annotations

import sys
from typing import Any

import pytest

from sbctune.tuning import driver_caps

STATES = {"carried": True, "not carried": False, "unknown": None}


def rpi_facts() -> list[tuple[str, dict[str, Any]]]:
    return [(d, f) for d, facts in driver_caps.table()["hand"].items() for f in facts
            if f.get("tree") == driver_caps.RPI_TREE and f.get("rpi_series")]  # fmt: skip


def _kernel(branch: str) -> str:
    return branch.removeprefix("rpi-").removesuffix(".y") + ".0+rpt-rpi-2712"


@pytest.mark.parametrize(("driver", "fact"), rpi_facts(), ids=lambda v: str(v)[:40])
def test_each_branch_is_what_its_sources_show(driver: str, fact: dict[str, Any]) -> None:
    span = fact["rpi_series"]
    sources = span.get("sources", [])
    assert any(span["seen_at"] in s for s in sources) or span.get("from"), (driver, fact["fact"])
    branches = span.get("branches")
    assert branches, f"{driver} {fact['fact']}: say which rpi-N.y branches carry it"
    for branch, state in branches.items():
        assert state in STATES, (branch, state)
        assert branch in fact["carried_by"], (driver, fact["fact"], branch)
        answer = driver_caps.rpi_carried(fact, _kernel(branch))
        if state == "unknown":
            assert answer is not False, (branch, "denied without evidence")
            continue
        assert answer is STATES[state], (driver, fact["fact"], branch, answer)
        number = branch.removeprefix("rpi-").removesuffix(".y")
        assert any(number in s or branch in s for s in sources), (branch, "no source names it")


def test_macb_coalescing_is_unknown_on_every_released_branch() -> None:
    def about_coalescing(fact: dict[str, Any]) -> bool:
        return "get_coalesce" in str(fact["value"]) or fact["fact"].startswith("coalesce")

    coalescing = [f for d, f in rpi_facts() if d == "macb" and about_coalescing(f)]
    assert len(coalescing) == 5  # the ops, the params, the limit, the tick, the default
    for fact in coalescing:
        span = fact["rpi_series"]
        assert span["from"] is None and span["without"] == []  # no branch range is claimed
        assert set(span["branches"].values()) == {"unknown"}
        assert "6.19 or later" in fact["carried_by"] and "unknown" in fact["carried_by"]
        assert any("e9e42139" in s for s in span["sources"])  # the pre-RP1 tree, read too


def test_rp1_tso_is_the_hardwares_and_the_lab_claims_none() -> None:
    """Row 13 (driver_caps_audit2.md): macb_init adds TSO only where GEM_DCFG6 says PBUF_LSO,
    and nothing public says what RP1's GEM reports; the table says so, and the lab's Pi 5
    does not show TSO on (never kinder than the kernel it may be)."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib

    from sbctune.resources import resource_root

    caps = driver_caps.caps("macb", None, "Cadence GEM in RP1")
    assert caps is not None
    assert caps.facts["features_by_hardware"]["tso"] == "GEM_DCFG6 PBUF_LSO"
    assert "read it from the Pi" in str(
        next(f["why"] for f in driver_caps.table()["hand"]["macb"]
             if f["fact"] == "features_by_hardware")
    )  # fmt: skip
    model = resource_root().joinpath("lab", "ethtool", "drivers", "macb.toml")
    features = tomllib.loads(model.read_text(encoding="utf-8"))["features"]
    assert not any("tcp-segmentation" in name or name == "tso" for name in features["on"])
