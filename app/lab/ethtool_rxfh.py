"""``ethtool -x`` in the lab: the RSS state the driver's ethtool_ops give (resources/tuning/
driver_caps.json), held per interface so the lab's ethtool answers as the kernel would.

ethtool 6.1 reads it over the ioctl interface (ethtool.c do_grxfh): ETHTOOL_GRXRINGS first
(ops->get_rxnfc, else EOPNOTSUPP: net/ethtool/ioctl.c ethtool_get_rxnfc), then ETHTOOL_GRSSH
(ops->get_rxfh, else EOPNOTSUPP: ethtool_get_rxfh; ethtool then tries ETHTOOL_GRXFHINDIR,
which needs get_rxfh too: ethtool_get_rxfh_indir). The sizes are get_rxfh_indir_size and
get_rxfh_key_size (0 where the driver has no such op), the table and key the driver's own
(hand facts rss_indir_size, rss_table, rss_key, rss_hfunc, each cited).
"""

from __future__ import annotations

import os
from typing import Any

from sbctune.tuning import driver_caps


def rxfh_state(
    driver: str, chip: str = "", kernel: str = "", queues: tuple[int, int] | None = None
) -> dict[str, Any] | None:
    """What `ethtool -x` reads for the interface (None: the table cannot say, the capture
    answers). `queues` are its (TX, RX) queues in use: the RX ring count GRXRINGS reports for
    every driver here (igb/igc num_rx_queues, atlantic cfg->vecs, stmmac rx_queues_to_use,
    bcmgenet rx_queues ?: 1, macb num_queues) until ethtool -L changes them."""
    caps = driver_caps.caps(driver, kernel or None, chip) if driver else None
    if caps is None:
        return None
    if not caps.has("get_rxnfc"):
        return {"rxnfc": False}
    rings = int(queues[1]) if queues else 1
    if not caps.has("get_rxfh"):
        return {"rxnfc": True, "rxfh": False, "rings": rings}
    facts = caps.facts
    if "rss_table" not in facts or "rss_hfunc" not in facts:
        return None  # a get_rxfh nobody read: claim nothing
    size = int(facts.get("rss_indir_size", 0)) if caps.has("get_rxfh_indir_size") else 0
    key = ""
    rule = facts.get("rss_key") if caps.has("get_rxfh_key_size") else None
    if isinstance(rule, dict):
        if rule.get("fixed"):
            key = str(rule["fixed"])
        elif rule.get("random"):  # netdev_rss_key_fill: this boot's random key
            key = ":".join(f"{b:02x}" for b in os.urandom(int(rule["size"])))
    return {"rxnfc": True, "rxfh": True, "rings": rings, "indir_size": size,
            "table": str(facts["rss_table"]), "key": key,
            "hfunc": str(facts["rss_hfunc"])}  # fmt: skip
