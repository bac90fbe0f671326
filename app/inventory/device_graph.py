"""The Pi's stacked network devices as a graph: which device stands on which.

A bridge (br0), a bond, a VLAN (eth0.10), a macvlan or a DSA user port (lan1) is tied to the
device under it by `netdev_upper_dev_link` / `netdev_master_upper_dev_link` (net/bridge/br_if.c:
br_add_if, drivers/net/bonding/bond_main.c: bond_master_upper_dev_link, net/8021q/vlan.c:
register_vlan_dev, drivers/net/macvlan.c: macvlan_common_newlink, net/dsa/user.c:
dsa_user_create), which makes the sysfs link /sys/class/net/<upper>/lower_<lower> (net/core/
dev.c: netdev_adjacent_sysfs_add). Both the tuner (which NIC carries the SSH session) and the
measurement (which NIC the route to this PC stands on, whose address a bridge port borrows)
read the same graph, so it sits below both.
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
MAX_TEXT = 65536  # the Pi's answer is untrusted: bounded before it is read
_MAX_DEPTH = 8  # deeper than any real stack (bridge over bond over VLAN over DSA)


def parse_lowers(text: str) -> dict[str, set[str]]:
    """upper -> the devices directly under it, from READ_LOWERS' answer (other lines ignored)."""
    lowers: dict[str, set[str]] = {}
    for line in text[:MAX_TEXT].splitlines():
        match = _PAIR.fullmatch(line.strip())
        if match:
            lowers.setdefault(match.group(1), set()).add(match.group(2))
    return lowers


def _below(top: str, lowers: dict[str, set[str]]) -> dict[str, str]:
    """Every device under `top` (and top itself) -> the device just above it ("" for top).
    Breadth first, each device once, bounded in depth."""
    above: dict[str, str] = {top: ""}
    level = [top]
    for _ in range(_MAX_DEPTH):
        following = []
        for dev in level:
            for low in sorted(lowers.get(dev, ())):
                if low not in above:
                    above[low] = dev
                    following.append(low)
        level = following
    return above


def path_down(top: str, nic: str, lowers: dict[str, set[str]]) -> list[str] | None:
    """The devices from `top` down to `nic` ([top, ..., nic]), or None where nic is not under
    top; [nic] where they are the same."""
    above = _below(top, lowers)
    if nic not in above:
        return None
    path = [nic]
    while above[path[-1]]:
        path.append(above[path[-1]])
    return path[::-1]


def bottoms(top: str, lowers: dict[str, set[str]]) -> list[str]:
    """The devices at the bottom of `top`'s stack (nothing under them: the NICs), in name
    order; [top] where nothing is stacked under it."""
    return sorted(dev for dev in _below(top, lowers) if not lowers.get(dev))


def nearest_above(nic: str, lowers: dict[str, set[str]], candidates: set[str]) -> str | None:
    """Of `candidates`, the one nearest above `nic` in the graph (fewest steps; by name where
    two are as near); None where none stands on it."""
    found = []
    for dev in candidates - {nic}:
        path = path_down(dev, nic, lowers)
        if path:
            found.append((len(path), dev))
    return min(found)[1] if found else None
