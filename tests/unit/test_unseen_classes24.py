"""Classes that the twenty-fourth unseen set (sixteen boards new to the corpus;
tests/captures/corpus) showed misread. Every log here is one of those bundles' (named beside it,
with its SOURCE.md), or a line of one changed to show what must NOT be read; the corpus test
checks whole bundles."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from sbctune.advice.inspect import inspect_bundle
from sbctune.catalog.kernel_messages import load_messages
from sbctune.inventory.parsers.dmesg import parse_dmesg
from sbctune.inventory.parsers.lspci import parse_lspci
from tests.corpus_support import (
    CORPUS,
    corpus_line,
    corpus_output,
    dmesg_inventory,
    findings_of,
    inventory_of,
)

ROOT = Path(__file__).resolve().parents[2]
_BNX2 = "x86_ltfs_229_bnx2_msix_irq_lines_two_functions"
_K1 = "spacemit_k1_openwrt_pr23231_rtl8125_pci_enum_interleaved_init_2_5gt"
_TSN = "ls1021a_tsn_openil_48_gianfar_sja1105_dsa_ports_bridge_flexcan"
_CLEARFOG = "clearfog_armbian_pr1732_ath10k_pci_wake_etimedout_probe_failed"
_SNOW = "chromebook_snow_mainline_15_mwifiex_sdio_cmd_resp_errors_mlan0"
_ONIE = "accton_ls2088_onie_499_mdio_read_errors_ni0_link_down_italic_underscore"
_R8168 = "x86_lede_7357_r8168_vendor_link_lines_then_logread"


# --- a second PCI function of a driver is another NIC, not the first one's interface ---


def test_a_second_pci_function_is_its_own_nic() -> None:
    """bnx2's 0000:0b:00.0 is enp11s0f0; 0000:0b:00.1 only prints its MSI-X vectors. The rule
    "the only interface and the only device of one driver are one NIC" must not move an
    interface already placed at 0b:00.0 onto 0b:00.1 (PCI addresses do not renumber)."""
    inv = inspect_bundle(CORPUS / _BNX2)
    assert {(n.name, n.driver, n.bus, n.bus_path) for n in inv.nics} == {
        ("enp11s0f0", "bnx2", "pci", "0000:0b:00.0"),
        (None, "bnx2", "pci", "0000:0b:00.1"),
    }


def test_an_unplaced_interface_still_joins_the_drivers_only_device() -> None:
    """The rule stays for an interface that no line placed: eth0 of a driver and the one
    device of that driver are one NIC."""
    inv = dmesg_inventory(
        "[    1.0] r8169 0000:01:00.0: enabling device (0000 -> 0003)",
        "[    9.0] r8169: eth0: link up",
    )
    assert [(n.name, n.bus_path) for n in inv.nics] == [("eth0", "0000:01:00.0")]


# --- the PCI core's bandwidth line is the device's PCIe link (pcie_print_link_status) ---


def test_a_link_below_the_cards_capability_in_the_log_is_a_downgraded_link() -> None:
    """The RTL8125 on a SpacemiT K1: "limited by 2.5 GT/s PCIe x1 link ... (capable of 4.000
    Gb/s with 5.0 GT/s PCIe x1 link)", with no lspci beside it."""
    inv = inspect_bundle(CORPUS / _K1)
    (nic,) = inv.nics
    assert nic.pcie is not None
    assert (nic.pcie.speed_gts, nic.pcie.width) == (2.5, 1)
    assert (nic.pcie.max_speed_gts, nic.pcie.max_width) == (5.0, 1)
    assert findings_of(inv, "pcie-downgraded")


def _bandwidth_line(speed: float, width: int, max_speed: float, max_width: int) -> str:
    gbps, cap = speed * width * 0.8, max_speed * max_width * 0.8
    if (speed, width) == (max_speed, max_width):
        return f"{gbps:.3f} Gb/s available PCIe bandwidth ({speed:.1f} GT/s PCIe x{width} link)"
    return (
        f"{gbps:.3f} Gb/s available PCIe bandwidth, limited by {speed:.1f} GT/s PCIe "
        f"x{width} link at 0000:00:1c.0 (capable of {cap:.3f} Gb/s with {max_speed:.1f} GT/s "
        f"PCIe x{max_width} link)"
    )


_SPEEDS = st.sampled_from([2.5, 5.0, 8.0, 16.0])
_WIDTHS = st.sampled_from([1, 2, 4, 8])


@given(_SPEEDS, _WIDTHS, _SPEEDS, _WIDTHS)
def test_the_bandwidth_line_is_downgraded_exactly_when_below_capability(
    speed: float, width: int, max_speed: float, max_width: int
) -> None:
    if speed > max_speed or width > max_width:
        return  # the kernel prints no link above the card's own
    inv = dmesg_inventory(
        "[    1.0] pci 0000:01:00.0: [8086:15f3] type 00 class 0x020000",
        "[    1.1] pci 0000:01:00.0: " + _bandwidth_line(speed, width, max_speed, max_width),
    )
    (nic,) = inv.nics
    assert nic.pcie is not None and (nic.pcie.speed_gts, nic.pcie.width) == (speed, width)
    below = speed < max_speed or width < max_width
    assert bool(findings_of(inv, "pcie-downgraded")) == below


def test_the_bandwidth_line_of_a_device_that_is_no_nic_makes_no_nic() -> None:
    """An NVMe drive's line (class 0x010802) gives it a link, not a place in the inventory."""
    inv = dmesg_inventory(
        "[    2.7] pci 0000:01:00.0: [144d:a80b] type 00 class 0x010802 PCIe Endpoint",
        "[    2.8] pci 0000:01:00.0: " + _bandwidth_line(8.0, 4, 16.0, 4),
    )
    assert inv.nics == []


@given(st.text(max_size=200))
def test_garbage_after_available_pcie_bandwidth_never_raises(tail: str) -> None:
    parse_dmesg(f"[    1.1] pci 0000:01:00.0: 2.000 Gb/s available PCIe bandwidth{tail}\n")


# --- CAN controllers (drivers/net/can/) carry no IP: not NICs ---


def test_flexcan_controllers_are_not_nics() -> None:
    inv = inspect_bundle(CORPUS / _TSN)
    assert {n.driver for n in inv.nics} == {"fsl-gianfar", "sja1105"}


def test_a_named_can_interface_is_not_a_nic_either() -> None:
    line = corpus_line(_TSN, "flexcan 2a90000.can")
    inv = dmesg_inventory(line, "[   20.0] flexcan 2a90000.can can0: writing ctrl=0x0e312005")
    assert inv.nics == []


# --- the printk pointer extensions and the alternate form print what they print ---


def test_an_error_pointer_conversion_needs_an_errno() -> None:
    """ "%s failed %pe" (sdhci-pltfm.c) took ath10k's "of_irq_parse_pci: failed with rc=134"
    and mwifiex's "mwifiex_process_cmdresp: cmd 0x242 failed during initialization": %pe
    prints an errno's name or number (lib/vsprintf.c err_ptr())."""
    table = load_messages()
    for text in ("of_irq_parse_pci: failed with rc=134", "foo: cmd 0x242 failed during init"):
        found = table.match(text)
        assert found is None or not any(f.endswith("sdhci-pltfm.c") for f in found.files)
    found = table.match("mmc0: sdhci_add_host failed -ETIMEDOUT")
    assert found is not None and found.format == "%s failed %pe"


@given(st.from_regex(r"E[A-Z]{2,10}", fullmatch=True), st.integers(1, 4095))
def test_any_errno_name_or_number_is_an_error_pointer(name: str, number: int) -> None:
    table = load_messages()
    found = table.match(f"clk_get failed -{name}")
    assert found is not None and found.format == "%s failed %pe"
    found = table.match(f"clk_get failed -{number}")  # "%s failed %d" prints the same
    assert found is not None and found.format in ("%s failed %pe", "%s failed %d")


@given(st.from_regex(r"[a-z]{3,10} [a-z]{2,8}=\d{1,4}", fullmatch=True))
def test_words_are_no_error_pointer(words: str) -> None:
    found = load_messages().match(f"clk_get failed {words}")
    assert found is None or found.format != "%s failed %pe"


def test_the_alternate_hex_form_prints_0x() -> None:
    """mwifiex's "CMD_RESP: cmd %#x error, result=%#x" (sta_cmdresp.c) prints "0x242"."""
    line = corpus_line(_SNOW, "CMD_RESP: cmd 0x242")
    found = load_messages().match(line.split("] ", 1)[1])
    assert found is not None
    assert found.files == ("drivers/net/wireless/marvell/mwifiex/sta_cmdresp.c",)
    complaints = [f for f in inspect_bundle(CORPUS / _SNOW).findings if f.id == "driver-complaint"]
    assert complaints and "sta_cmdresp.c" in complaints[0].summary


def test_ath10ks_complaint_cites_its_own_file() -> None:
    inv = inspect_bundle(CORPUS / _CLEARFOG)
    (complaint,) = [f for f in inv.findings if f.id == "driver-complaint"]
    assert "ath10k/pci.c" in complaint.summary and "sdhci" not in complaint.summary


# --- a program's tag in a driver's shape is no driver ---


def test_onies_own_link_message_names_no_driver() -> None:
    """ "ONIE: ni0: link down." is ONIE's network script, in the shape of Realtek's vendor
    drivers' "r8125: eth0: link up": no driver table knows ONIE."""
    inv = inspect_bundle(CORPUS / _ONIE)
    (nic,) = inv.nics
    assert (nic.name, nic.driver) == ("ni0", None)


def test_a_vendor_drivers_tag_still_names_its_driver() -> None:
    inv = inventory_of({"dmesg": corpus_output(_R8168)})
    assert {n.driver for n in inv.nics} == {"r8168"}


@given(st.from_regex(r"[A-Z][A-Za-z]{2,8}", fullmatch=True))
def test_an_unknown_tag_never_becomes_a_driver(tag: str) -> None:
    inv = dmesg_inventory(f"[    5.0] {tag}: eth0: link down")
    assert all(n.driver != tag for n in inv.nics)


# --- an interface line that names its driver only by its words (info-level formats) ---

_ES8XP = "edgeswitch_8xp_openwrt_10374_ag71xx_bcm53128_dsa_pcie_link_down_no_device"


def test_ag71xxs_own_words_name_its_interfaces_driver() -> None:
    """ "eth0: Atheros AG71xx at 0xb9000000, irq 4, mode: rgmii-rxid" (ag71xx_probe()'s
    netif_info, drivers/net/ethernet/atheros/ag71xx.c) with no device before eth0."""
    inv = inspect_bundle(CORPUS / _ES8XP)
    named = {n.name: (n.driver, n.bus) for n in inv.nics if n.name in ("eth0", "eth1")}
    assert named == {"eth0": ("ag71xx", "platform"), "eth1": ("ag71xx", "platform")}


def test_a_line_every_driver_prints_names_no_driver() -> None:
    inv = dmesg_inventory("[    5.0] eth0: link up, 1000 Mb/s, full duplex")
    assert [(n.name, n.driver) for n in inv.nics] == [("eth0", None)]


@given(st.text(alphabet=st.characters(codec="ascii", exclude_characters="\n\r"), max_size=120))
def test_any_text_after_an_interface_never_raises(tail: str) -> None:
    inv = dmesg_inventory(f"[    5.0] eth0: {tail}")
    assert all(n.driver is None or n.driver in _ETHERNET_DRIVERS for n in inv.nics)


def _ethernet_drivers() -> set[str]:
    from sbctune.catalog.kernel_drivers import load_kernel_drivers

    table = load_kernel_drivers()
    return {
        name
        for name in table.names()
        if (d := table.get(name)) is not None and d.file.startswith("drivers/net/ethernet/")
    }


_ETHERNET_DRIVERS = _ethernet_drivers()


def test_the_bandwidth_lines_finding_quotes_that_line_not_lspci_words() -> None:
    """No lspci was given: the finding's evidence is the kernel's line it was drawn from (it
    quoted "LnkSta: ..."/"LnkCap: ..." as if lspci had printed them)."""
    inv = inspect_bundle(CORPUS / _K1)
    (finding,) = [f for f in inv.findings if f.id == "pcie-downgraded"]
    line = corpus_line(_K1, "available PCIe bandwidth, limited by")
    assert finding.evidence == [line.split("] ", 1)[1]], finding.evidence
    assert not any("LnkSta" in e or "LnkCap" in e for e in finding.evidence)


@given(_SPEEDS, _WIDTHS, _SPEEDS, _WIDTHS)
def test_a_downgraded_link_is_quoted_as_the_kernel_printed_it(
    speed: float, width: int, max_speed: float, max_width: int
) -> None:
    if speed > max_speed or width > max_width or (speed, width) == (max_speed, max_width):
        return
    said = "pci 0000:01:00.0: " + _bandwidth_line(speed, width, max_speed, max_width)
    inv = dmesg_inventory(
        "[    1.0] pci 0000:01:00.0: [8086:15f3] type 00 class 0x020000", f"[    1.1] {said}"
    )
    (finding,) = [f for f in inv.findings if f.id == "pcie-downgraded"]
    assert finding.evidence == [said]


def test_lspcis_link_lines_are_kept_as_printed() -> None:
    """lspci's own lines, "(downgraded)" and all: what a finding on that link quotes."""
    text = (ROOT / "tests/captures/lspci_vv/lichee_pi_3a_downgraded_fragment.txt").read_text(
        encoding="utf-8"
    )
    parsed, _ = parse_lspci(text)
    lines = [line for d in parsed.devices for line in d.link_lines]
    assert lines == [
        "LnkCap:\tPort #0, Speed 8GT/s, Width x4, ASPM L1, Exit Latency L1 <64us",
        "LnkSta:\tSpeed 5GT/s (downgraded), Width x2 (downgraded)",
    ]
