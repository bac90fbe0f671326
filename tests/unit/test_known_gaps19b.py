"""Issue 24, session 19 (gaps24d): KNOWN_GAPS closed by their class.

1. Firmware named per device through the struct a driver's ID table points to. mwifiex's
   sdio.c ties SDIO_DEVICE_ID_MARVELL_8887_WLAN to mwifiex_sdio_sd8887, whose .firmware is
   sdio.h's SD8887_DEFAULT_FW_NAME "mrvl/sd8887_uapsta.bin": a log that names only that file
   names the SD8887 (firmware_chips.json "structs", scripts/firmware_structs.py, checked
   against the source by tests/test_firmware_macro_chips_source.py).
2. The ASIC revision register read per driver. mt76 and mt7601u both print MT_ASIC_VERSION
   ("ASIC revision: %08x"), but mt76's table (mt76_revisions) names 0x7610 the family MT76x0,
   while mt7601u's own probe (usb.c mt7601u_probe()) tests the top 16 bits against 0x7601, its
   one chip's model number, and refuses any other with -ENODEV: for mt7601u, "76100002" is an
   MT7610's (wiphy_chips.json driver_revisions, scripts/regen_wiphy_chips.py), and that beats
   the mt7601u.bin the driver loads anyway (a hand-added ID binds it).
Real outputs come from the captures named beside them."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from sbctune.catalog.driver_firmware import chip_by_firmware
from sbctune.catalog.wiphy_chips import revision_chip
from tests.corpus_support import corpus_output, inventory_of

# kaloz/mwlwifi issue 118: a WRT3200ACM's 88W8887 on SDIO, its firmware missing (SOURCE.md)
WRT3200 = "wrt3200acm_mwlwifi_118_mwifiex_sdio_sd8887_firmware_missing_after_oops"
# openwrt/mt76 issue 6 (its SOURCE.md): an MT7610U forced onto mt7601u by new_id
MT7610_ON_MT7601U = "pc_mt7601u_6_forced_id_mt7610_asic_vendor_request_110_71_probe_failed_elisions"


def test_a_firmware_file_a_device_struct_names_is_that_chips() -> None:
    (nic,) = inventory_of({"dmesg": corpus_output(WRT3200)}).nics
    assert (nic.chip, nic.driver, nic.bus, nic.bus_path) == (
        "SD8887",
        "mwifiex_sdio",
        "sdio",
        "mmc0:0001:1",
    )


def test_the_struct_rule_is_the_drivers_own() -> None:
    assert chip_by_firmware("mwifiex_sdio", "mrvl/sd8887_uapsta.bin") == "SD8887"
    assert chip_by_firmware(None, "mrvl/sdsd8997_combo_v4.bin") == "SD8997"
    # another driver asking for the same name is not mwifiex_sdio's card
    assert chip_by_firmware("btmrvl_sdio", "mrvl/sd8887_uapsta.bin") is None
    assert chip_by_firmware("mwifiex_sdio", "mrvl/sd8887_uapsta.bin.bak") is None


def test_mt7601us_revision_names_the_chip_its_probe_refuses() -> None:
    (nic,) = inventory_of({"dmesg": corpus_output(MT7610_ON_MT7601U)}).nics
    assert (nic.chip, nic.bus, nic.bus_path) == ("MT7610", "usb", "4-1.5")
    assert any("mt7601u_probe() accepts 0x7601 only" in e for e in nic.evidence)


def test_each_driver_reads_the_register_by_its_own_source() -> None:
    line = "mt7601u 4-1.5:1.0: ASIC revision: 76100002 MAC revision: 76502000"
    assert revision_chip(line, "mt7601u") is not None
    assert revision_chip(line, "mt7601u")[0] == "MT7610"  # type: ignore[index]
    own = line.replace("76100002", "76010001")
    assert revision_chip(own, "mt7601u") is None  # its own chip: named by its other rules
    assert revision_chip(line.replace("76100002", "ffffffff"), "mt7601u") is None  # no read
    assert revision_chip(line, "rtl8xxxu") is None  # a driver whose source reads no such thing
    mt76 = "mt76x0u 1-1:1.0: ASIC revision: 76100002 MAC revision: 76502000"
    assert revision_chip(mt76, "mt76x0u")[0] == "MT76x0"  # type: ignore[index]


@given(st.text(max_size=120))
def test_a_revision_names_only_a_model_number_the_line_shows(text: str) -> None:
    line = f"mt7601u 1-1:1.0: ASIC revision: {text}"
    found = revision_chip(line, "mt7601u")
    if found is not None:
        assert found[0].startswith("MT") and found[0][2:].isdigit()
        assert found[0][2:] in text
