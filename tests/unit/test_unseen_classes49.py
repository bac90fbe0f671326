"""Classes that the forty-ninth unseen set (TV boxes and media players running Linux: Amlogic,
Allwinner and Rockchip boxes on Armbian, MiniArch, LibreELEC; tests/captures/corpus/tvbox49_*)
showed misread. Every output here is one of those bundles' (named beside it, with its
SOURCE.md); the corpus test checks whole bundles."""

from __future__ import annotations

from sbctune.advice.inspect import inspect_bundle
from sbctune.inventory.parsers.dmesg_classify import classify
from tests.corpus_support import CORPUS

# --- a netdev line whose driver-and-device prefix was cut to one word --------------------------

_X96MAXPLUS = "tvbox49_x96maxplus_s905x3_ophub_195_dma_reset_device_prefix_cut_to_ethernet"


def _x96_lines() -> list[str]:
    text = (CORPUS / _X96MAXPLUS / "commands" / "000-dmesg.txt").read_text(encoding="utf-8")
    return text.splitlines()


def test_a_cut_netdev_line_names_its_interface_by_the_network_driver_s_format() -> None:
    """`ethernet eth0: stmmac_open: Hw setup failed`: stmmac_main.c's netdev_err() format
    ("%s: Hw setup failed", messages.tsv), so eth0 is the interface it is about; the cut word
    ("ethernet", the tail of ff3f0000.ethernet) names no driver and none is taken."""
    lines = _x96_lines()
    assert "ethernet eth0: stmmac_open: Hw setup failed" in lines
    assert "ethernet eth0: stmmac_hw_setup: DMA engine initialization failed" in lines
    for line in ("ethernet eth0: stmmac_open: Hw setup failed", lines[3]):
        assert classify(line) == ("device", {"iface": "eth0"})


def test_the_x96_max_plus_eth0_is_a_nic_whose_driver_complains_and_is_not_named() -> None:
    """What the user sees: the box's eth0, whose DMA reset and open failed (a driver
    complaint), with no driver claimed: the paste cut the driver's name away."""
    inv = inspect_bundle(CORPUS / _X96MAXPLUS)
    assert [n.name for n in inv.nics] == ["eth0"]
    eth0 = inv.nics[0]
    assert eth0.driver is None
    assert eth0.driver_state != "none"
    complaints = [f for f in inv.findings if f.id == "driver-complaint"]
    assert complaints and complaints[0].nic == "eth0"
    assert not [f for f in inv.findings if f.id in ("no-driver", "probe-failed")]


def test_a_cut_line_whose_words_no_network_driver_prints_is_no_interface() -> None:
    """The same cut prefix before words of the thread's prose ("Let me know what other
    information I can provide.") or before a line the kernel's tables do not hold for a
    network driver: no interface is made of the prefix alone, and a line with two words
    before the name is not this shape."""
    prose = "ethernet eth0: Let me know what other information I can provide."
    assert classify(prose) is None
    assert classify("the ethernet eth0: stmmac_open: Hw setup failed") is None
    assert classify("ethernet phy0: stmmac_open: Hw setup failed") is None


# --- an out-of-tree driver that names only its printing function (Broadcom's bcmdhd) ----------

_MXIII = "tvbox49_mxiii_libreelec_aml_30_bcmdhd_bcm43362_ap6181_level_and_cpu_prefix"
_BPI_M64 = "bpi_m64_firmware_8_dhd_ap6212_firmware_open_failed_grep_fail"  # the 23rd set's


def _dmesg(bundle: str) -> str:
    return (CORPUS / bundle / "commands" / "000-dmesg.txt").read_text(encoding="utf-8")


def test_bcmdhd_s_function_prefixed_line_is_read_by_its_function_s_row() -> None:
    """`dhd_conf_set_hw_oob_intr: Enable HW OOB for 43362`: dhd_config.c prints it with
    printf("%s: ...", __FUNCTION__) only for a BCM43362 (vendor_formats.json, cited at
    rockchip-linux/kernel@25e7dab2); the line names no driver and no device."""
    line = "dhd_conf_set_hw_oob_intr: Enable HW OOB for 43362"
    assert f"<4>[   27.085041@2] {line}" in _dmesg(_MXIII)
    kind, fields = classify(line) or ("", {})
    assert kind == "vendor_function"
    assert fields["function"] == "dhd_conf_set_hw_oob_intr"


def test_the_mxiii_s_ap6181_is_an_sdio_wifi_bcm43362_with_no_false_complaint() -> None:
    """What the user sees: the TV box's Wi-Fi, a BCM43362 on SDIO, built in; the line is a
    message (printf at the kernel's default level), not a complaint, and nothing is missing."""
    inv = inspect_bundle(CORPUS / _MXIII)
    assert len(inv.nics) == 1
    wifi = inv.nics[0]
    assert (wifi.bus, wifi.wireless, wifi.builtin) == ("sdio", True, True)
    assert "BCM43362" in (wifi.chip or "")
    assert [f.id for f in inv.findings] == []


def test_bcmdhd_s_open_firmware_failure_is_missing_firmware_of_the_chip_its_name_is_for() -> None:
    """The BPI-M64's `dhdsdio_download_code_file: Open firmware file failed
    /lib/firmware/ap6212/fw_bcm43438a1.bin` (dhd_sdio.c, printf before `goto err`): the
    firmware is missing, and dhd_config.c names fw_bcm43438a1.bin for the BCM43438 (the
    BCM43430 A1). The finding does not cite the kernel's firmware loader, which never ran."""
    assert "dhdsdio_download_code_file: Open firmware file failed" in _dmesg(_BPI_M64)
    inv = inspect_bundle(CORPUS / _BPI_M64)
    assert len(inv.nics) == 1
    wifi = inv.nics[0]
    assert (wifi.bus, wifi.wireless, wifi.chip) == ("sdio", True, "BCM43438")
    missing = [f for f in inv.findings if f.id == "firmware-missing"]
    assert len(missing) == 1
    assert "fw_bcm43438a1.bin" in missing[0].evidence[0]
    assert "firmware_loader" not in missing[0].summary


def test_a_function_row_reads_only_its_own_function_s_line() -> None:
    """The same words after another function's name, another message after the row's
    function, or the row's function inside a longer head are no line of the row's (no chip
    from it). Since corpus56 a dhd_ function's line is still bcmdhd's, by its name space
    (catalog/bcmdhd_lines.py), with nothing of the row."""
    assert classify("dhd_conf_set_fw_name_by_chip: Enable HW OOB for 43362") == ("bcmdhd", {})
    assert classify("dhd_conf_set_hw_oob_intr: Enable HW OOB for 4330") == ("bcmdhd", {})
    assert classify("wlan dhd_conf_set_hw_oob_intr: Enable HW OOB for 43362") is None
