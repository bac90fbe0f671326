"""Audit 7b row 8: early atlantic A0 silicon tops out at MTU 8996. aq_pci_func.c hw_atl_boards
binds hw_atl_a0_caps_* (DEFAULT_A0_BOARD_BASIC_CAPABILITIES: .mtu = HW_ATL_A0_MTU_JUMBO, 9014U
in hw_atl_a0_internal.h) at PCI revision 1; aq_nic_ndev_init: max_mtu = 9014 - 4 - 14. The
table knew only B0/hw_atl2's 16334, so a 9000 jumbo was planned and the lab took it."""

from __future__ import annotations

import dataclasses

import pytest

from sbctune.inventory.model import Board, Inventory, Nic
from sbctune.lab import ip_front, ip_model, load_profile
from sbctune.tuning import catalog, driver_caps
from sbctune.tuning.kinds import PLANNERS, Context
from sbctune.tuning.model import PlannedTweak
from sbctune.tuning.probe import Facts, Read

A0 = "AQC107 (A0)"


def mtu_planned(chip: str, mtu: int) -> PlannedTweak:
    found = Facts("eth0")
    found.knobs["/sys/class/net/eth0/mtu"] = Read(True, "1500")
    tweak = catalog.tweak("mtu-jumbo")
    nic = Nic("eth0", driver="atlantic", chip=chip)
    inventory = Inventory(board=Board(kernel="6.1.0-31-arm64"), nics=[nic])
    options = {"path_supports_jumbo": True, "mtu": mtu}
    return PLANNERS[tweak.kind](Context(tweak, found, inventory, nic, options, {}, ("mtu-jumbo",)))


@pytest.mark.parametrize("kernel", ["6.1", "6.12"])
def test_the_table_knows_the_a0_maximum(kernel: str) -> None:
    caps = driver_caps.caps("atlantic", kernel, A0)
    assert caps is not None
    assert caps.mtu_max(A0) == 8996
    assert "HW_ATL_A0_MTU_JUMBO" in caps.mtu_max_cite(A0)
    assert caps.mtu_max("AQC107") == 16334  # B0 and later: unchanged
    assert caps.mtu_max("AQC113") == 16334


def test_a_9000_jumbo_on_an_a0_is_not_possible() -> None:
    item = mtu_planned(A0, 9000)
    assert not item.applicable
    assert "not possible, at most 8996" in item.reason
    assert "hw_atl_a0_internal.h" in item.reason
    assert mtu_planned(A0, 8996).applicable
    assert mtu_planned("AQC107", 9000).applicable  # a B0 takes it


def test_the_lab_refuses_the_same() -> None:
    base = load_profile("pi4-ax88179")
    spec = next(s for s in base.interfaces if s.driver)
    for chip, top in ((A0, 8996), ("AQC107", 16334)):
        profile = dataclasses.replace(
            base, interfaces=(dataclasses.replace(spec, driver="atlantic", chip=chip),)
        )
        limits = ip_front.limits(profile)
        assert limits[spec.name]["max"] == top
        refused = ip_model.refusal(limits, spec.name, 9000)
        assert refused == ("Error: mtu greater than device maximum.\n" if top < 9000 else None)
