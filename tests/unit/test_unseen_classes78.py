"""Classes that the seventy-eighth unseen set (memory, DMA and IOMMU trouble of network drivers;
tests/captures/corpus/dma78_*) showed misread. Every output here is one of the corpus' bundles
(named beside it, with its SOURCE.md) or a real line quoted with its public source; the corpus
test checks whole bundles."""

from __future__ import annotations

from sbctune.advice.inspect import inspect_bundle
from tests.corpus_support import CORPUS, dmesg_inventory, findings_of

_DASHARO = "dma78_apu2_dasharo_1134_ath10k_pci_amdvi_io_page_fault_device_prefix"
_HSA = "dma78_x86_a88xm_hsa_4_rtl8111_amdvi_io_page_fault_syslog_lspci_vvv"
_APU2_SPLIT = "dma78_apu2_coreboot_216_qca9882_ath10k_io_page_fault_split_lines_lspci_k"
_SONIC = "dma78_sonic_marvell_84_prestera_8400_dmar_pte_read_fault_lspci"

# --- an IOMMU's fault report names the device whose DMA it refused ------------------------------


def _iommu(bundle: str) -> tuple[str | None, list[str]]:
    inv = inspect_bundle(CORPUS / bundle)
    (nic,) = inv.nics
    return nic.bus_path, findings_of(inv, "iommu-fault")


def test_amd_vi_fault_on_the_devices_own_prefix() -> None:
    """6.1 amd_iommu_report_page_fault(): pci_err(pdev, ...) under dev_fmt "AMD-Vi: ": the
    APU2's ath10k card, three faults, one finding that counts them and cites the source."""
    where, found = _iommu(_DASHARO)
    assert where == "0000:01:00.0"
    (summary,) = found
    assert "refused its DMA (3 times" in summary
    assert "amd_iommu_report_page_fault()" in summary


def test_amd_vi_fault_naming_the_device_in_the_event() -> None:
    """3.x/4.x "AMD-Vi: Event logged [IO_PAGE_FAULT device=03:00.0 ...]" (the IOMMU's own
    line, no device prefix) joins the lspci listing of the RTL8111 at 03:00.0."""
    where, found = _iommu(_HSA)
    assert where == "0000:03:00.0" and len(found) == 1


def test_amd_vi_event_split_over_two_lines() -> None:
    """4.9 printed "AMD-Vi: Event logged [" and the event on lines of their own: the second
    names the QCA9882 at 04:00.0 (six events)."""
    where, found = _iommu(_APU2_SPLIT)
    assert where == "0000:04:00.0"
    assert "6 times" in found[0]


def test_intel_dmar_request_device() -> None:
    """dmar_fault_do_one()'s "[DMA Read] Request device [06:00.0] ..." (pr_fmt "DMAR: "): the
    Prestera at 06:00.0; the "DRHD: handling fault status reg" lines between name no device."""
    where, found = _iommu(_SONIC)
    assert where == "0000:06:00.0"
    assert "3 times" in found[0]


def test_a_fault_of_a_device_that_is_no_nic_makes_none() -> None:
    """The IOMMU faults every bus master: an NVMe drive (pop-os/pop#853, a comment by
    teamblubee) and an Intel GPU at 00:02.0 (Dasharo/dasharo-issues#641, serpack's
    description) are no NICs, and their faults are nobody's finding."""
    inv = dmesg_inventory(
        "[   10.919607] nvme 0000:01:00.0: AMD-Vi: Event logged [IO_PAGE_FAULT domain=0x0000 "
        "address=0xfc189000 flags=0x0000]",
        "[    0.361089] DMAR: [DMA Read NO_PASID] Request device [00:02.0] fault addr 0x7cd80000 "
        "[fault reason 0x01] Present bit in root entry is clear",
        "[    0.361100] DMAR: DRHD: handling fault status reg 3",
    )
    assert inv.nics == []
    assert findings_of(inv, "iommu-fault") == []


# --- CONFIG_DMA_API_DEBUG names the driver and its device after its own prefix ----------------

_OPENBMC = "dma78_ast2600_qemu_openbmc_201_ftgmac100_dma_api_debug_unmap_size"


def test_dma_api_debug_report_names_the_nic() -> None:
    """kernel/dma/debug.c err_printk(): WARN(1, "DMA-API: %s %s: " ...) with the device's
    driver and name: the AST2600's ftgmac100 at 1e670000.ftgmac, whose driver misused the DMA
    API (a different unmap size), said so with the source."""
    inv = inspect_bundle(CORPUS / _OPENBMC)
    (nic,) = inv.nics
    assert (nic.driver, nic.bus, nic.bus_path) == ("ftgmac100", "platform", "1e670000.ftgmac")
    (summary,) = findings_of(inv, "driver-complaint")
    assert "kernel/dma/debug.c err_printk()" in summary


# --- a trace's function names its driver family by the word the family's functions carry -----

_ICICLE = "dma78_icicle_polarfire_46_ath10k_ce_ring_dma_alloc_failure_first_bracket_lost"
_LS1028 = "dma78_ls1028_digi_tx40_mt76_1007_mt7916_smmu_context_fault_no_clock"


def test_a_family_word_in_a_library_function_names_the_wifi() -> None:
    """ath10k_ce_alloc_src_ring() is ath10k's copy-engine code in the library ath10k_core,
    whose name is no prefix of it: function_families.json (every `ath10k_` function of the 6.1
    and 6.12 trees is in drivers/net/wireless/ath/ath10k) names the family. The Icicle Kit's
    failed GFP_DMA32 allocation is a Wi-Fi NIC's complaint, its bus and driver not claimed (the
    family's drivers are on PCI, SDIO, USB and the SoC)."""
    inv = inspect_bundle(CORPUS / _ICICLE)
    (nic,) = inv.nics
    assert (nic.wireless, nic.driver, nic.bus) == (True, None, "unknown")
    (summary,) = findings_of(inv, "driver-complaint")
    assert "memory allocation of 1 page" in summary and "ath10k_ce_alloc_src_ring" in summary


def test_a_built_in_library_frame_names_its_family() -> None:
    """`mt76_txq_schedule+0x39c/0x550 [mt76]`: the module mt76 is a library whose drivers lie
    in subdirectories (no driver in its own directory), and its word is also mt7601u's; the
    family drivers/net/wireless/mediatek is a Wi-Fi one."""
    (nic,) = inspect_bundle(CORPUS / _LS1028).nics
    assert nic.wireless is True and nic.driver is None


_BPI_R2 = "dma78_bpi_r2_frank_w_62_mtk_eth_rx_alloc_page_allocation_failure_console"


def test_two_words_name_the_driver_where_one_word_is_several_families() -> None:
    """`mtk_` is mtk_eth_soc.c's and drivers/net/wwan's (mtk_t7xx), but every `mtk_rx_`
    function of both trees is in mtk_eth_soc.c, mtk_soc_eth's own file: the BPI-R2's failed
    atomic allocation in mtk_rx_alloc() (from mtk_open()) is that SoC NIC's complaint."""
    inv = inspect_bundle(CORPUS / _BPI_R2)
    (nic,) = inv.nics
    assert (nic.driver, nic.bus, nic.wireless) == ("mtk_soc_eth", "platform", False)
    (summary,) = findings_of(inv, "driver-complaint")
    assert "mtk_rx_alloc" in summary
