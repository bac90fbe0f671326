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

# One line per upper/lower pair, "br0/lower_eth0", then each bridge's spanning-tree state and
# forward delay ("br0/bridge/stp_state 1"); always exits 0 where sysfs is there, so an empty
# answer means no stacked device (and a failure means the graph was not read).
READ_LOWERS = (
    'cd /sys/class/net || exit 1; for f in */lower_*; do [ -L "$f" ] && printf "%s\\n" "$f"; '
    "done; for f in */bridge/stp_state */bridge/forward_delay; do "
    '[ -f "$f" ] && printf "%s %s\\n" "$f" "$(cat "$f")"; done; exit 0'
)
_PAIR = re.compile(r"([^/\s]{1,15})/lower_([^/\s]{1,15})")
_STP = re.compile(r"([^/\s]{1,15})/bridge/(stp_state|forward_delay) ([0-9]{1,9})")
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


def stp_seconds(text: str) -> dict[str, int]:
    """bridge -> the seconds a port whose carrier returns waits before it forwards again, for
    each bridge that runs the spanning tree (stp_state 1, the kernel's, or 2, a daemon's):
    listening and learning, forward_delay each (net/bridge/br_stp.c: br_make_forwarding);
    sysfs gives forward_delay in hundredths of a second (br_sysfs_br.c: jiffies_to_clock_t)."""
    found: dict[str, dict[str, int]] = {}
    for line in text[:_MAX_TEXT].splitlines():
        match = _STP.fullmatch(line.strip())
        if match:
            found.setdefault(match.group(1), {})[match.group(2)] = int(match.group(3))
    return {
        bridge: 2 * values["forward_delay"] // 100
        for bridge, values in found.items()
        if values.get("stp_state", 0) != 0 and values.get("forward_delay", 0) > 0
    }
