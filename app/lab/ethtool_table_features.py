"""The lab's features (``ethtool -k``) held to the driver capability table
(resources/tuning/driver_caps.json): fixed on or off, off by default, what follows what and what
restarts the interface, by driver and by chip (split from ethtool_table.py)."""

from __future__ import annotations

from typing import Any

from sbctune.tuning import driver_caps
from sbctune.tuning.driver_caps import DriverCaps

MANGLEID = "tx-tcp-mangleid-segmentation"


def hold_features(features: dict[str, Any], caps: DriverCaps, chip: str = "") -> None:
    """`state["features"]` as the kernel sets them up for the driver and chip, and the MTUs
    above which the driver drops features (r8169: jumbo frames)."""
    features["restart_on"] = list(caps.facts.get("restarts_on_features", []))
    features["follow"] = dict(caps.facts.get("features_follow", {}))  # igb/igc: VLAN TX = RX
    features["needs"] = dict(caps.facts.get("features_need", {}))  # atlantic: LRO needs RX csum
    wanted = features["wanted"]
    # neither in features nor in hw_features (the Raspberry Pi tree's lan78xx_bind leaves TSO
    # out unless enable_tso): "off [fixed]", before mangleid, which follows TSO
    for name in (n for n in caps.facts.get("features_fixed_off", []) if n in features["order"]):
        wanted.pop(name, None)
        features["fixed"][name] = False
    off = list(caps.facts.get("features_off_by_default", []))
    if driver_caps.kernel_fact("mangleid_needs_hw_tso") and "tx-tcp-segmentation" not in wanted:
        # register_netdevice adds it to hw_features only when TSO is there: fixed off otherwise
        wanted.pop(MANGLEID, None)
        features["fixed"][MANGLEID] = False
    elif driver_caps.kernel_fact("mangleid_hw_only"):
        off.append(MANGLEID)  # register_netdevice adds it to hw_features only
    for name in off:
        if name in wanted or name in features["order"]:
            wanted[name] = False
            features["fixed"].pop(name, None)
    # set in features but never in hw_features (igb: HIGHDMA, the VLAN filter): "on [fixed]"
    for name in caps.facts.get("features_fixed_on", []):
        if name in features["order"]:
            wanted.pop(name, None)
            features["fixed"][name] = True
    # what the chip's MAC type adds or lacks (igb: HW_TC and NTUPLE from the I350; r8169: no
    # IPv6 checksum or TSO6 before csum v2), the longest chip name that `chip` contains
    rule = driver_caps.by_chip(caps.facts.get("features_by_chip"), chip) or {}
    for name in (n for n in rule.get("fixed_off", []) if n in features["order"]):
        wanted.pop(name, None)
        features["fixed"][name] = False
    for name in (n for n in rule.get("fixed_on", []) if n in features["order"]):
        wanted.pop(name, None)  # stmmac's XGMAC cores keep S-VLAN stripping on 7.2.11+
        features["fixed"][name] = True
    for key, on in (("changeable_on", True), ("changeable_off", False)):
        for name in (n for n in rule.get(key, []) if n in features["order"]):
            features["fixed"].pop(name, None)
            wanted[name] = on
    features["mtu_drops"] = driver_caps.mtu_drops(caps, chip)  # r8169: jumbo frames
