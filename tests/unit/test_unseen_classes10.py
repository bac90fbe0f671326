"""Classes that the tenth unseen set (18 public pastes in tests/captures/corpus: PCIe AER lines,
PCIe controllers without a link, a USB gadget's usb0, a PHY missing from its MDIO bus; 89 of 110
facts before its fixes) showed unread. Every output here is copied from one of those bundles
or from tests/captures/dmesg (named beside it, each with its .source.md); the corpus test checks
whole bundles."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from sbctune.advice.inspect import inventory_from_raw
from sbctune.inventory.model import Inventory
from sbctune.inventory.parsers.dmesg import parse_dmesg
from sbctune.inventory.raw import RawOutputs
from tests.corpus_support import corpus_output as _output
from tests.corpus_support import findings_of as _finding
from tests.corpus_support import inventory_of as _inventory

CAPTURES = Path(__file__).resolve().parents[1] / "captures"
CORPUS = CAPTURES / "corpus"


def test_an_aer_line_names_the_device_its_ids_and_a_corrected_error() -> None:
    """alx's `AER:   device [1969:e0b1] error status/mask=...` (drivers/pci/pcie/aer.c
    aer_print_error()): the NIC gets its IDs, hence its chip, and a PCIe-error finding that says
    the errors were corrected; the root port that reported them is no NIC."""
    inv = _inventory({"dmesg": _output("x86_alx_endless_548_aer_badtlp_killer_e2500")})
    (nic,) = inv.nics
    assert (nic.bus_path, nic.ids, nic.driver) == ("0000:07:00.0", "1969:e0b1", "alx")
    assert "Killer E2500" in (nic.chip or "")
    (summary,) = _finding(inv, "pcie-errors")
    assert "corrected ones" in summary and "uncorrected" not in summary
    assert "aer.c" in summary  # the message's source is cited


def test_an_out_of_tree_drivers_aer_lines_make_its_nic_by_its_ids() -> None:
    """rtl8821ce (an out-of-tree driver no kernel table knows) is known by the IDs its AER line
    prints: a Wi-Fi NIC on PCI, which the port's `error received: 0000:02:00.0` line joins."""
    inv = _inventory({"dmesg": _output("x86_rtl8821ce_336_aer_corrected_rxerr_out_of_tree")})
    (nic,) = inv.nics
    assert (nic.bus_path, nic.ids, nic.wireless) == ("0000:02:00.0", "10ec:c821", True)
    assert nic.log_counts.get("pcie_aer") == 3  # the port's line counts for the device it names


def test_a_device_that_cannot_recover_is_an_uncorrected_pcie_error() -> None:
    """The port's own uncorrected errors name the port; rtw_8821ce's `can't recover (no
    error_detected callback)` (drivers/pci/pcie/err.c) names the Wi-Fi card: a problem."""
    inv = _inventory({"dmesg": _output("x86_rtw88_35_rtw8821ce_aer_uncorrected_cant_recover")})
    (nic,) = inv.nics
    assert nic.bus_path == "0000:05:00.0"
    (finding,) = [f for f in inv.findings if f.id == "pcie-errors"]
    assert finding.severity == "problem" and "uncorrected ones" in finding.summary


def test_a_pcie_controller_without_a_link_is_said_once_for_the_board() -> None:
    """rockchip-pcie's `PCIe link training gen1 timeout!` and brcm-pcie's `link down`: no NIC
    is made of the controller, and the finding names it."""
    for bundle, controller in (
        ("r4s_lede_13406_rockchip_pcie_training_timeout_no_nic", "f8000000.pcie"),
        ("cm4_edgelogix_geerling_555_brcm_pcie_link_down_backticks", "fd500000.pcie"),
    ):
        inv = _inventory({"dmesg": _output(bundle)})
        assert inv.nics == []
        (summary,) = _finding(inv, "pcie-link-down")
        assert controller in summary
        assert not _finding(inv, "probe-failed")  # the controller's probe is not a NIC's


def test_a_pcie_controller_whose_link_came_up_gets_no_link_down() -> None:
    """A CM4 whose brcm-pcie says `link up, 5 GT/s x1 (SSC)` (cm4_rosewill_rtl8125_40_excerpt)."""
    text = (CAPTURES / "dmesg" / "cm4_rosewill_rtl8125_40_excerpt.txt").read_text(encoding="utf-8")
    assert "link up" in text
    assert not _finding(_inventory({"dmesg": text}), "pcie-link-down")


def test_a_usb_gadgets_usb0_is_a_nic() -> None:
    """A Pi Zero's g_ether interface in `ifconfig usb0`: a wired NIC whose RUNNING flag says its
    link is up (it was dropped as a virtual interface)."""
    inv = _inventory({"ifconfig usb0": _output("pizero_rpidistro_17_ifconfig_usb0_gadget_side")})
    (nic,) = inv.nics
    assert (nic.name, nic.wireless, nic.link_detected) == ("usb0", False, True)


def test_a_phy_missing_from_its_mdio_bus_is_a_phy_failure() -> None:
    """`mdio_bus unimac-mdio--19: MDIO device at address 0 is missing.` (err level in
    drivers/net/mdio/of_mdio.c) on a CM4 whose GENET then has no link."""
    inv = _inventory({"dmesg": _output("cm4_linux_5497_bcmgenet_mdio_address_0_missing")})
    assert _finding(inv, "phy-attach-failure")


_AER_LINES = _output("x86_alx_endless_548_aer_badtlp_killer_e2500").splitlines()
_WRAPPERS = ["", "[  460.545056] ", "Apr 18 13:51:11 I7-Laptop kernel: [ 1650.647219] ", "kernel: "]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(_WRAPPERS), st.text(max_size=60))
def test_aer_lines_read_the_same_in_any_wrapper_and_garbage_never_raises(
    wrapper: str, garbage: str
) -> None:
    """The AER shape is found whatever precedes the kernel's part; garbage after it is harmless."""
    text = "\n".join(wrapper + line for line in _AER_LINES) + "\n" + garbage
    res, _ = parse_dmesg(text)
    kinds = [e.kind for e in res.events if e.kind == "pcie_aer"]
    assert len(kinds) == 3


def test_a_backtick_glued_to_an_ifconfig_name_is_not_part_of_it() -> None:
    """`` `enp0s20f0u1 Link encap:Ethernet `` (a Markdown backtick before a French-locale
    net-tools block): the NIC is enp0s20f0u1, on USB by its systemd name, link up (RUNNING)."""
    text = _output("x86_pyduml_19_ifconfig_french_locale_rndis_enp0s20f0u1")
    assert text.startswith("`enp0s20f0u1")
    (nic,) = _inventory({"ifconfig": text}).nics
    assert (nic.name, nic.bus, nic.link_detected) == ("enp0s20f0u1", "usb", True)


def test_ip_s_counters_pasted_without_their_interface_line_are_the_named_interfaces() -> None:
    """`ip -s link show eth0` pasted from its RX lines on (a Pi 5's macb): the counters are
    eth0's, so its 2.2 % receive drops are a finding; /proc/interrupts puts them on CPU0."""
    bundle = "pi5_linux_6898_ip_s_rx_drops_interrupts_cpu0_ethtool_s_grep"
    text = _output(bundle, "000")
    assert "eth0" not in text
    interrupts = (CORPUS / bundle / "files" / "002-proc_interrupts.txt").read_text(encoding="utf-8")
    raw = RawOutputs(
        commands={"ip -s link show eth0": text}, files={"/proc/interrupts": interrupts}
    )
    inv = inventory_from_raw(raw)
    assert isinstance(inv, Inventory)
    (nic,) = inv.nics
    assert (nic.name, nic.irqs) == ("eth0", [104])
    (summary,) = _finding(inv, "interface-errors")
    assert "617 of 27,502 received packets dropped" in summary
    assert _finding(inv, "irq-on-cpu0")
    # the same lines under a command that names no interface are read as nothing
    assert not _inventory({"ip -s link": text}).nics
