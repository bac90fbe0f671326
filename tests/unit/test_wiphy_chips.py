"""Issue 24, corpus9's first gap by its class: a Wi-Fi driver names its chip on its wiphy at
info level ("ieee80211 phy0: rt2x00_set_rt: Info - RT chipset 3070, rev 0201 detected"); the
formats that do are generated from the kernel source (resources/kernel_source/wiphy_chips.json,
scripts/regen_wiphy_chips.py, checked against the source here), read into a Wi-Fi NIC and joined
to the device whose lines come just before. Real lines come from the corpus bundle named below
(its SOURCE.md gives the public source)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sbctune.advice.inspect import inspect_bundle, inventory_from_raw
from sbctune.catalog.wiphy_chips import wiphy_chip
from sbctune.inventory.raw import RawOutputs
from sbctune.resources import resource_root
from tests.kernel_trees import kernel_trees

ROOT = Path(__file__).resolve().parents[2]
BUNDLE = ROOT / "tests/captures/corpus/pi2_linux_897_dwa125_rt2x00_syslog_reset"
LINES = (BUNDLE / "commands" / "000-cat_var_log_syslog.txt").read_text(encoding="utf-8")
LINES_LIST = LINES.splitlines()
RESET = next(i for i, line in enumerate(LINES_LIST) if "reset high-speed" in line)
WIPHY = next(i for i, line in enumerate(LINES_LIST) if "RT chipset" in line)


def _table() -> dict:  # type: ignore[type-arg]
    path = resource_root().joinpath("kernel_source", "wiphy_chips.json")
    return json.loads(path.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def _inspect(lines: list[str]):  # type: ignore[no-untyped-def]
    return inventory_from_raw(RawOutputs(commands={"dmesg": "\n".join(lines) + "\n"}))


def test_the_rt2x00_line_names_the_rt3070_on_the_usb_device_reset_before_it() -> None:
    inv = _inspect(LINES_LIST)
    (nic,) = inv.nics
    assert (nic.chip, nic.bus, nic.bus_path, nic.usb_speed_mbps) == ("RT3070", "usb", "1-1.2", 480)
    assert nic.wireless and nic.ids is None and nic.driver is None  # never invented
    said = [e for e in nic.evidence if "RT chipset 3070" in e]
    assert said and "rt2x00/rt2x00.h" in said[0]


def test_without_the_device_line_the_chip_is_a_wifi_nic_of_its_own() -> None:
    inv = _inspect([line for i, line in enumerate(LINES_LIST) if i != RESET])
    (nic,) = inv.nics
    assert (nic.chip, nic.bus, nic.bus_path, nic.wireless) == ("RT3070", "unknown", None, True)


def test_the_same_unjoined_line_said_again_is_still_one_nic() -> None:
    lines = [line for i, line in enumerate(LINES_LIST) if i != RESET]
    inv = _inspect([*lines, LINES_LIST[WIPHY]])
    assert [n.chip for n in inv.nics] == ["RT3070"]


def test_a_device_line_far_earlier_on_the_clock_joins_nothing() -> None:
    late = LINES_LIST[WIPHY].replace("[    8.128879]", "[   18.128879]")
    lines = [late if i == WIPHY else line for i, line in enumerate(LINES_LIST)]
    chips = {n.bus_path: n.chip for n in _inspect(lines).nics}
    assert chips.get("1-1.2") != "RT3070" and "RT3070" in chips.values()


def test_only_the_bus_core_or_the_chips_own_driver_family_is_joined() -> None:
    from sbctune.inventory.wiphy_join import _bus_core_or_family

    assert _bus_core_or_family(None, "rt2x00")  # "usb 1-1.2: reset high-speed ..."
    assert _bus_core_or_family("rt2800usb", "rt2x00")  # ralink/rt2x00/rt2800usb.c
    assert _bus_core_or_family("ath9k_htc", "ath9k")
    assert not _bus_core_or_family("r8169", "ath9k")  # a wired NIC's line just before
    assert not _bus_core_or_family("not_a_driver", "rt2x00")


def test_without_the_wiphy_line_no_chip_is_named() -> None:
    inv = _inspect([line for i, line in enumerate(LINES_LIST) if i != WIPHY])
    assert all(n.chip is None for n in inv.nics)


def test_a_number_the_driver_does_not_list_as_a_chip_names_none() -> None:
    message = LINES_LIST[WIPHY].split("phy0: ", 1)[1]
    assert wiphy_chip(message) is not None
    assert wiphy_chip(message.replace("3070", "1234")) is None  # no #define RT1234 in rt2x00.h
    assert wiphy_chip(message.replace("3070", "????")) is None


def test_mt76s_asic_revision_names_the_chip_by_its_top_16_bits() -> None:
    corpus = ROOT / "tests/captures/corpus"
    (nic,) = inspect_bundle(corpus / "wlanpi_pigen_78_mt7921e_probe_enomem").nics
    assert (nic.chip, nic.bus_path) == ("MT7922", "0000:01:00.0")  # "ASIC revision: 79220010"
    assert any("mt76.h mt76_chip()" in e for e in nic.evidence)
    (failed,) = inspect_bundle(corpus / "kali_mt76_687_mt76x2u_journal_epipe_disconnect").nics
    assert failed.chip is None  # "ASIC revision: ffffffff": a failed read names no chip


@given(st.text(max_size=300))
def test_any_text_names_a_chip_only_by_a_format_of_the_table(text: str) -> None:
    found = wiphy_chip(text)
    if found is not None:
        assert found.chip[2:].lower() in text.lower()
        assert found.format in [row["format"] for row in _table()["formats"]]


@pytest.mark.posix_only("obtains Debian's kernel source with apt-get and dpkg")
def test_the_table_is_what_the_source_says() -> None:
    from regen_wiphy_chips import GLOBS, build, driver_revisions, revisions

    table = _table()
    trees = kernel_trees(GLOBS, table["linux-source"])
    assert build(trees) == table["formats"]
    assert {s: revisions(root) for s, root in trees.items()} == table["mt76_revisions"]
    drivers = json.loads(
        (ROOT / "resources/kernel_source/drivers.json").read_text(encoding="utf-8")
    )["drivers"]
    by_driver = {s: driver_revisions(root, drivers) for s, root in trees.items()}
    assert by_driver == table["driver_revisions"]
    for series, rows in by_driver.items():
        row = rows["mt7601u"]  # type: ignore[index]
        source = (trees[series] / row["file"]).read_text(encoding="utf-8")
        assert f"(asic_rev >> 16) != 0x{row['accepts']}" in source and "MT_ASIC_VERSION" in source
        assert f'"{row["format"]}\\n"' in source and "mt7601u_probe(" in source
    chips = table["mt76_revisions"]["6.12"]["chips"]
    assert chips["7922"] == "MT7922" and chips["7961"] == "MT7921"  # is_mt7921(): 0x7961
    assert chips["7662"] == "MT76x2"  # only is_mt76x2() lists it: the family, no more
    rows = {row["format"]: row for row in table["formats"]}
    rt = rows["%s: Info - RT chipset %04x, rev %04x detected"]
    assert rt["family"] == "rt2x00" and "RT3070" in rt["chips"]
    for series, files in rt["files"].items():
        header = (trees[series] / files[0]).read_text(encoding="utf-8")
        assert "rt2x00_set_rt(" in header and "RT chipset %04x" in header
        assert "#define RT3070\t\t0x3070" in header or "RT3070" in header
    ath = rows["Atheros AR%s Rev:%x"]
    assert ath["family"] == "ath9k" and ath["chips"] is None  # the line prints the name itself
    assert not any(row["prefix"] == "RF" for row in table["formats"])  # RF3020 is 0x0005
