"""``ethtool -n``, ``-T``, ``-P`` and ``-d`` in the lab: which of the driver's ethtool_ops
answer them (resources/tuning/driver_caps.json, generated from Debian's 6.1 and 6.12 source),
held per interface so the lab's ethtool answers as the kernel would (audit 5a row 7).

- ``-n`` (ethtool 6.1 do_grxclass, ioctls): ETHTOOL_GRXRINGS and ETHTOOL_GRXCLSRLCNT need
  ``get_rxnfc`` (net/ethtool/ioctl.c ethtool_get_rxnfc: EOPNOTSUPP without it).
- ``-T`` (netlink TSINFO_GET): 6.1 net/ethtool/common.c __ethtool_get_ts_info asks the PHY
  first (phy_has_tsinfo), then the driver's get_ts_info, else software receive only; 6.12 ORs
  software receive into every answer. ethtool_op_get_ts_info (net/ethtool/ioctl.c, both) adds
  software transmit. A driver's own get_ts_info answers from its hardware and PHC: where its
  source decides it alone (igc, hand fact ``ts_info``, shaped by a real capture) the lab
  answers (igb by MAC type, ``ts_info_by_chip``, where the chip is named); where the hardware or
  a PHY decides (macb, atlantic, stmmac; ``ts_info_phy``)
  the table cannot say, so the capture answers those.
- ``-P`` (rtnetlink IFLA_PERM_ADDRESS): register_netdevice copies dev_addr into perm_addr
  when the driver set it as NET_ADDR_PERM (net/core/dev.c); no op is needed. The lab's MAC
  stands for what the driver read from its hardware at probe.
- ``-d`` (ETHTOOL_GREGS): net/ethtool/ioctl.c ethtool_get_regs refuses with EOPNOTSUPP without
  ``get_regs`` and ``get_regs_len``; where both exist the dump is the hardware's registers,
  which the lab does not have: the capture answers.
"""

from __future__ import annotations

from typing import Any

from sbctune.tuning import driver_caps

GENERIC_TS_INFO = "ethtool_op_get_ts_info"


def misc_state(
    driver: str,
    chip: str = "",
    kernel: str = "",
    mac: str = "",
    queues: tuple[int, int] | None = None,
) -> dict[str, Any] | None:
    """What the four options read for the interface (None: the table does not know the
    driver; the capture answers). `mac` the address the lab gives the NIC ("" for veth's
    own, read from the lab's sysfs); `queues` its (TX, RX) queues in use: GRXRINGS's count
    (bcmgenet_get_rxnfc rx_queues ?: 1, gem_get_rxnfc num_queues) until ethtool -L."""
    caps = driver_caps.caps(driver, kernel or None, chip) if driver else None
    if caps is None:
        return None
    if not caps.has("get_ts_info"):
        ts = "none"
    elif caps.cite("get_ts_info").rsplit(": ", 1)[-1] == GENERIC_TS_INFO:
        ts = "generic"
    else:
        ts = ""  # the driver's own: its hardware's answer
    if caps.facts.get("ts_info_phy"):
        ts = ""  # the PHY may answer first (phy_has_tsinfo)
    ts_info = None
    if caps.has("get_ts_info"):  # igc's answer is every chip's; igb's by MAC type
        ts_info = caps.facts.get("ts_info") or driver_caps.by_chip(
            caps.facts.get("ts_info_by_chip"), chip
        )
    if ts_info and not caps.facts.get("ts_info_phy"):
        ts = "driver"  # the driver's own answer, read from its source (igc)
    return {
        "rxnfc": caps.has("get_rxnfc"),
        "ts": ts,
        **({"ts_info": ts_info} if ts == "driver" else {}),
        "regs": caps.has("get_regs") and caps.has("get_regs_len"),
        # privflags_prepare_data (net/ethtool/privflags.c): EOPNOTSUPP without get_priv_flags
        "priv_flags": caps.has("get_priv_flags"),
        # the driver's own string table and its probe-time values where the source decides
        # them (igb, igc, atlantic: hand fact priv_flags; audit 9b row 3)
        **({"priv_flag_list": caps.facts["priv_flags"]} if "priv_flags" in caps.facts else {}),
        "perm_addr": mac.lower(),
        "rings": int(queues[1]) if queues else 1,
    }
