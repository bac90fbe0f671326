"""Issue 21, task mtu17 (driver_caps_audit17.md row 2): a fact that a stable backport changed
within a kernel series. ax88179_bind sets max_mtu 4088, but from upstream c7159e960f14 ("usbnet:
limit max_mtu based on device's hard_mtu", in stable 6.1.162, 6.12.68 and 5.15.199)
usbnet_probe lowers it after the bind to hard_mtu - hard_header_len, 1500. The table answers per
patch level: a kernel string that says its level gets its side of the change; one that does
not (Debian's "6.1.0-41-arm64", a 6.6 kernel the table has no level for) gets neither, and the
Pi's own `ip -d link` decides. The early check, the advice and the lab read the same answer."""

from __future__ import annotations

import dataclasses
import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sbctune.advice import advise
from sbctune.catalog import load_catalog
from sbctune.history.records import RunRecord, TestRecord
from sbctune.inventory.model import Board, Inventory, Nic
from sbctune.lab import ip_front, load_profile
from sbctune.tuning import driver_caps
from sbctune.tuning.driver_caps_series import patch_holds, patch_level
from sbctune.tuning.source_rule import out_of_reach

CHIP = "ASIX AX88179"
JUMBO = "Use jumbo frames (MTU 9000) if the whole path supports them"


@pytest.mark.parametrize(
    ("kernel", "top", "cited"),
    [
        ("6.1.170", 1500, "usbnet.c: usbnet_probe"),  # after 6.1.162
        ("6.1.162", 1500, "usbnet.c: usbnet_probe"),  # the first 6.1 with it
        ("6.1.140", 4088, "ax88179_178a.c: ax88179_bind"),
        ("6.12.69+deb13-arm64", 1500, "usbnet.c: usbnet_probe"),  # Debian trixie's own string
        ("6.12.68", 1500, "usbnet.c: usbnet_probe"),
        ("6.12.67", 4088, "ax88179_178a.c: ax88179_bind"),
        ("6.12.25+rpt-rpi-2712", 4088, "ax88179_178a.c: ax88179_bind"),  # rpi-6.12.y at .25
        ("5.15.4-0-rpi4", 4088, "ax88179_178a.c: ax88179_bind"),  # the pi4-ax88179 lab's
    ],
)
def test_the_table_answers_by_patch_level(kernel: str, top: int, cited: str) -> None:
    caps = driver_caps.caps("ax88179_178a", kernel, CHIP)
    assert caps is not None
    assert caps.mtu_max(CHIP) == top
    assert caps.mtu_max_cite(CHIP).endswith(cited)


@pytest.mark.parametrize(
    "kernel",
    [
        None,
        "",
        "6.1.0-41-arm64",
        "6.1.0-rpi7-rpi-v8",
        "6.6.51+rpt-rpi-2712",
        "6.8.0-1056-raspi",
        "6.19.2",
    ],
)
def test_a_kernel_whose_patch_level_does_not_say_gets_neither(kernel: str | None) -> None:
    """No 4088 and no 1500: the planner reads the Pi's `ip -d link` (before: 4088 for all)."""
    caps = driver_caps.caps("ax88179_178a", kernel, CHIP)
    assert caps is not None and caps.mtu_max(CHIP) is None
    assert caps.facts.get("mtu_min") == 0  # the facts no backport changed still hold


def _inventory(kernel: str) -> tuple[Inventory, Nic]:
    nic = Nic("eth1", driver="ax88179_178a", chip=CHIP, bus="usb", usb_speed_mbps=5000,
              link_speed_mbps=1000, mtu=1500)  # fmt: skip
    return Inventory(board=Board(kernel=kernel), nics=[nic]), nic


def test_the_early_check_refuses_4000_only_where_the_kernel_caps_it() -> None:
    """source_rule: MTU 4000 on a 6.1.170 kernel is EINVAL (max_mtu 1500), on 6.1.140 it fits."""
    inventory, nic = _inventory("6.1.170")
    words = out_of_reach("mtu-jumbo", inventory, nic, {"mtu": 4000})
    assert words is not None and "at most 1500" in words and "usbnet_probe" in words
    inventory, nic = _inventory("6.1.140")
    assert out_of_reach("mtu-jumbo", inventory, nic, {"mtu": 4000}) is None


def test_the_lab_answers_as_the_kernel_it_names() -> None:
    """ip_front.limits: the pi4-ax88179 profile's 5.15.4 predates 5.15.199 (4088); the same
    Pi on 6.12.70 shows 1500; on a 6.6 kernel the lab claims no maximum of the table's."""
    profile = load_profile("pi4-ax88179")
    assert ip_front.limits(profile)["eth1"]["max"] == 4088
    newer = dataclasses.replace(profile, kernel="6.12.70+rpt-rpi-v8")
    assert ip_front.limits(newer)["eth1"]["max"] == 1500
    unknown = dataclasses.replace(profile, kernel="6.6.51+rpt-rpi-v8")
    assert "max" not in ip_front.limits(unknown)["eth1"]


def test_no_jumbo_advice_on_either_side() -> None:
    """The advice never offers MTU 9000 to an AX88179: 4088 before the backport, 1500 after."""
    for kernel in ("6.1.140", "6.1.170"):
        inventory, _nic = _inventory(kernel)
        run = RunRecord(
            1, dt.datetime(2026, 11, 30, tzinfo=dt.timezone.utc), "quick", nic="eth1", id=1,
            complete=True,
            tests=[TestRecord(direction=d, mode="half", mean_mbps=940.0)
                   for d in ("pi_to_pc", "pc_to_pi")],
        )  # fmt: skip
        advice = advise(inventory, [run], load_catalog())
        assert JUMBO not in [r.title for r in advice.recommendations], kernel


def test_every_backported_fact_says_its_commit_levels_and_sources() -> None:
    """A "patch" fact names the commit, the first patch level per series and where each is
    read; a "since" fact's change is in the table's own Debian trees (their package versions
    are at or above the first level), so the cited source shows what it claims."""
    table = driver_caps.table()
    found = [f for facts in table["hand"].values() for f in facts if f.get("patch")]
    assert len(found) >= 2  # ax88179 before and since
    for fact in found:
        span = fact["patch"]
        assert span["holds"] in ("since", "before") and len(span["commit"]) >= 12
        assert span["first"] and span["sources"]
        for series, first in span["first"].items():
            if first is None:  # never in that series up to its cited tree (audit 30: igc, 5.10)
                assert series in table.get("cited_kernels", {}), (series, span)
                continue
            if isinstance(first, dict):  # only bounds known (audit 34b row 9): read, or seen
                assert set(first) <= {"above", "by"} and first, (series, span)
                assert all(v.startswith(f"{series}.") for v in first.values()), first
                continue
            assert first.startswith(f"{series}."), first
        if span["holds"] == "since":
            trees = {**table.get("cited_kernels", {}), **table["kernels"]}
            for series in fact["kernels"]:
                package = trees[series]["version"].split("-")[0]
                assert patch_holds(fact, package) is True, (series, package)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=80))
def test_patch_level_reads_garbage_without_failing(text: str) -> None:
    level = patch_level(text)
    assert level is None or (len(level) == 3 and all(isinstance(n, int) for n in level))
