"""The options the lab's stateful ethtool answers from its model, each to its handler: the reads
a shown file can hold (SHOW), those read live (LIVE), the sets (SET), and the refusals of a
driver whose ops need the interface up (``refused_while_down``); split from fake_ethtool.py,
whose ``run`` dispatches on them.

Standard library only: ``ethtool_state.script_text`` copies this text into the standalone script,
after every module whose handlers it names (fake_ethtool.SCRIPT_MODULES).
"""

from __future__ import annotations

import os
from typing import Any

# @tables-start: sbctune's own imports; script_text drops them (the standalone script holds
# these modules' text before this one's).
from sbctune.lab.fake_ethtool_base import (
    BOOL,
    EBUSY,
    ERRNO,
    FAIL_CODE,
    NUM,
    SET_FAIL_CODE,
    Failure,
    iface_up,
    nl_error,
    parse_pairs,
)
from sbctune.lab.fake_ethtool_channels import set_channels, show_channels
from sbctune.lab.fake_ethtool_driver import show_info
from sbctune.lab.fake_ethtool_features import show_features
from sbctune.lab.fake_ethtool_knobs import (
    set_coalesce,
    set_eee,
    set_rings,
    show_coalesce,
    show_eee,
    show_rings,
)
from sbctune.lab.fake_ethtool_link_set import set_link
from sbctune.lab.fake_ethtool_misc import (
    nway_reset,
    show_ntuple,
    show_permaddr,
    show_privflags,
    show_regs,
    show_tsinfo,
)
from sbctune.lab.fake_ethtool_pause import set_pause, show_pause
from sbctune.lab.fake_ethtool_rxfh import show_rxfh
from sbctune.lab.fake_ethtool_stats import show_stats
from sbctune.lab.fake_ethtool_tables import COALESCE_PARAMS, RING_CORE_PARAMS, RING_PARAMS

# @tables-end

SHOW = {
    "-i": show_info,
    "-g": show_rings,
    "-c": show_coalesce,
    "-k": show_features,
    "-a": show_pause,
    "--show-eee": show_eee,
    "-l": show_channels,
    "-x": show_rxfh,
    "-n": show_ntuple,
    "-T": show_tsinfo,
    "-d": show_regs,
    "--show-priv-flags": show_privflags,
}
# answered from the driver's ops (ethtool_misc); where it cannot say, the capture answers
MISC = ("-n", "-T", "-d", "-P", "--show-priv-flags")
# The requests ethtool 6.1 makes over netlink whose kernel handler calls ethnl_ops_begin (hence a
# driver's ethtool_ops.begin): rings, coalesce, pause, eee, channels and the features set; the
# features read (features_prepare_data) does not. Their exit codes on failure.
BEGIN_FAIL_CODE = {**FAIL_CODE, **SET_FAIL_CODE, "-l": 1, "-L": 1}  # -L: nl_schannels' 1
BEGIN_FAIL_CODE.pop("-k")
# ethtool 6.1's own parameters of the sets whose answer may come before the driver's .begin
_SET_PARAMS = {
    "-G": {**dict.fromkeys(RING_PARAMS, NUM), **RING_CORE_PARAMS},
    "-C": {p: BOOL if p.startswith(("adaptive-", "cqe-mode-")) else NUM for p in COALESCE_PARAMS},
    "-L": dict.fromkeys(("rx", "tx", "other", "combined"), NUM),
    "-A": dict.fromkeys(("autoneg", "rx", "tx"), BOOL),
}


def answered_before_begin(option: str, dev: dict[str, Any], args: list[str]) -> bool:
    """Whether ethtool's own parser, or the ethtool core before ethnl_ops_begin, answers `args`:
    a parameter or value ethtool 6.1 refuses (nothing is sent), or a parameter the core refuses
    (ethnl_set_coalesce: one outside supported_coalesce_params; ethnl_set_rings: rx-buf-len,
    cqe-size, tx-push without supported_ring_params). The setter then gives that answer."""
    if option not in _SET_PARAMS:
        return False
    try:
        names = [name for name, _ in parse_pairs(option, args, _SET_PARAMS[option])]
    except Failure:
        return True
    if option == "-C":
        co = dev.get("coalesce") or {}
        supported = co.get("supported") or dev.get("coalesce_refused_params") or []
        return any(name not in supported for name in names)
    refused = (dev.get("ring_params_core") or {}).get("refused") or {}
    return option == "-G" and any(name in refused for name in names)


def refused_while_down(
    option: str, ifname: str, dev: dict[str, Any], args: list[str] | None = None
) -> Failure | None:
    """stmmac on 6.1: ethtool_ops.begin is stmmac_check_if_running, EBUSY while the interface
    is down, before the request reaches the driver. bcmgenet: the ops that need the PHY, which
    bcmgenet_close disconnects (``ops_refused_when_down``: option -> errno name). Neither
    comes before ethtool's parser or the core's own checks (`answered_before_begin`)."""
    if answered_before_begin(option, dev, list(args or [])):
        return None
    own = (dev.get("ops_refused_when_down") or {}).get(option)
    if own and option in BEGIN_FAIL_CODE and not iface_up(ifname, dev):
        if option in SET and os.geteuid() != 0:
            return None  # genetlink's admin check comes first: the setter answers EPERM
        return nl_error(ERRNO[str(own)], BEGIN_FAIL_CODE[option])
    if dev.get("refused_when_down") != "EBUSY":
        return None
    if option == "-x":  # ethtool 6.1's ioctls: __dev_ethtool calls .begin for every command
        return None if iface_up(ifname, dev) else Failure([f"Cannot get RX ring count: {EBUSY}"], 1)
    if option not in BEGIN_FAIL_CODE:
        return None
    if (option in SET or option == "-K") and os.geteuid() != 0:
        return None  # genetlink's admin check comes first: the setter answers EPERM
    return None if iface_up(ifname, dev) else nl_error(EBUSY, BEGIN_FAIL_CODE[option])


# Read on every call, never from a shown file: the values move (the lab's real traffic).
LIVE = {"-S": show_stats, "-P": show_permaddr}  # -P: the lab's sysfs address where no MAC
SET = {
    "-G": set_rings,
    "-C": set_coalesce,
    "-A": set_pause,
    "--set-eee": set_eee,
    "-L": set_channels,
    "-s": set_link,
    "-r": nway_reset,  # where the table holds the driver's nway_reset (ethtool_table)
}
