"""Audit 38a (resources/tuning/driver_caps_audit38a.md): the tweaks of one plan together, in the
order the session writes them, against what each kernel does when one setting disturbs another.

Row 1, atlantic: before 6.13 every open (after aq_set_ringparam's dev_close, an LRO/VLAN
restart, ip link set down/up) calls irq_set_affinity_hint from aq_pci_func_alloc_irq, which
sets the interrupt's affinity too, over a mask the irq-affinity tweak wrote (audit 11b row 3).
2cd78740effc ("net: atlantic: use irq_update_affinity_hint()", 6.13) sets the hint only, so from
6.13 (7.2 here) the user's mask stays: the table applied 6.12's fact to every later kernel, and
the plan told a --persist user on 7.2 that "the atlantic driver sets it back each time eth1 is
opened", which it no longer does, and moved the ring change before the masks for it.
"""

from __future__ import annotations

import pytest

from sbctune.tuning import driver_caps, persist_gaps, reopen_order
from sbctune.tuning.model import Change

BEFORE_6_13 = ("6.1.0-31-arm64", "6.12.57+deb13-arm64")
FROM_6_13 = ("6.13.12-arm64", "7.2.0-1-arm64")


def _affinity(irq: int, before: str, after: str) -> Change:
    path = f"/proc/irq/{irq}/smp_affinity"
    return Change("irq_affinity", path, before, after, path)


# what irq-affinity and nic-rings plan, in the catalog's order (irq-affinity comes first)
AFFINITY_THEN_RINGS = [
    _affinity(60, "1", "2"),
    _affinity(61, "2", "4"),
    Change("ethtool", "eth1 -G rx", "2048", "8184"),
    Change("ethtool", "eth1 -G tx", "4096", "8184"),
]


def _persist_words(kernel: str) -> str:
    """What the plan says of irq-affinity under --persist where nothing brings eth1 up again
    (no NetworkManager, dhcpcd or ifupdown hook): persist_gaps.lost_words."""
    caps = driver_caps.caps("atlantic", kernel, "AQC107")
    facts = reopen_order.open_facts("atlantic", "eth1", kernel, "AQC107")
    return persist_gaps.lost_words(AFFINITY_THEN_RINGS[:2], caps, facts, "eth1")


@pytest.mark.parametrize("kernel", FROM_6_13)
def test_row1_from_6_13_atlantics_open_no_longer_said_to_set_the_mask_back(kernel: str) -> None:
    words = _persist_words(kernel)
    assert "sets it back each time eth1 is opened" not in words
    # what still holds: the vectors are requested only at open (aq_nic_start), so at-boot.sh,
    # run before the open, finds no interrupt of that name to set
    assert "requests its interrupts only when eth1 opens" in words


@pytest.mark.parametrize("kernel", BEFORE_6_13)
def test_row1_before_6_13_the_open_still_sets_it_back(kernel: str) -> None:
    assert "the atlantic driver sets it back each time eth1 is opened" in _persist_words(kernel)


@pytest.mark.parametrize("kernel", FROM_6_13)
def test_row1_from_6_13_the_masks_keep_their_place_before_the_ring_change(kernel: str) -> None:
    facts = reopen_order.open_facts("atlantic", "eth1", kernel, "AQC107")
    changes = AFFINITY_THEN_RINGS
    assert reopen_order.apply_order(changes, facts) == [0, 1, 2, 3]
    assert reopen_order.read_last(changes, facts) == set()
