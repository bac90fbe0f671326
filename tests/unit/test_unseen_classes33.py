"""Classes that the thirty-third unseen set (the newest Pis and their add-on NICs;
tests/captures/corpus) showed misread. Every output here is one of those bundles' (named beside
it, with its SOURCE.md), or one changed to show what must NOT be read; the corpus test checks
whole bundles."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from sbctune.inventory.model import Inventory
from sbctune.inventory.parsers.lspci import parse_lspci
from tests.corpus_support import corpus_output, findings_of, inventory_of

_X520 = "pi5_pcie_devices_47_82599_tn_lspci_pp_nn_vvv_cut_backtick_uname"
_CM4_8125 = "cm4_linux_4699_rtl8125_lspci_v_cut_uname_prompts_5_10_78"
_DELOCK = "pi5_delock_pcie_606_i225v_lspci_nnk_modules_only_rt_16k_uname"
_CM4_8111 = "cm4_52pi_337_rtl8111_lspci_vvvv_no_driver"  # an older set's, kept right


# --- an lspci -v block the paste ends inside cannot say that no driver is bound ---


def _lspci_inventory(text: str, command: str = "lspci -vvv") -> Inventory:
    return inventory_of({command: text})


def test_a_verbose_block_cut_after_its_msi_line_claims_no_driver_either_way() -> None:
    """lspci prints "Kernel driver in use"/"Kernel modules" last in a verbose block, then a blank
    line (pciutils lspci.c show_device()). The Pi 5's 82599 block ends at its MSI capability:
    the paste was cut, so the driver is not shown, and there is no no-driver finding."""
    inv = _lspci_inventory(corpus_output(_X520, "001"), "lspci -PP -nn -vvv")
    (nic,) = inv.nics
    assert nic.driver is None and nic.driver_state != "none"
    assert not findings_of(inv, "no-driver")


def test_a_verbose_block_cut_after_its_memory_line_behind_prompts() -> None:
    """The CM4's RTL8125 `lspci -v` (after a `uname -a`, both behind prompts) ends at its first
    Memory line: not shown either."""
    inv = inventory_of({"uname -a": corpus_output(_CM4_8125)})
    (nic,) = inv.nics
    assert nic.bus_path == "0000:04:00.0" and nic.driver_state != "none"
    assert not findings_of(inv, "no-driver")


def test_the_same_block_closed_by_its_blank_line_and_the_next_device_says_none() -> None:
    """Closed by lspci's own blank line and the next device, the block is whole: no kernel line
    means no driver (the listing is verbose)."""
    text = (
        corpus_output(_X520, "001")
        + "\n0000:00:00.0 PCI bridge [0604]: Broadcom Inc. and "
        + ("subsidiaries BCM2712 PCIe Bridge [14e4:2712] (rev 21)\n")
    )
    inv = _lspci_inventory(text, "lspci -PP -nn -vvv")
    (nic,) = [n for n in inv.nics if n.bus_path == "0000:01:00.0"]
    assert nic.driver_state == "none"
    assert findings_of(inv, "no-driver")


def test_a_k_block_followed_by_the_next_device_is_whole() -> None:
    """`lspci -nnk` prints no blank line between blocks: the Delock I225-V's block, with
    "Kernel modules: igc" and no "in use", is closed by the next device: no driver bound."""
    inv = inventory_of({"lspci -nnk": corpus_output(_DELOCK, "001")})
    (nic,) = [n for n in inv.nics if n.bus_path == "0000:01:00.0"]
    assert nic.driver_state == "none" and findings_of(inv, "no-driver")


def test_control_without_decoding_says_no_driver_even_in_a_cut_block() -> None:
    """A driver's probe enables the device (pci_enable_device() sets Control's I/O/Mem bits):
    the 52Pi CM4 board's RTL8111 block is cut inside DevCtl, but "Control: I/O- Mem-
    BusMaster-" says no driver has it."""
    inv = _lspci_inventory(corpus_output(_CM4_8111), "lspci -vvvv")
    (nic,) = inv.nics
    assert nic.driver_state == "none" and findings_of(inv, "no-driver")


def test_the_texts_own_last_newline_does_not_close_a_block_but_lspcis_blank_line_does() -> None:
    """The stored text's final newline is its end, not lspci's blank line; `lspci -vv` over
    SSH ends its last block with that blank line and then the newline: closed, whole."""
    text = corpus_output(_X520, "001").rstrip("\n")
    for tail, closed in (("", False), ("\n", False), ("\n\n", True)):
        result, _ = parse_lspci(text + tail)
        (device,) = result.devices
        assert device.closed is closed


@given(st.lists(st.sampled_from(["", "\t", "x", "01:00.0 Ethernet controller: X", "\tControl: "])))
def test_block_closing_never_raises(lines: list[str]) -> None:
    parse_lspci("\n".join(lines))


def test_the_last_k_block_is_whole() -> None:
    """`lspci -k` prints no blank line after a block (only -v does), so the last block of a -k
    listing is whole: an older set's Pi 5 RTL8125 with no kernel lines has no driver."""
    bundle = "pi5_omr_4326_lspci_k_rtl8125_no_driver_prompt_glued"
    inv = inventory_of({"lspci -k": corpus_output(bundle)})
    (nic,) = inv.nics
    assert nic.driver_state == "none" and findings_of(inv, "no-driver")
