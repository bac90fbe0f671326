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
