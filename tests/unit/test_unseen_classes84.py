"""Classes that the eighty-fourth unseen set (Bluetooth beside the network: combo chips' two
halves, BNEP; tests/captures/corpus/bt84_*) showed misread. Every output here is one of the
corpus' bundles (named beside it, with its SOURCE.md); the corpus test checks whole bundles."""

from __future__ import annotations

from sbctune.advice.inspect import inspect_bundle
from tests.corpus_support import CORPUS

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
