"""A NIC's link in words, for Inspect's cards (window) and `sbctune inspect` (CLI) alike.

A NIC set down has no link because nothing opened it, not because of a cable: "no link (cable
unplugged?)" sent the user to the cable (walk 22, cm4-i340-igb with eth1 set down). Its words
say what it is and how to bring it up.
"""

from __future__ import annotations

from sbctune.inventory.model import Nic


def set_down_words(nic: Nic) -> str | None:
    """The link's words for a NIC that was not brought up, else None."""
    if not nic.set_down:
        return None
    name = nic.name or "NIC"
    return f"down: not brought up (“sudo ip link set {name} up” brings it up)"


NOT_REPORTED = "duplex not reported by the driver"


def duplex_words(duplex: object, not_reported: object) -> str:
    """What follows the speed: " full duplex", ", duplex not reported by the driver" where the
    driver writes none (its "half" is the kernel's zeroed placeholder), or nothing. Takes the
    two values, not a Nic, so exports of stored inventories (JSON dicts) say the same."""
    if not_reported:
        return f", {NOT_REPORTED}"
    return f" {duplex} duplex" if duplex else ""
