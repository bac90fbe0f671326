"""Which Raspberry Pi kernel branches carry a fact read in the raspberrypi/linux tree, as the
evidence shows it (issue 21): each branch the table names is "carried", "not carried" or
"unknown"; a carried or not-carried branch has a public source that names it, the words
(`carried_by`) say the same, and the code's answer (`rpi_carried`) agrees: never a denial
without evidence. macb's RP1 coalescing: carried from rpi-6.18.y on (inferred from code: PR #7340
and a public fork of that era) and on rpi-6.1.y (a Pi 5's paste, audit 24), unknown between.
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
    if branch.startswith("ubuntu-raspi-"):  # Ubuntu's own tree with the Raspberry Pi patches
        return branch.removeprefix("ubuntu-raspi-") + ".0-1056-raspi"
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
        number = branch.removeprefix("ubuntu-raspi-").removeprefix("rpi-").removesuffix(".y")
        assert any(number in s or branch in s for s in sources), (branch, "no source names it")


def test_macb_coalescing_is_carried_on_rpi_6_1_and_from_rpi_6_18_unknown_between() -> None:
    """s12: rpi-6.18.y carries the downstream RP1 patch's tx_pending (PR #7340) and a public
    fork of the Raspberry Pi tree of that era (pre-7.0 API, 2026 EEE code) has it together with
    gem_get/set_coalesce, as the 2024 posting and the 7.0-or-later stored commit do: carried
    from rpi-6.18.y on, inferred from code and said so. s24: a Pi 5 project on 6.1.72-v8-16k+
    pastes ethtool -c eth0 (rx/tx-usecs 49): rpi-6.1.y carried. No source names rpi-6.6.y or
    rpi-6.12.y: unknown there, never denied."""

    def about_coalescing(fact: dict[str, Any]) -> bool:
        return "get_coalesce" in str(fact["value"]) or fact["fact"].startswith("coalesce")

    coalescing = [f for d, f in rpi_facts() if d == "macb" and about_coalescing(f)]
    # the ops, the params, the limit, the tick, the default, and the default set again at
    # every open (s15: macb_open -> macb_init_hw -> gem_init_intmod, read at 049a36de)
    assert len(coalescing) == 6
    for fact in coalescing:
        span = fact["rpi_series"]
        assert span["from"] == "6.18" and span["without"] == []
        assert span["branches"]["rpi-6.18.y"] == "carried"
        # s24 (audit 24 row 2): a Pi 5 whose project names 6.1.72-v8-16k+ answers ethtool -c
        assert span["branches"]["rpi-6.1.y"] == "carried"
        assert {span["branches"][b] for b in ("rpi-6.6.y", "rpi-6.12.y")} == {"unknown"}
        assert any("6.1.72-v8-16k+" in s for s in span["sources"])
        assert "inferred from code" in fact["carried_by"]
        assert any("pull/7340" in s and "rpi-6.18.y" in s for s in span["sources"])
        assert any("RickyOneOS/linux-rpi" in s for s in span["sources"])
        assert any("e9e42139" in s for s in span["sources"])  # the pre-RP1 tree, read too
        assert driver_caps.rpi_carried(fact, "6.18.39+rpt-rpi-2712") is True
        assert driver_caps.rpi_carried(fact, "6.12.75+rpt-rpi-2712") is None
        assert driver_caps.rpi_carried(fact, "6.1.0-rpi7-rpi-2712") is True
        assert driver_caps.rpi_carried(fact, None) is None
    on_618 = driver_caps.caps("macb", "6.18.39+rpt-rpi-2712", "Cadence GEM in RP1")
    on_612 = driver_caps.caps("macb", "6.12.75+rpt-rpi-2712", "Cadence GEM in RP1")
    assert on_618 is not None and on_612 is not None
    assert on_618.has("set_coalesce") and "set_coalesce" not in on_618.unsure
    assert not on_612.has("set_coalesce") and "set_coalesce" in on_612.unsure


def test_nway_reset_is_not_tied_to_the_eee_backport() -> None:
    """The fork with macb_get_eee/macb_set_eee has no .nway_reset, so rpi-6.18.y's EEE backport
    (#7270) does not show it: its own fact, unknown on rpi-6.18.y; Ubuntu's 6.8 Raspberry Pi
    kernel answers 'ethtool -r' with 'Operation not supported' (#7395)."""
    macb = driver_caps.table()["hand"]["macb"]
    eee = next(f for f in macb if f["fact"] == "ops_added" and "get_eee" in f["value"])
    nway = next(f for f in macb if f["fact"] == "ops_added" and f["value"] == ["nway_reset"])
    assert eee["value"] == ["get_eee", "set_eee"]
    assert driver_caps.rpi_carried(eee, "6.18.39+rpt-rpi-2712") is True
    assert driver_caps.rpi_carried(nway, "6.18.39+rpt-rpi-2712") is None
    assert driver_caps.rpi_carried(nway, "6.8.0-1056-raspi") is False
    ubuntu = driver_caps.caps("macb", "6.8.0-1056-raspi", "Cadence GEM in RP1")
    assert ubuntu is not None and "nway_reset" not in ubuntu.ops | ubuntu.unsure
    assert {"get_eee", "set_eee"} <= ubuntu.unsure  # #7395 shows -r only: EEE not claimed


def test_an_ubuntu_raspi_kernel_is_not_taken_for_the_rpi_branch_of_its_number() -> None:
    """Ubuntu's 6.12 Raspberry Pi kernel is not rpi-6.12.y: the EEE facts' "without 6.12"
    (Raspberry Pi OS pastes) does not deny it there; only an ubuntu-raspi entry would."""
    eee = next(f for f in driver_caps.table()["hand"]["macb"]
               if f["fact"] == "ops_added" and "get_eee" in f["value"])  # fmt: skip
    assert driver_caps.rpi_carried(eee, "6.12.75+rpt-rpi-2712") is False
    assert driver_caps.rpi_carried(eee, "6.12.0-1005-raspi") is None


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
