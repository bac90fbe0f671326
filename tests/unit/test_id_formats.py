"""Issue 24, class 3: a device's IDs printed only by its driver's own line are read by the
kernel format the line was printed from (resources/kernel_source/id_formats.tsv), for any
driver. Real lines come from the corpus bundles named beside them."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sbctune.advice.inspect import inventory_from_raw
from sbctune.catalog.id_formats import IdFormats, load_id_formats
from sbctune.catalog.kernel_messages import _SPEC_RE
from sbctune.inventory.graph import join
from sbctune.inventory.log_complaints import IDS_BY_FORMAT
from sbctune.inventory.raw import RawOutputs
from sbctune.inventory.sightings import Sighting
from sbctune.resources import resource_root

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "captures" / "corpus"


def _text(bundle: str) -> str:
    return (CORPUS / bundle / "commands" / "000-dmesg.txt").read_text(encoding="utf-8")


def _line(bundle: str, needle: str) -> str:
    return next(line for line in _text(bundle).splitlines() if needle in line)


RTL8XXXU = "mt7621_openwrt_17566_rtl8xxxu_efuse_probe_einval"


def test_the_untested_dongle_line_gives_its_ids() -> None:
    line = _line(RTL8XXXU, "untested")
    found = load_id_formats().ids_in(line.split("] ", 1)[1])
    assert found is not None and found[0] == "2357:0108"
    assert all("/rtl8xxxu/" in f for f in found[1].files)
    (nic,) = inventory_from_raw(RawOutputs(commands={"dmesg": _text(RTL8XXXU)})).nics
    assert (nic.bus_path, nic.ids, nic.driver) == ("1-1", "2357:0108", None)
    assert any("as drivers/net/wireless/realtek/rtl8xxxu" in e for e in nic.evidence)


@pytest.mark.parametrize(
    "bundle",
    [  # ath10k's hardware line: "sub %04x:%04x" is the card maker's subsystem, not the IDs
        "ipq4019_ath10k_ct_62_ath10k_ahb_fw_crash",
        "r7800_lede_10654_ath10k_qca9984_logread_debug_info",
        "x86_nixos_56355_ath10k_qca9377_journal_otp_etimedout",
    ],
)
def test_a_subsystem_pair_is_not_the_devices_ids(bundle: str) -> None:
    line = _line(bundle, "chip_id")
    assert " sub " in line and load_id_formats().ids_in(line) is None
    for nic in inventory_from_raw(RawOutputs(commands={"dmesg": _text(bundle)})).nics:
        assert nic.ids is None or nic.ids.split(":")[1] not in line.split(" sub ")[1]


def test_an_enumeration_line_wins_over_a_drivers_line() -> None:
    """Ranked after every source that lists IDs itself (graph.PRECEDENCE["ids"])."""
    listed, said = Sighting([("usb", "1-1")]), Sighting([("usb", "1-1")])
    listed.add("ids", "0bda:8179", "dmesg", "New USB device found", 1)
    said.add("ids", "2357:0108", IDS_BY_FORMAT, "This Realtek USB WiFi dongle", 2)
    (device,) = join([said, listed])
    assert device.value("ids") == "0bda:8179"
    (device,) = join([said])
    assert device.value("ids") == "2357:0108"


def test_the_pair_is_read_in_the_formats_order() -> None:
    table = IdFormats(
        "# header\n1,0\tinfo\t6.12\tx.c\tdevice %04x of vendor %04x\n"  # product first
    )
    found = table.ids_in("device 0108 of vendor 2357")
    assert found is not None and found[0] == "2357:0108"
    assert table.ids_in("device 0108 of vendor 2357 and more") is None


@given(st.text(max_size=200))
def test_any_text_gives_ids_that_it_shows_or_none(text: str) -> None:
    found = load_id_formats().ids_in(text)
    if found is not None:
        vendor, product = found[0].split(":")
        assert vendor in text.lower() and product in text.lower()


@pytest.mark.posix_only("obtains Debian's kernel source with apt-get and dpkg")
def test_the_id_format_table_is_what_the_source_says() -> None:
    sys.path.insert(0, str(ROOT / "scripts"))
    from kernel_source import SERIES, obtain
    from regen_id_formats import GLOBS, formats

    text = resource_root().joinpath("kernel_source", "id_formats.tsv").read_text(encoding="utf-8")
    rows = [line.split("\t") for line in text.splitlines() if not line.startswith("#")]
    assert any("This Realtek USB WiFi dongle" in row[4] for row in rows)
    trees = {series: obtain(series, GLOBS).root for series in SERIES}
    # the pair where the source's scan finds it: by the format's words, or by its arguments
    # (brcmfmac's "Enter %x:%x" of pdev->vendor and pdev->device)
    where = {fmt: found[2] for tree in trees.values() for fmt, found in formats(tree).items()}
    assert any(row[4] == "Enter %x:%x" for row in rows)
    for at, _level, series, files, fmt in rows:
        assert where.get(fmt) == tuple(int(x) for x in at.split(","))
        literal = max(_SPEC_RE.split(fmt)[::2], key=len)
        for one in series.split(","):
            shown = [(trees[one] / f) for f in files.split(",") if (trees[one] / f).is_file()]
            joined = [  # adjacent string literals across lines, as the compiler joins them
                re.sub(r'"\s*\n\s*"', "", p.read_text(encoding="utf-8", errors="replace"))
                for p in shown
            ]
            assert any(literal in text for text in joined), (one, fmt)
