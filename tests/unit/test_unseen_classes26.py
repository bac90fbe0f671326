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
