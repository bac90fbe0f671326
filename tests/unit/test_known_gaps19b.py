"""Issue 24, session 19 (gaps24d): KNOWN_GAPS closed by their class.

1. Firmware named per device through the struct a driver's ID table points to. mwifiex's
   sdio.c ties SDIO_DEVICE_ID_MARVELL_8887_WLAN to mwifiex_sdio_sd8887, whose .firmware is
   sdio.h's SD8887_DEFAULT_FW_NAME "mrvl/sd8887_uapsta.bin": a log that names only that file
   names the SD8887 (firmware_chips.json "structs", scripts/firmware_structs.py, checked
   against the source by tests/test_firmware_macro_chips_source.py).
Real outputs come from the captures named beside them."""

from __future__ import annotations

from sbctune.catalog.kernel_drivers import chip_by_firmware
from tests.corpus_support import corpus_output, inventory_of

# kaloz/mwlwifi issue 118: a WRT3200ACM's 88W8887 on SDIO, its firmware missing (SOURCE.md)
WRT3200 = "wrt3200acm_mwlwifi_118_mwifiex_sdio_sd8887_firmware_missing_after_oops"


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
