"""Issue 21 (left21 item 3): the silicon atlantic binds by PCI revision. aq_pci_func.c
hw_atl_boards[] (both series) gives device IDs 0x0001, D100, D107, D108 and D109 the A0
silicon's ops and limits at revision 1 and the B0's at revision 2 (aq_pci_probe_get_hw_by_id
compares pdev->revision, lspci's "(rev 0N)"); pci.ids names only the device. The table
(resources/kernel_source/pci_revision_silicon.json) is checked against the source in
tests/test_pci_revision_source.py."""

from __future__ import annotations

from pathlib import Path

from sbctune.advice.inspect import inventory_from_raw
from sbctune.catalog.pci_silicon import silicon
from sbctune.inventory.raw import RawOutputs
from sbctune.tuning import driver_caps

CAPTURES = Path(__file__).resolve().parent.parent / "captures" / "lspci_n"


def test_an_aqc107_at_revision_2_is_named_b0() -> None:
    """The user reads which silicon it is: "(rev 02)" of 1d6a:d107 is B0 (hw_atl_ops_b0, MTU to
    16334). Before: "Aquantia AQC107", and an "(rev 01)" card was never named A0, so the table's
    A0 MTU limit (8996, keyed "(A0)") applied to no real inventory. The capture is the host's
    whole IOMMU-groups output, each lspci line behind its "IOMMU Group N " prefix."""
    text = (CAPTURES / "threadripper_aqc107_d107_rev02.txt").read_text(encoding="utf-8")
    inv = inventory_from_raw(RawOutputs(commands={"lspci -nn": text}))
    chips = {nic.bus_path: nic.chip for nic in inv.nics}
    assert chips["0000:0a:00.0"] == "Aquantia AQC107 (B0)"


def test_revision_1_is_the_a0_the_mtu_limit_reads() -> None:
    assert silicon("1d6a:d107", "01") == "A0"
    assert silicon("1D6A:D100", "1") == "A0"
    assert silicon("1d6a:0001", "02") == "B0"
    caps = driver_caps.caps("atlantic", "6.12", "Aquantia AQC107 (A0)")
    assert caps is not None and caps.mtu_max("Aquantia AQC107 (A0)") == 8996
    assert caps.mtu_max("Aquantia AQC107 (B0)") == 16334


def test_ids_the_revision_does_not_decide_get_no_silicon() -> None:
    """1d6a:07b1 binds B1 at any revision (AQ_HWREV_ANY): the ID says it, no suffix; a revision
    the board table lacks (0001 at rev 03: no row, the probe fails) names nothing."""
    assert silicon("1d6a:07b1", "02") is None
    assert silicon("1d6a:0001", "03") is None
    assert silicon("8086:1539", "03") is None
    assert silicon(None, "01") is None and silicon("1d6a:d107", None) is None
