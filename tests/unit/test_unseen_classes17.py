"""Classes that the seventeenth unseen set (10 public pastes in tests/captures/corpus: kernel
MESSAGE kinds, traces, failed allocations, checksum faults, swiotlb; 67 of 76 facts before its
fixes) showed unread. Every output is one of those bundles' (named beside it, with its
SOURCE.md) or an older bundle's; the corpus test checks whole bundles."""

from __future__ import annotations

from pathlib import Path

from sbctune.advice.inspect import inspect_bundle
from sbctune.catalog.kernel_messages import load_messages
from sbctune.inventory.brcmfmac_bus import chip_of_id
from sbctune.inventory.parsers.dmesg import parse_dmesg
from sbctune.inventory.trace_watch import named_in
from tests.corpus_support import inventory_of as _inventory

CORPUS = Path(__file__).resolve().parents[1] / "captures" / "corpus"

_STM32 = "stm32f746_disco_3_stm32_dwmac_open_warning_nommu_dma"
_GENET = "pi4_linux_5395_bcmgenet_rx_refill_page_alloc_failure_journal"
_CSUM = "pi4_linux_4236_eth0_hw_csum_failure"
_LAN743X = "cm4_linux_4117_lan743x_swiotlb_overflow_warning"
_MT7615 = "x86_mt76_500_mt7615e_swiotlb_buffer_full"
_R8152 = "ds423_bbqq_418_rtl8156b_read_eproto_ocp_warning"


def _output(bundle: str) -> str:
    (path,) = (CORPUS / bundle / "commands").glob("*")
    return path.read_text(encoding="utf-8")


def _complaints(bundle: str) -> list[str]:
    return [
        f.summary for f in inspect_bundle(CORPUS / bundle).findings if f.id == "driver-complaint"
    ]


def test_a_warning_whose_frames_run_in_a_drivers_library_is_that_nics() -> None:
    """The WARNING is in arch/arm/mm (no driver's file), but its frame `(arm_nommu_dma_alloc)
    from (stmmac_open+...)` runs in stmmac, the library stm32-dwmac is built with: eth0's."""
    inv = inspect_bundle(CORPUS / _STM32)
    (nic,) = inv.nics
    assert (nic.name, nic.driver) == ("eth0", "stm32-dwmac")
    (finding,) = [f for f in inv.findings if f.id == "driver-complaint"]
    assert finding.nic == "eth0"
    assert "warned" in finding.summary and "stmmac_open" in finding.summary
    assert finding.evidence[0].startswith("WARNING: CPU: 0 PID: 65 at arch/arm/mm/")
    assert "stmmac_open" in finding.evidence[1]


def test_a_failed_allocation_in_a_drivers_rx_refill_names_its_nic() -> None:
    """No line of the paste names a device: the frames `bcmgenet_rx_refill from
    bcmgenet_rx_poll` say the allocation failed in bcmgenet's receive path, the SoC's MAC."""
    inv = inspect_bundle(CORPUS / _GENET)
    (nic,) = inv.nics
    assert (nic.driver, nic.bus, nic.builtin) == ("bcmgenet", "platform", True)
    (summary,) = _complaints(_GENET)
    assert "memory allocation of 1 page" in summary and "bcmgenet_rx_refill" in summary
    assert inv.board.soc == "BCM2711"


def test_the_modules_linked_in_list_names_no_nic() -> None:
    """`Modules linked in: ... r8169 ... e1000e ... igb ...` lists loaded modules: the one NIC
    is the mt7615e whose device the swiotlb lines name (kernel/dma/swiotlb.c)."""
    inv = inspect_bundle(CORPUS / _MT7615)
    assert [(n.driver, n.bus_path) for n in inv.nics] == [("mt7615e", "0000:01:00.0")]
    (summary,) = _complaints(_MT7615)
    assert "swiotlb buffer is full" in summary and "kernel/dma/swiotlb.c" in summary


def test_a_pointer_conversion_is_one_conversion() -> None:
    """`%pad` (a dma_addr_t) prints the address alone: "swiotlb addr %pad+%zu overflow"
    matches lan743x's line, and the complaint is on its NIC."""
    line = _output(_LAN743X).splitlines()[-1]
    known = load_messages().match(line)
    assert known is not None and known.files == ("kernel/dma/swiotlb.c",)
    assert any("swiotlb addr" in s for s in _complaints(_LAN743X))


def test_net_cores_line_on_an_interface_is_a_complaint_on_it() -> None:
    """`eth0: hw csum failure` (net/core/dev.c netdev_rx_csum_fault()) names the interface
    only; the kernel's network core, not a driver, printed it."""
    inv = _inventory({"dmesg": _output(_CSUM)})
    (nic,) = inv.nics
    assert nic.name == "eth0" and nic.driver is None
    (summary,) = _complaints(_CSUM)
    assert "network core" in summary and "net/core/dev.c" in summary
    assert "receive checksum offload" in summary  # what it means, by hand (explanations.json)


def test_a_frames_module_names_the_driver() -> None:
    """`ocp_read_word+0x7d/0x90 [r8152]()`: the module in brackets is the driver's."""
    head = _output(_R8152).splitlines()[-1]
    assert named_in(head) == "r8152"
    assert any("warned" in s for s in _complaints(_R8152))


def test_trace_lines_are_read_as_head_and_frames() -> None:
    """Every line of the backtrace forms (ARM 3.x `(fn+off/size) from`, ARM 4.x `(fn) from`,
    ARM 5.x+ `fn from fn2+off/size`) is a frame, the WARNING/allocation line its head."""
    for bundle in (_STM32, _GENET, "pi1b_linux_153_smsc95xx_kevent_dropped_page_alloc_failure"):
        parsed, _warnings = parse_dmesg(_output(bundle))
        kinds = [e.kind for e in parsed.events]
        assert kinds.count("trace_head") == 1, bundle
        assert kinds.count("trace_frame") >= 8, bundle


_CHUWI = "chuwi_hi8_linux_wireless_msg37047_brcmfmac_mailbox_journal_wrapped"


def test_a_journal_wrapped_after_a_functions_name_is_joined() -> None:
    """A mail client wrapped each journal line (lower-case month, `jul 22`) right after
    `brcmf_sdio_hostmail: `: the next line is that message, though it holds ": " itself."""
    parsed, _warnings = parse_dmesg(_output(_CHUWI))
    texts = [e.text for e in parsed.events]
    assert "brcmfmac: brcmf_sdio_hostmail: Unknown mailbox data content: 0x40012" in texts
    assert texts.count("brcmfmac: brcmf_sdio_bus_rxctl: resumed on timeout") == 3


def test_brcmfmacs_hex_chip_id_is_its_part_number() -> None:
    """4.x's `for chip 0000a9a6`: brcm_hw_ids.h writes five-digit parts in decimal (43430 =
    0xa9a6), four-digit ones in hex (0x4345)."""
    inv = inspect_bundle(CORPUS / _CHUWI)
    (nic,) = inv.nics
    assert (nic.chip, nic.driver, nic.bus, nic.wireless) == ("BCM43430", "brcmfmac", "sdio", True)
    assert chip_of_id("4345") == "BCM4345" and chip_of_id("a9a6") == "BCM43430"
