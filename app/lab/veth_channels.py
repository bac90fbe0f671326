"""Set how many of a veth's allocated queues are in use (ETHTOOL_SCHANNELS, veth_set_channels
in drivers/net/veth.c), so the lab's NIC can be a device allocated with more transmit queues
than it uses, as stmmac is (MTL_MAX_TX_QUEUES allocated, the device tree's count in use):
netif_is_multiqueue() then holds and xps_cpus is writable on its one queue, as on the board.

The host has no ethtool binary to rely on: the request goes through the SIOCETHTOOL ioctl.
The lab's ``ethtool -L`` (fake_ethtool) makes the same request (``request``) for the counts it
shows, as igb/igc/stmmac_reinit_queues change the real ones: its standalone script holds this
module's text (standard library only outside the markers).
"""

from __future__ import annotations

import struct

# @tables-start: sbctune's own imports; the fake ethtool's script_text drops them.
from sbctune.lab.errors import LabError

# @tables-end

SIOCETHTOOL = 0x8946  # include/uapi/linux/sockios.h
ETHTOOL_SCHANNELS = 0x3D  # include/uapi/linux/ethtool.h
IFNAMSIZ = 16
IFREQ_SIZE = 40  # struct ifreq on 64-bit Linux


def request(ifname: str, tx: int, rx: int) -> None:
    """ETHTOOL_SCHANNELS on `ifname` (in the caller's namespace): OSError where refused."""
    # Here, not at the top: the fake ethtool's script holds this module, and every read it
    # answers (two per NIC per inspect) would import them (~30 ms) for this one set.
    import ctypes
    import fcntl  # posix-only: the lab runs on Linux; the package imports anywhere
    import socket

    # struct ethtool_channels: cmd, max_rx, max_tx, max_other, max_combined, rx_count,
    # tx_count, other_count, combined_count (the maxima are the kernel's, ignored on set)
    buffer = ctypes.create_string_buffer(struct.pack("9I", ETHTOOL_SCHANNELS, 0, 0, 0, 0,
                                                     rx, tx, 0, 0))  # fmt: skip
    name = ifname.encode("ascii")[: IFNAMSIZ - 1]
    ifreq = struct.pack(f"{IFNAMSIZ}sP", name, ctypes.addressof(buffer))
    ifreq += b"\0" * (IFREQ_SIZE - len(ifreq))
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        fcntl.ioctl(sock.fileno(), SIOCETHTOOL, ifreq)  # posix-only: Linux ioctl


def set_channels(ifname: str, tx: int, rx: int) -> None:
    """Use `tx` transmit and `rx` receive queues of `ifname` (in the caller's namespace)."""
    try:
        request(ifname, tx, rx)
    except OSError as exc:
        raise LabError(f"could not set {ifname}'s queues in use: {exc.strerror}") from exc
