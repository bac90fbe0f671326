"""Classes of kernel lines and facts that issue 24's fifth unseen set (20 public pastes in
tests/captures/corpus, scored before any fix: 127 of 158 facts) showed unread. Every line here
is copied from one of those bundles (named beside it); the corpus test checks whole bundles."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from sbctune.catalog.kernel_drivers import chip_by_description
from sbctune.catalog.kernel_messages import load_messages
from tests.corpus_support import corpus_line as _line
from tests.corpus_support import dmesg_events as _events
from tests.corpus_support import dmesg_inventory as _inventory

CORPUS = Path(__file__).resolve().parents[1] / "captures" / "corpus"


# qcom_linux_pr832_*: CONFIG_PRINTK_CALLER puts "[  T187]" after the clock
CALLER = _line("qcom_linux_pr832_caller_id_ath11k_wcn6855_ethqos", "probe with driver")
ETHQOS = _line("qcom_linux_pr832_caller_id_ath11k_wcn6855_ethqos", "renamed from eth0")
# x86_omr_286_*: e1000e's multi-line e_err(), after a logread wrapper
HANG = _line("x86_omr_286_e1000e_hardware_unit_hang_logread", "Detected Hardware Unit Hang")
# x86_openwrt_10858_*: iwlwifi's IWL_ERR
MICROCODE = _line("x86_openwrt_10858_iwlwifi_7260_microcode_sw_error", "Microcode SW error")
# odroid_n2_haos_1038_*: stmmac's own line, which a bare "Failed to %s %s" must not take
DMA = _line("odroid_n2_haos_1038_down_hw_setup", "Failed to reset the dma")
# x86_nixos_56355_*: ath10k's hardware line
ATH10K_HW = _line("x86_nixos_56355_ath10k_qca9377_journal_otp_etimedout", "chip_id")
# ds718p_bbqq_aqc111_84_*: aqc111's link line
AQC_LINK = _line(
    "ds718p_bbqq_aqc111_84_synology_lsusb_5000_ifconfig", "Link Speed", "001-dmesg.txt"
)
# ipq807x_openwrt_14693_*: the SoC's own radio (ath11k on AHB)
AHB = _line("ipq807x_openwrt_14693_ath11k_ahb_logread_warn", "failed to send pdev bss")
# x86_rtw89_163_*: a probe failure of a driver named for one chip
RTW89 = _line("x86_rtw89_163_rtw8852be_quoted_probe_enomem", "probe of")


@given(who=st.sampled_from("TC"), number=st.integers(0, 9_999_999), pad=st.integers(0, 4))
def test_a_printk_caller_id_reads_like_the_plain_line(who: str, number: int, pad: int) -> None:
    plain = CALLER.replace("][  T187]", "]")
    assert _events(plain) and _events(plain)[0][0] == "probe_failed"
    caller = plain.replace("] ", f"][{' ' * pad}{who}{number}] ", 1)
    assert _events(caller) == _events(plain)


def test_lines_with_caller_ids_find_their_nics() -> None:
    inv = _inventory(CALLER, ETHQOS)
    by_path = {n.bus_path: n for n in inv.nics}  # type: ignore[attr-defined]
    assert by_path["0000:01:00.0"].driver is None  # its probe failed
    assert {n.name for n in inv.nics} >= {"end0"}  # type: ignore[attr-defined]


def test_driver_wrappers_and_multi_line_formats_are_in_the_table() -> None:
    table = load_messages()
    hang = table.match(HANG.split("] ", 1)[1])
    assert hang is not None and hang.level == "err"
    assert hang.files[0] == "drivers/net/ethernet/intel/e1000e/netdev.c"
    microcode = table.match(MICROCODE.split("] ", 1)[1])
    assert microcode is not None and microcode.level == "err"
    assert any("iwlwifi" in f for f in microcode.files)


def test_the_most_specific_format_wins() -> None:
    message = load_messages().match(DMA.split("] ", 1)[1])
    assert message is not None
    assert message.files[0] == "drivers/net/ethernet/stmicro/stmmac/stmmac_main.c"


def test_a_driver_named_for_one_chip_names_it() -> None:
    assert "8852BE" in (chip_by_description("rtw89_8852be") or "")
    assert "RTL8822CE" in (chip_by_description("rtw_8822ce") or "")  # Realtek's own name
    for many in ("r8169", "rk_gmac-dwmac", "ax88179_178a", "iwlwifi", "ath10k_pci", "nope"):
        assert chip_by_description(many) is None, many
    (nic,) = _inventory(RTW89).nics  # type: ignore[attr-defined]
    assert nic.driver is None and "8852BE" in (nic.chip or "")


def test_ath10k_names_its_chip_and_aqc111_its_link() -> None:
    (ath,) = _inventory(ATH10K_HW).nics  # type: ignore[attr-defined]
    assert "qca9377" in (ath.chip or "").lower()
    (aqc,) = _inventory(AQC_LINK).nics  # type: ignore[attr-defined]
    assert aqc.link_speed_mbps == 5000


def test_a_socs_own_radio_is_built_in() -> None:
    (nic,) = _inventory(AHB).nics  # type: ignore[attr-defined]
    assert nic.bus == "platform" and nic.wireless and nic.builtin


def test_a_complaint_of_a_driver_the_table_does_not_name_cites_its_own_directory() -> None:
    from sbctune.catalog.kernel_drivers import own_files_first

    files = (
        "drivers/net/wireless/intel/iwlegacy/3945-mac.c",
        "drivers/net/wireless/intel/iwlwifi/pcie/rx.c",
    )
    assert own_files_first(files, "iwlwifi")[0].startswith("drivers/net/wireless/intel/iwlwifi/")
    assert own_files_first(files, "unknown_driver") == files
