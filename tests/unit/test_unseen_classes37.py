"""Classes that the thirty-seventh unseen set (industrial and vendor SoMs: STM32MP13x, i.MX8M,
i.MX28, Zynq, Jetson, SAMA5, an X15 with an EVB-KSZ9897; tests/captures/corpus/som37_*) showed
misread. Every output here is one of those bundles' (named beside it, with its SOURCE.md), or
one changed to show what must NOT be read; the corpus test checks whole bundles."""

from __future__ import annotations

from tests.corpus_support import corpus_output, dmesg_inventory, inventory_of

_IMX8MM = "som37_imx8mm_openwrt_pr14434_fec_registered_phc_soc_line"


# --- the SoC named by the kernel's SoC-info line ---


def test_the_imx8m_soc_info_line_names_the_soc() -> None:
    """An i.MX8MM OpenWrt console: drivers/soc/imx/soc-imx8m.c prints "SoC: %s revision %s"
    with the SoC's soc_id (6.1 and 6.12 alike); the board is otherwise unnamed."""
    inv = inventory_of({"dmesg": corpus_output(_IMX8MM)})
    assert inv.board.soc == "i.MX8MM"
    assert [n.name for n in inv.nics] == ["eth0"]


def test_the_atmel_soc_line_and_lantiq_s_still_name_the_soc() -> None:
    """drivers/soc/atmel/soc.c: "Detected SoC: %s, revision %X"; Lantiq's prom.c "SoC: %s" with
    its sys_type "xRX200 rev 1.1" (an older set's line) keeps its reading."""
    assert dmesg_inventory("Detected SoC: sama5d36, revision 2").board.soc == "sama5d36"
    assert dmesg_inventory("[    0.000000] SoC: xRX200 rev 1.1").board.soc == "xRX200"


def test_a_soc_sentence_or_a_soc_family_line_names_no_soc() -> None:
    """ath79's "SoC: Qualcomm Atheros QCA9558 ver 1 rev 0" is a sentence, atmel's "Detected SoC
    family: sama5" names a family: neither is taken for the SoC."""
    assert dmesg_inventory("SoC: Qualcomm Atheros QCA9558 ver 1 rev 0").board.soc is None
    assert dmesg_inventory("Detected SoC family: sama5").board.soc is None
