"""Which NIC carries the SSH session when the route to the client leaves by a stacked device.

`ip route get <client>` names the device the session leaves by: a bridge (br0), a bond, a VLAN
(eth0.10), a macvlan or a DSA user port (lan1) as often as the NIC itself. Each of these is tied
to the device under it by `netdev_upper_dev_link` or `netdev_master_upper_dev_link` (net/bridge/
br_if.c: br_add_if, drivers/net/bonding/bond_main.c: bond_master_upper_dev_link, net/8021q/
vlan.c: register_vlan_dev, drivers/net/macvlan.c: macvlan_common_newlink, net/dsa/user.c:
dsa_user_create), which makes the sysfs links /sys/class/net/<upper>/lower_<lower> (net/core/
dev.c: netdev_adjacent_sysfs_add). Restarting any device under the session's device drops the
session: a bridge's port goes down (br_port_carrier_check), a VLAN is closed with its lower
(vlan_device_event, NETDEV_DOWN), a DSA conduit closes every user port (dsa_user_netdevice_event,
NETDEV_GOING_DOWN). So the rule is over the graph: the NIC carries the session when it is the
route's device or lies under it, at any depth.
"""

from __future__ import annotations

import re

from sbctune.inventory.device_graph import MAX_TEXT, READ_LOWERS, parse_lowers, path_down

_STP = re.compile(r"([^/\s]{1,15})/bridge/(stp_state|forward_delay) ([0-9]{1,9})")


def stp_seconds(text: str) -> dict[str, int]:
    """bridge -> the seconds a port whose carrier returns waits before it forwards again, for
    each bridge that runs the spanning tree (stp_state 1, the kernel's, or 2, a daemon's):
    listening and learning, forward_delay each (net/bridge/br_stp.c: br_make_forwarding);
    sysfs gives forward_delay in hundredths of a second (br_sysfs_br.c: jiffies_to_clock_t)."""
    found: dict[str, dict[str, int]] = {}
    for line in text[:MAX_TEXT].splitlines():
        match = _STP.fullmatch(line.strip())
        if match:
            found.setdefault(match.group(1), {})[match.group(2)] = int(match.group(3))
    return {
        bridge: 2 * values["forward_delay"] // 100
        for bridge, values in found.items()
        if values.get("stp_state", 0) != 0 and values.get("forward_delay", 0) > 0
    }


__all__ = ["READ_LOWERS", "parse_lowers", "path_down", "stp_seconds"]
