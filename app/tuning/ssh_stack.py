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

# One line per upper/lower pair, "br0/lower_eth0"; always exits 0 where sysfs is there, so an
# empty answer means no stacked device (and a failure means the graph was not read).
READ_LOWERS = (
    'cd /sys/class/net || exit 1; for f in */lower_*; do [ -L "$f" ] && printf "%s\\n" "$f"; '
    "done; exit 0"
)
_PAIR = re.compile(r"([^/\s]{1,15})/lower_([^/\s]{1,15})")
_MAX_TEXT = 65536  # the Pi's answer is untrusted: bounded before it is read
_MAX_DEPTH = 8  # deeper than any real stack (bridge over bond over VLAN over DSA)


def parse_lowers(text: str) -> dict[str, set[str]]:
    """upper -> the devices directly under it, from READ_LOWERS' answer (other lines ignored)."""
    lowers: dict[str, set[str]] = {}
    for line in text[:_MAX_TEXT].splitlines():
        match = _PAIR.fullmatch(line.strip())
        if match:
            lowers.setdefault(match.group(1), set()).add(match.group(2))
    return lowers


def path_down(top: str, nic: str, lowers: dict[str, set[str]]) -> list[str] | None:
    """The devices from `top` down to `nic` ([top, ..., nic]), or None where nic is not under
    top; [nic] where they are the same. Breadth first, each device once, bounded in depth."""
    above: dict[str, str] = {top: ""}
    level = [top]
    for _ in range(_MAX_DEPTH + 1):
        if nic in above:
            path = [nic]
            while above[path[-1]]:
                path.append(above[path[-1]])
            return path[::-1]
        following = []
        for dev in level:
            for low in sorted(lowers.get(dev, ())):
                if low not in above:
                    above[low] = dev
                    following.append(low)
        level = following
    return None
