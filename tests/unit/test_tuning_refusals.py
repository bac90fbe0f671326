"""Refusals in the driver's own words, as real drivers print them.

Source of every capture below: the VM lab (tests/vm, `sbctune lab up --vm`), Debian bookworm,
kernel 6.1, ethtool 6.1, on QEMU's devices, captured 2026-11-23 from the commands' stderr.
"""

from __future__ import annotations

from sbctune.tuning.changes import refused

# `ethtool -G enp2s0 rx 4096` on virtio_net (maximum 256)
VIRTIO_RING = (
    "netlink error: requested ring size exceeds maximum (offset 36)\n"
    "netlink error: Invalid argument\n"
)
# `ethtool -G enx5254005b0004 rx 512` and `-C ... rx-usecs 50` on cdc_ether
CDC_ETHER = "netlink error: Operation not supported\n"


def test_the_drivers_words_win_over_the_errno() -> None:
    assert refused(VIRTIO_RING) == "requested ring size exceeds maximum"


def test_cdc_ether_has_no_rings_or_coalescing() -> None:
    assert refused(CDC_ETHER) == "Operation not supported"


def test_an_unknown_failure_is_not_a_refusal() -> None:
    assert refused("netlink error: Device or resource busy\n") is None
