"""Classes that the twenty-sixth unseen set (seven boards new to the corpus;
tests/captures/corpus) showed misread. Every log here is one of those bundles' (named beside it,
with its SOURCE.md), or a line of one changed to show what must NOT be read; the corpus test
checks whole bundles."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from sbctune.advice.inspect import inspect_bundle
from sbctune.inventory.sightings import usb_speed
from tests.corpus_support import CORPUS, corpus_line, dmesg_events, dmesg_inventory

_MT7612U = "mt76_435_mt7612u_superspeed_mt76x2u_vendor_request_etimedout_loop"
_ZYXEL = "zyxel_p2812hnu_f1_openwrt_9464_lantiq_xrx200_mips_machine_is_boot_head"


# --- hub.c's SuperSpeed words carry a generation and lanes: "SuperSpeed Gen 1", "Plus Gen 2x1" ---


def test_a_superspeed_gen_1_device_enumerated_at_5_gbit() -> None:
    """An MT7612U on a 5.4 kernel: "usb 4-1: new SuperSpeed Gen 1 USB device number 2"."""
    inv = inspect_bundle(CORPUS / _MT7612U)
    assert [(n.bus_path, n.driver, n.usb_speed_mbps) for n in inv.nics] == [
        ("4-1", "mt76x2u", 5000)
    ]


def test_each_generation_and_lane_count_of_hub_c_gives_its_rate() -> None:
    """drivers/usb/core/hub.c hub_port_init(): 4.19-5.x "SuperSpeed Gen 1", "SuperSpeedPlus Gen 2"
    (+"x2"); 6.1 "SuperSpeed Plus Gen 2x1", "Gen 1x2", "Gen 2x2"."""
    assert [
        usb_speed(w)
        for w in (
            "SuperSpeed Gen 1",
            "SuperSpeed Gen 1x2",
            "SuperSpeedPlus Gen 2",
            "SuperSpeed Plus Gen 2x1",
            "SuperSpeed Plus Gen 2x2",
        )
    ] == [5000, 10000, 10000, 10000, 20000]


def test_a_gen_1_line_with_another_word_is_no_usb_speed() -> None:
    line = corpus_line(_MT7612U, "new SuperSpeed Gen 1").replace("Gen 1", "Gen 9")
    assert [n.usb_speed_mbps for n in dmesg_inventory(line).nics] in ([], [None])


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40))
def test_garbage_speed_words_never_break_the_reader(words: str) -> None:
    assert usb_speed(words) is None or usb_speed(words) > 0


# --- the board and SoC from a MIPS kernel's own lines (arch/mips/kernel/prom.c, lantiq/prom.c) ---


def test_mips_machine_is_line_names_the_board_and_lantiqs_soc_line_the_soc() -> None:
    """A ZyXEL P-2812HNU-F1 on OpenWrt: "MIPS: machine is ZyXEL P-2812HNU-F1" (prom.c's
    mips_set_machine_name() from the DT model) and "SoC: xRX200 rev 1.1" (lantiq prom_init())."""
    inv = inspect_bundle(CORPUS / _ZYXEL)
    assert (inv.board.model, inv.board.soc) == ("ZyXEL P-2812HNU-F1", "xRX200")


def test_the_machine_words_inside_another_message_name_no_board() -> None:
    line = corpus_line(_ZYXEL, "machine is").replace("MIPS: machine is", "foo: the machine is")
    assert not [k for k, _ in dmesg_events(line) if k == "machine_model"]


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=200))
def test_garbage_after_the_soc_words_never_breaks_the_parser(tail: str) -> None:
    for kind, fields in dmesg_events("[    0.000000] SoC: " + tail):
        if kind == "soc_line":
            assert 2 <= len(fields["soc"]) <= 31


# --- a network driver's complaint on the USB device under its own name ("usb 2-1: ath9k_htc:") ---

_NEXUS9 = "nexus9_nethunter_441_ath9k_htc_failed_to_get_htc_9271_fw_tegra_ehci"
_BPI_M1 = "bananapi_m1_lakka_94_ath9k_htc_failed_to_get_fw_after_60s_lsusb_qualcomm_name"
_ALX = "alxhoff_ath9k_4_htc_9271_download_failed_trailing_blank_line"
_AWUS = "pc_open_ath9k_htc_fw_142_dmesg_T_grep_prompt_awus036nha_fallback_firmware_ok"


def _finding_ids(bundle: str) -> set[str]:
    return {f.id for f in inspect_bundle(CORPUS / bundle).findings}


def test_the_drivers_own_failed_to_get_firmware_line_is_missing_firmware() -> None:
    """hif_usb.c's dev_err "ath9k_htc: Failed to get firmware %s" on the Nexus 9's dongle."""
    assert "firmware-missing" in _finding_ids(_NEXUS9)


def test_a_usb_device_named_only_by_its_drivers_lines_is_a_nic() -> None:
    """A Banana Pi M1: dmesg names usb 3-1 only in ath9k_htc's lines, lsusb names 0cf3:9271 on
    bus 3: one AR9271 dongle, its firmware not got."""
    inv = inspect_bundle(CORPUS / _BPI_M1)
    assert [(n.bus_path, n.ids, n.bus) for n in inv.nics] == [("3-1", "0cf3:9271", "usb")]
    assert "firmware-missing" in {f.id for f in inv.findings}


def test_a_found_firmware_that_the_device_refused_is_a_complaint_not_missing_firmware() -> None:
    """ "ath9k_htc: Firmware - %s download failed": the file was found; the download failed."""
    inv = inspect_bundle(CORPUS / _ALX)
    assert [(n.bus_path, n.wireless) for n in inv.nics] == [("1-1", True)]
    assert {"driver-complaint"} <= {f.id for f in inv.findings}
    assert "firmware-missing" not in {f.id for f in inv.findings}


def test_another_drivers_words_on_a_usb_device_tie_nothing() -> None:
    line = corpus_line(_NEXUS9, "Failed to get firmware").replace("ath9k_htc:", "foo_bar:")
    assert dmesg_inventory(line).nics == []


def test_firmware_that_runs_after_a_fallback_is_not_missing() -> None:
    """htc_9271-1.4.0.fw is missing (-2), the old name htc_9271.fw loads: "FW Version: 1.4"."""
    assert "firmware-missing" not in _finding_ids(_AWUS)
