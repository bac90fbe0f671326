"""The lab's ``ethtool -l/-L``: a driver's channels as its get_channels/set_channels say.

Only igb, igc and stmmac of the 13 drivers met in real pastes have the ops (6.1 and 6.12); the
others answer ``Operation not supported`` (a real capture: e1000e, tests/captures/dev_vm). igb
and igc report combined channels (``rss_queues``) and one "other" (the MSI-X link vector,
NON_Q_VECTORS) and take only ``combined``; stmmac reports RX and TX apart. The kernel's own
checks (net/ethtool/channels.c ethnl_set_channels) come first: a count over its maximum, or no
RX or TX channel left. igb and igc want their "other" at NON_Q_VECTORS in every set, which
their get_channels shows only with MSI-X: without it (Debian's CM4 kernel) every ``-L`` is
refused with EINVAL and ``-l`` reads back the one queue pair. A change restarts the interface
(igb/igc_reinit_queues, stmmac_reinit_queues: close and open when running), shown as a link
bounce.

Standard library only: ``ethtool_state.script_text`` copies this text into the standalone script.
"""

from typing import Any

# @tables-start: sbctune's own imports; script_text drops them (the standalone script holds
# every fake_ethtool module's text in one file).
from sbctune.lab.fake_ethtool_base import (
    EINVAL,
    EOPNOTSUPP,
    NUM,
    attr_offset,
    nl_error,
    parse_pairs,
    require_root,
    restarted,
)

# @tables-end

CHANNELS = ("rx", "tx", "other", "combined")
LABELS = {"rx": "RX:\t\t", "tx": "TX:\t\t", "other": "Other:\t\t", "combined": "Combined:\t"}
SHOW_FAIL = 1  # measured: `ethtool -l` on e1000e (no get_channels)
# ethtool 6.1's nl_schannels returns `exit_code ?: 1` (nl_set_param, 76, came later): Debian's
# 1:6.1-1 binary exits 1 on a failed -L (measured: veth, lo; resources/lab/ethtool/SOURCE.md)
SET_FAIL = 1


def show_channels(ifname: str, dev: dict[str, Any]) -> str:
    ch = dev.get("channels")
    if ch is None:
        raise nl_error(EOPNOTSUPP, SHOW_FAIL)

    def block(values: dict[str, int]) -> list[str]:
        # channels_fill_reply sends a count only with a non-zero maximum; ethtool prints n/a
        return [LABELS[c] + (str(values[c]) if ch["max"].get(c) else "n/a") for c in CHANNELS]

    lines = [f"Channel parameters for {ifname}:", "Pre-set maximums:", *block(ch["max"])]
    lines += ["Current hardware settings:", *block(ch["cur"])]
    return "\n".join(lines) + "\n"


def set_channels(ifname: str, dev: dict[str, Any], args: list[str]) -> None:
    pairs = parse_pairs("-L", args, dict.fromkeys(CHANNELS, NUM))
    require_root(SET_FAIL)  # genetlink's admin check comes before the operation's
    ch = dev.get("channels")
    if ch is None or not ch.get("settable"):
        raise nl_error(EOPNOTSUPP, SET_FAIL)
    new = dict(ch["cur"])
    for name, value in pairs:
        new[name] = int(value)
    if new == ch["cur"]:
        return  # ethnl_set_channels: nothing modified, the driver is not called
    given = [name for name, _ in pairs]

    def offset(name: str) -> int | None:
        return attr_offset(ifname, given.index(name)) if name in given else None

    for name in CHANNELS:  # ethnl_set_channels checks in this order
        if new[name] > int(ch["max"].get(name, 0)):
            extack = "requested channel count exceeds maximum"
            raise nl_error(EINVAL, SET_FAIL, extack, offset(name))
    for side in ("rx", "tx"):
        if not new["combined"] and not new[side]:
            where = offset("combined" if "combined" in given else side)
            extack = "requested channel counts would result in no RX or TX channel being configured"
            raise nl_error(EINVAL, SET_FAIL, extack, where)
    # igb/igc_set_channels: combined only, and other must be NON_Q_VECTORS (the table's
    # "other_required") even where get_channels shows 0 (no MSI-X): then every set is EINVAL
    other = int(ch.get("other_required", ch["max"]["other"]))
    if ch.get("style") == "combined" and (new["rx"] or new["tx"] or new["other"] != other):
        raise nl_error(EINVAL, SET_FAIL)
    ch["cur"] = new
    # igb/igc/stmmac_reinit_queues: the real queues in use (sysfs queues/, their RPS/XPS files)
    dev["queues_pending"] = [new["combined"] + new["tx"], new["combined"] + new["rx"]]
    pq = (dev.get("coalesce") or {}).get("pairs")
    if pq and not pq.get("exempt"):  # igb/igc_set_flag_queue_pairs, decided again
        pq["paired"] = new["combined"] > int(ch["max"]["combined"]) // 2
    if ch.get("restarts"):
        restarted(ifname, dev, ch)
