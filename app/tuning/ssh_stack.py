"""Which NIC carries the SSH session when the route to the client leaves by a stacked device.

`ip route get <client>` names the device the session leaves by: a bridge (br0), a bond, a VLAN
(eth0.10), a macvlan or a DSA user port (lan1) as often as the NIC itself. Each of these is tied
to the device under it by `netdev_upper_dev_link` or `netdev_master_upper_dev_link` (net/bridge/
br_if.c: br_add_if, drivers/net/bonding/bond_main.c: bond_master_upper_dev_link, net/8021q/
vlan.c: register_vlan_dev, drivers/net/macvlan.c: macvlan_common_newlink, net/dsa/user.c:
dsa_user_create), which makes the sysfs links /sys/class/net/<upper>/lower_<lower> (net/core/
dev.c: netdev_adjacent_sysfs_add). Restarting any device under the session's device drops the
session: a bridge's port stops forwarding while its carrier is off (br_port_carrier_check), a
VLAN, macvlan or DSA user port takes its lower's carrier (netif_stacked_transfer_operstate). A
tweak's restart is the driver's own stop and open, not dev_close, so the uppers are not closed
(audit 39: vlan_device_event's NETDEV_DOWN and dsa_user_netdevice_event's NETDEV_GOING_DOWN run
on `ip link set down` only); they lose the carrier for the restart. So the rule is over the
graph: the NIC carries the session when it is the route's device or lies under it, at any depth.
"""

from __future__ import annotations

import re

from sbctune.inventory.device_graph import MAX_TEXT, READ_LOWERS, parse_lowers, path_down

_STP = re.compile(r"([^/\s]{1,15})/bridge/(stp_state|forward_delay) ([0-9]{1,9})")


def _stp_values(text: str) -> dict[str, dict[str, int]]:
    found: dict[str, dict[str, int]] = {}
    for line in text[:MAX_TEXT].splitlines():
        match = _STP.fullmatch(line.strip())
        if match:
            found.setdefault(match.group(1), {})[match.group(2)] = int(match.group(3))
    return found


def user_stp(text: str) -> set[str]:
    """The bridges whose spanning tree runs in a user-space daemon (stp_state 2, BR_USER_STP):
    the kernel leaves their ports' states to it (net/bridge/br_stp.c: br_port_state_selection,
    "Don't change port states if userspace is handling STP"), so when a port forwards again
    after its link returns is the daemon's choice (RSTP's edge ports at once, STP's after the
    forward delay twice), not the kernel's."""
    return {bridge for bridge, values in _stp_values(text).items() if values.get("stp_state") == 2}


def stp_seconds(text: str) -> dict[str, int]:
    """bridge -> the seconds a port whose carrier returns waits before it forwards again, for
    each bridge that runs the spanning tree (stp_state 1, the kernel's, or 2, a daemon's):
    listening and learning, forward_delay each (net/bridge/br_stp.c: br_make_forwarding);
    sysfs gives forward_delay in hundredths of a second (br_sysfs_br.c: jiffies_to_clock_t)."""
    found = _stp_values(text)
    return {
        bridge: 2 * values["forward_delay"] // 100
        for bridge, values in found.items()
        if values.get("stp_state", 0) != 0 and values.get("forward_delay", 0) > 0
    }


__all__ = ["READ_LOWERS", "parse_lowers", "path_down", "stp_seconds", "user_stp"]
