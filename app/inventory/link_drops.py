"""How often a NIC's link went down, from its link lines in order (nic_log._link_changes)."""

from __future__ import annotations


def drops(states: list[bool]) -> int:
    """A drop is a down after an up, or the first state the log shows. A driver that says
    "Link is Down" again with no "Link is Up" between (bcmgenet three times in 20 ms while
    OpenWrt brings the port up) states the same state again, not another drop; a real flap
    (down, up, down) is two."""
    return sum(1 for i, up in enumerate(states) if not up and (i == 0 or states[i - 1]))
