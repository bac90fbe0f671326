"""The lab's ``ethtool -S``: the driver's counter names, from the kernel's string tables
(resources/kernel_source/ethtool_stats.json, put in the lab's state by ``ethtool_state``), each
valued from the lab's real traffic where the name is one of the interface's own counters
(rx/tx packets, bytes, errors, drops: /sys/class/net/IFACE/statistics), 0 for the rest.

A driver without get_ethtool_stats (smsc95xx, ax88179_178a, asix) has no names: ethtool says
"no stats available" and exits 94 (ethtool.c do_gstats). The layout is do_gstats': ``NIC
statistics:`` then ``     NAME: VALUE`` (five spaces; "%.*s" of ETH_GSTRING_LEN, so a name of
32 characters, with no NUL in the kernel's char[32], prints whole).

Read live on every call (the counters move), so the shell front never answers it from a file.
Standard library only: ``ethtool_state.script_text`` copies this text into the standalone script.
"""

from typing import Any

# @tables-start: sbctune's own imports; script_text drops them (the standalone script holds
# every fake_ethtool module's text in one file).
from sbctune.lab.fake_ethtool_base import Failure

# @tables-end

# The interface's own counters (include/uapi/linux/if_link.h rtnl_link_stats64) a driver's
# table can name the same way.
LIVE_COUNTERS = (
    "rx_packets",
    "tx_packets",
    "rx_bytes",
    "tx_bytes",
    "rx_errors",
    "tx_errors",
    "rx_dropped",
    "tx_dropped",
)
# What the driver's own events move (drops, errors). A driver whose get_ethtool_stats reads
# dev_get_stats (bcmgenet, e1000e) prints the interface's counters, the core's drops
# (net/core/dev.c dev_get_stats: core_stats rx_dropped of frames no protocol took) included;
# any other prints its own count (igb's adapter->stats64, macb's per-queue stats, a chip's
# tally), which the core's drops never reach: a real Pi 5 showed `ip -s link` dropped 617 and
# `ethtool -S` q0_rx_dropped 0 (raspberrypi/linux #6898). The lab's NIC, a veth, has no
# driver events of its own (no ring to overflow, no skb to fail), so for such a driver those
# names stay 0 (ethtool_stats.json "stack_counters", per driver from its source).
DRIVER_EVENTS = ("rx_errors", "tx_errors", "rx_dropped", "tx_dropped")
ETH_GSTRING_LEN = 32
NO_STATS = 94


def live_counter(ifname: str, name: str) -> int:
    """The interface's counter from sysfs (0 where it cannot be read)."""
    try:
        with open(f"/sys/class/net/{ifname}/statistics/{name}", encoding="utf-8") as fh:
            text = fh.read(32).strip()
    except OSError:
        return 0
    return int(text) if (text.isascii() and text.isdigit()) else 0


def live_names(
    names: list[str], aliases: dict[str, str] | None = None, stack: bool = True
) -> dict[str, str]:
    """Driver name -> the interface counter it counts: its own (rx_packets), one the driver's
    model names (`aliases`, macb.toml [stats] live: the GEM's rx_frames), or a queue's (macb's
    q0_rx_packets) where the NIC has that one queue only, so that the queue's count is the
    interface's. Without `stack` (the driver's get_ethtool_stats does not read dev_get_stats)
    its drops and errors are its own: never the interface's (DRIVER_EVENTS)."""
    live = LIVE_COUNTERS if stack else tuple(c for c in LIVE_COUNTERS if c not in DRIVER_EVENTS)
    queued = {n: n.partition("_") for n in names}
    queues = {h for h, _, rest in queued.values() if rest in LIVE_COUNTERS and h[:1] == "q"}
    out = {n: n for n in names if n in live}
    out.update({n: c for n, c in (aliases or {}).items() if n in names and c in live})
    if queues == {"q0"}:
        out.update({n: rest for n, (head, _, rest) in queued.items()
                    if head == "q0" and rest in live})  # fmt: skip
    return out


def queue_names(dev: dict[str, Any]) -> list[str]:
    """The counters a driver names per queue in use (ethtool_stats.json "per_queue": igb_get_strings
    three per TX queue then five per RX queue, stmmac_get_qstats_string two each; macb's
    gem_get_ethtool_strings and atlantic's aq_ethtool_get_strings each queue's names together),
    for the queues ``ethtool -l`` shows now (igb: combined; stmmac: TX and RX apart), else
    those the lab started with."""
    rule = dev.get("stats_per_queue")
    if not rule:
        return []
    tx, rx = dev.get("stats_queues") or (1, 1)
    ch = dev.get("channels")
    if ch:
        cur = ch["cur"]
        both = cur.get("combined")
        tx, rx = (both, both) if both else (cur["tx"], cur["rx"])
    if rule.get("both"):  # one loop over the queues (macb: bp->num_queues; atlantic: vectors)
        return [t.format(n=k) for k in range(max(int(tx), 1)) for t in rule["both"]]
    names = [t.format(n=k) for k in range(int(tx)) for t in rule.get("tx", [])]
    return names + [t.format(n=k) for k in range(int(rx)) for t in rule.get("rx", [])]


def show_stats(ifname: str, dev: dict[str, Any]) -> str:
    names = dev.get("stats")
    if not names:
        raise Failure(["no stats available"], NO_STATS)
    names = list(names) + queue_names(dev)
    live = live_names(names, dev.get("stats_live"), bool(dev.get("stats_stack", True)))
    values = {n: live_counter(ifname, counter) for n, counter in live.items()}
    lines = ["NIC statistics:"]
    lines += [f"     {n[:ETH_GSTRING_LEN]}: {values.get(n, 0)}" for n in names]
    return "\n".join(lines) + "\n"


# The standard statistics groups (net/ethtool/stats.c stats_std_names, both series).
STD_GROUPS = ("eth-phy", "eth-mac", "eth-ctrl", "rmon")


def standard_groups(ifname: str, rest: list[str]) -> str | None:
    """``ethtool -S IFACE --all-groups`` / ``--groups NAME...`` (ethtool's netlink/stats.c
    nl_gstats): the kernel answers every group asked, empty where the driver has no
    get_eth_phy/mac/ctrl_stats or get_rmon_stats (stats_prepare_data, stats_fill_reply) and
    its PHY driver no get_phy_stats (6.12) - none of the 13 in either series - so ethtool
    prints its header alone (stats_reply_cb; parse_grp prints each counter and nothing for an
    empty group). None for any other words (the lab's usual refusal)."""
    if rest == ["--all-groups"] or (
        len(rest) > 1 and rest[0] == "--groups" and all(g in STD_GROUPS for g in rest[1:])
    ):
        return f"Standard stats for {ifname}:\n"
    return None
