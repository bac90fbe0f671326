"""Classes that the eighty-fourth unseen set (Bluetooth beside the network: combo chips' two
halves, BNEP; tests/captures/corpus/bt84_*) showed misread. Every output here is one of the
corpus' bundles (named beside it, with its SOURCE.md); the corpus test checks whole bundles."""

from __future__ import annotations

from sbctune.advice.inspect import inspect_bundle
from tests.corpus_support import CORPUS, corpus_output

_AX201 = "bt84_x86_openwrt_20835_ax201_cnvi_7a70_lspci_nnk_iwlwifi_btintel_quoted"
_AX200 = "regr54_x86_nixpkgs_271020_ax200_iwlwifi_cc_a0_pci_dev_line"

# --- a chipset's CNVi Wi-Fi function is the machine's own ---------------------------------------


def test_cnvi_function_is_built_in() -> None:
    """00:14.3 "700 Series Chipset CNVi WiFi [8086:7a70]" on iwlwifi: the Wi-Fi MAC is the
    PCH's (pci.ids "Raptor Lake-S PCH CNVi WiFi"), so Inspect calls the NIC built in."""
    (nic,) = inspect_bundle(CORPUS / _AX201).nics
    assert nic.ids == "8086:7a70" and nic.driver == "iwlwifi"
    assert nic.builtin and nic.wireless


def test_a_discrete_card_on_the_same_driver_is_not() -> None:
    """An AX200 (8086:2723, pci.ids "Wi-Fi 6 AX200") at 0000:3b:00.0 is an M.2 card: not built
    in, though iwlwifi drives it too."""
    (nic,) = inspect_bundle(CORPUS / _AX200).nics
    assert nic.ids == "8086:2723" and nic.driver == "iwlwifi"
    assert not nic.builtin


# --- a device-less line that prints the PCI device number alone ---------------------------------

_AX101 = "bt84_x86_hacore_98523_ax101_iwlwifi_no_config_54f0_0244_probe_22"


def test_no_config_line_gives_the_unbound_function_its_ids() -> None:
    """ "iwlwifi: No config found for PCI dev 54f0/0244, ..." (pr_err, no device) beside
    "iwlwifi: probe of 0000:00:14.3 failed with error -22": iwlwifi's alias table has one entry
    of device 54f0, so the unbound function is 8086:54f0, pci.ids' "CNVi: Wi-Fi"."""
    (nic,) = inspect_bundle(CORPUS / _AX101).nics
    assert nic.bus_path == "0000:00:14.3" and nic.driver is None
    assert nic.ids == "8086:54f0"
    assert nic.chip and "CNVi" in nic.chip


def test_the_number_alone_names_nothing_without_its_drivers_table() -> None:
    """The same format read for a driver whose table has no entry of the number (r8169) or for
    no driver gives no IDs: the vendor comes from the line's driver only."""
    from sbctune.catalog.id_formats import load_id_formats

    line = "No config found for PCI dev 54f0/0244, rev=0x370, rfid=0x10c000"
    assert load_id_formats().ids_in(line, "r8169") is None
    assert load_id_formats().ids_in(line) is None
    found = load_id_formats().ids_in(line, "iwlwifi")
    assert found is not None and found[0] == "8086:54f0"


# --- btbcm's patch names carry the board's compatible -------------------------------------------

_PI400 = "bt84_pi400_emlinux_pr321_brcmfmac43456_fw_missing_bcm4345c5_board_named_patch"


def test_btbcm_board_named_patch_gives_the_soc() -> None:
    """ "Bluetooth: hci0: BCM: 'brcm/BCM4345C5.raspberrypi,400.hcd'" (btbcm_initialize()'s
    tried names): the root compatible "raspberrypi,400" is the kernel's bcm2711-rpi-400.dts, so
    Inspect names the SoC, BCM2711."""
    inv = inspect_bundle(CORPUS / _PI400)
    assert inv.board.soc == "BCM2711"


def test_a_board_less_patch_name_names_no_board() -> None:
    """ "BCM: 'brcm/BCM4345C5.hcd'" and the loaded "BCM4345C0 'brcm/BCM4345C0.hcd' Patch" carry
    no compatible; a quoted name outside a BCM line is not read."""
    from sbctune.inventory.btbcm_board import board_types

    text = corpus_output(_PI400)
    assert board_types(text) == ["raspberrypi,400"]
    board_less = "\n".join(line for line in text.splitlines() if "raspberrypi" not in line)
    assert board_types(board_less) == []


# --- an on-board index name ---------------------------------------------------------------------

_INXI = "bt84_laptop_mbp2016linux_143_inxi_nn_rtl8723be_wlo1_up_rtl810xe_eno1_down"


def test_onboard_index_name_is_built_in() -> None:
    """`inxi -Nn`'s "IF: eno1" on r8169 (RTL810xE): udev's dev_pci_onboard() name, given from
    the firmware's on-board index (SMBIOS type 41 / ACPI _DSM), so the port is built in; the
    Wi-Fi card beside it is left as it was."""
    nics = {n.name: n for n in inspect_bundle(CORPUS / _INXI).nics}
    assert nics["eno1"].builtin and nics["eno1"].driver == "r8169"


def test_slot_and_path_names_are_not_onboard() -> None:
    from sbctune.inventory.ifnames import onboard_name

    assert onboard_name("eno1") and onboard_name("eno2np1") and onboard_name("enP1o3d1")
    assert not any(onboard_name(n) for n in ("ens224", "enp3s0", "end0", "enx001122334455"))
