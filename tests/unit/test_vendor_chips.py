"""Issue 24, corpus9's second gap by its class: an out-of-tree Realtek/MediaTek driver's name
encodes its chip ("rtw89_8852bu_git", morrownr's "8821cu", "88x2bu"), read by a rule over the
name against the models the kernel's own Kconfig and Makefiles name
(resources/kernel_source/vendor_chips.json, scripts/regen_vendor_chips.py, checked against the
source here). The real paste is the corpus bundle named below (its SOURCE.md gives the source);
the other names are the published names of out-of-tree drivers, not device outputs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sbctune.advice.inspect import inspect_bundle
from sbctune.catalog.oot_chips import chip_by_oot_name, out_of_tree_chip
from sbctune.resources import resource_root
from tests.kernel_trees import kernel_trees

ROOT = Path(__file__).resolve().parents[2]
BUNDLE = ROOT / "tests/captures/corpus/x86_rtw89_pr40_lshw_rtw8852bu_git_usb_wlx"


def _table() -> dict:  # type: ignore[type-arg]
    path = resource_root().joinpath("kernel_source", "vendor_chips.json")
    return json.loads(path.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def test_the_lshw_paste_names_the_rtl8852bu_and_says_the_driver_is_out_of_tree() -> None:
    (nic,) = inspect_bundle(BUNDLE).nics
    assert (nic.chip, nic.driver, nic.bus, nic.wireless) == (
        "RTL8852BU",
        "rtw89_8852bu_git",
        "usb",
        True,
    )
    said = [e for e in nic.evidence if "out-of-tree" in e]
    assert said and "not in 6.1/6.12" in said[0] and "rtw89/" in said[0]


@pytest.mark.parametrize(
    ("driver", "chip"),
    [
        ("rtw89_8852bu_git", "RTL8852BU"),
        ("8821cu", "RTL8821CU"),
        ("88x2bu", "RTL88x2BU"),  # one driver for 8812BU and 8822BU: the name says no more
        ("rtl88x2bu", "RTL88x2BU"),
        ("8812au", "RTL8812AU"),
        ("rtl8192eu", "RTL8192EU"),
        ("mt7612u", "MT7612U"),
    ],
)
def test_an_out_of_tree_name_encodes_a_chip_whose_family_the_kernel_knows(
    driver: str, chip: str
) -> None:
    found = out_of_tree_chip(driver)
    assert found is not None and found[0] == chip


@pytest.mark.parametrize(
    "driver",
    [
        "8814au",  # no 8814 in 6.1/6.12: the family is not known, no chip is made up
        "rtl8xxxu",  # in-tree, and "8xxx" names many families
        "r8169",  # in-tree: its chips come from elsewhere
        "rtw89_8852be",  # in-tree: MODULE_DESCRIPTION names it (chip_by_description)
        "foo_8250",
        "8192",
    ],
)
def test_no_chip_where_the_name_does_not_truly_encode_one(driver: str) -> None:
    assert out_of_tree_chip(driver) is None


@given(st.text(max_size=80))
def test_any_name_gives_a_chip_only_from_a_model_it_holds(name: str) -> None:
    found = chip_by_oot_name(name)
    if found is not None:
        digits = found.chip.lstrip("RTLM").lower()
        assert digits in name.lower()


@pytest.mark.posix_only("obtains Debian's kernel source with apt-get and dpkg")
def test_the_table_is_what_the_source_says() -> None:
    from regen_vendor_chips import GLOBS, build

    table = _table()
    trees = kernel_trees(GLOBS, table["linux-source"])
    assert build(trees) == table["models"]
    realtek = table["models"]["realtek"]
    assert realtek["8822bu"]["series"] == ["6.12"]  # rtw88's USB parts came after 6.1
    assert "8852bu" not in realtek and "8852be" in realtek  # rtw89's USB parts: not yet
    text = (trees["6.12"] / realtek["8852be"]["file"]).read_text(encoding="utf-8")
    assert "8852BE" in text.upper()
