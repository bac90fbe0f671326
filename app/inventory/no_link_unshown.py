"""ethtool's "Link detected: no" for an interface whose up/down state no output shows.

ethtool prints netif_carrier_ok() (net/ethtool/ioctl.c ethtool_op_get_link()): no carrier. An
interface that was never brought up has none either (the driver starts its PHY or phylink at
open), so "no" alone does not say whether the cable or the `ip link set up` is missing. With
ip/ifconfig flags shown the inventory already tells the two apart (``Nic.set_down``, the
``no_carrier`` line); without them the NIC keeps the ethtool line under this log kind, and the
link-down finding says both cases and how to tell them (corpus cm5_linux_6953).
"""

from __future__ import annotations

from sbctune.inventory.graph import Device
from sbctune.inventory.model import Nic
from sbctune.inventory.raw import Parsed

KIND = "no_link_state_unshown"


def no_link_state_unshown(nic: Nic, device: Device, parsed: Parsed) -> None:
    """Keep ethtool's "Link detected: no" on the NIC when no flags show its state."""
    if nic.link_detected is not False or nic.set_down or nic.wireless:
        return
    if nic.log.get("link") or nic.log.get("no_carrier"):
        return  # the kernel log's last link line or ip's NO-CARRIER already says it
    netif = parsed.netifs.get(nic.name) if nic.name else None
    if netif is not None and netif.flags:
        return  # its flags are shown: set down or up without carrier is told from them
    fact = device.best("link")
    if fact is None or fact.source != "ethtool" or fact.value is not False:
        return
    nic.log[KIND] = [f"{fact.source}: {fact.line}"]
