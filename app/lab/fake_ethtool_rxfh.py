"""``ethtool -x IFACE`` as ethtool 6.1 prints it (ethtool.c do_grxfh over the ioctl interface;
the real binary's strings, and for a driver without get_rxnfc its real answer on a veth:
resources/lab/ethtool/SOURCE.md). Layout checked against a real capture:
https://github.com/Xilinx-CNS/onload/issues/208 (2024-03-07).

Standard library only: ``ethtool_state.script_text`` copies this text into the standalone script.
"""

from typing import Any

# @tables-start
from sbctune.lab.fake_ethtool_base import EOPNOTSUPP, Failure

# @tables-end

# the kernel's ETH_SS_RSS_HASH_FUNCS strings, in bit order (net/ethtool/common.c)
HASH_FUNCS = ("toeplitz", "xor", "crc32")


def rx_rings(dev: dict[str, Any]) -> int:
    """The RX queues in use now: ethtool -L's where the driver has channels, else lab-up's."""
    channels = dev.get("channels") or {}
    cur = channels.get("cur") or {}
    now = cur.get("combined") if channels.get("style") == "combined" else cur.get("rx")
    return int(now or (dev.get("rxfh") or {}).get("rings") or 1)


def indir_entry(table: str, index: int, rings: int, size: int) -> int:
    """Entry `index`: igb/igc (j * rings) / size, atlantic i & (rings - 1), stmmac i % rings."""
    if table == "spread":
        return index * rings // size
    if table == "mask":
        return index & (rings - 1)
    return index % rings


def show_rxfh(ifname: str, dev: dict[str, Any]) -> str:
    rxfh = dev.get("rxfh") or {}
    if not rxfh.get("rxnfc"):
        raise Failure([f"Cannot get RX ring count: {EOPNOTSUPP}"], 1)
    if not rxfh.get("rxfh"):  # GRSSH refused, then GRXFHINDIR too
        raise Failure([f"Cannot get RX flow hash indirection table size: {EOPNOTSUPP}"], 1)
    rings, size = rx_rings(dev), int(rxfh.get("indir_size") or 0)
    lines = [f"RX flow hash indirection table for {ifname} with {rings} RX ring(s):"]
    if not size:
        lines.append(EOPNOTSUPP)
    entries = [indir_entry(str(rxfh.get("table")), j, rings, size) for j in range(size)]
    for start in range(0, size, 8):
        lines.append(f"{start:5d}: " + "".join(f" {e:5d}" for e in entries[start : start + 8]))
    lines += ["RSS hash key:", str(rxfh.get("key") or EOPNOTSUPP), "RSS hash function:"]
    hfunc = rxfh.get("hfunc")
    if not hfunc:
        lines.append(f"    {EOPNOTSUPP}")
    for name in HASH_FUNCS if hfunc else ():
        lines.append(f"    {name}: {'on' if name == hfunc else 'off'}")
    return "\n".join(lines) + "\n"
