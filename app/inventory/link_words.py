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
