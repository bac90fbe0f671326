"""The UDP test's socket: its receive buffer, the kernel's arrival stamps, and the count of
datagrams the socket itself dropped.

**Receive buffer.** The data thread is Python: a busy PC, the garbage collector or the GUI
holding the GIL can pause it for tens of milliseconds, and whatever arrives meanwhile waits in
the socket's buffer. When that is full the kernel drops datagrams, and the endpoint would report
as *network* loss what its own socket lost (a busy lab machine once saw 3-4 % at half the shaped
rate where the C server saw under 1 %). So the endpoint asks for ``UDP_RCVBUF`` (8 MiB):

* Linux charges each datagram its buffer's true size (~2.3 KB for a 1400-byte payload,
  measured on loopback), and doubles what is asked for that bookkeeping; 8 MiB asked holds
  ~7000 such datagrams: ~1.7 s at 50 Mbit/s, ~80 ms at 1 Gbit/s.
* ``SO_RCVBUF`` is capped at ``net.core.rmem_max``: 212992 bytes by default, which grants
  425984, about 180 datagrams: ~45 ms at 50 Mbit/s, 2 ms at 1 Gbit/s. ``SO_RCVBUFFORCE``
  ignores the cap and is tried first; it needs CAP_NET_ADMIN (root), so for most users the
  cap holds, and the grant and how to raise the cap are logged.
* Other systems have caps of their own (macOS: ``kern.ipc.maxsockbuf``); the grant is logged.

The send buffer stays the OS default (see sbctune.measure.endpoint.udp). The C server keeps
the OS defaults unless given ``-w``; it reads in C, so it falls behind less.

**Drops** (Linux ``SO_RXQ_OVFL``): each datagram then carries the socket's running count of
datagrams dropped for a full buffer; the mover reports it, so "loss" that was this PC's is
told apart from the network's.
"""

from __future__ import annotations

import contextlib
import logging
import platform
import socket
import struct
import sys
import time

from .protocol import TestParams

log = logging.getLogger(__name__)

#: Bytes asked for the receive buffer when the client gave no ``-w`` (see the docstring).
UDP_RCVBUF = 8 * 1024 * 1024
_SO_RCVBUFFORCE: int | None = getattr(
    socket, "SO_RCVBUFFORCE", 33 if sys.platform == "linux" else None
)

#: Linux's SO_TIMESTAMPNS (= SCM_TIMESTAMPNS), 35 on the generic ABI (x86, Arm, RISC-V), and
#: SO_RXQ_OVFL, 40; Python's socket module names neither. The stamp is a ``struct timespec``,
#: the drop count a native 32-bit unsigned integer.
_GENERIC_LINUX = sys.platform == "linux" and not platform.machine().startswith(
    ("mips", "sparc", "parisc", "alpha", "ppc")
)
_SO_TIMESTAMPNS: int | None = getattr(socket, "SO_TIMESTAMPNS", 35 if _GENERIC_LINUX else None)
_SO_RXQ_OVFL: int | None = 40 if _GENERIC_LINUX else None
_TIMESPEC = struct.Struct("@ll")
_DROPS = struct.Struct("@I")
ANC_SIZE = (
    socket.CMSG_SPACE(_TIMESPEC.size) + socket.CMSG_SPACE(_DROPS.size)
    if hasattr(socket, "CMSG_SPACE")
    else 64
)


def _receive_buffer(sock: socket.socket, asked: int) -> int:
    """Ask for ``asked`` bytes of receive buffer (beyond rmem_max where allowed); the grant."""
    forced = False
    if _SO_RCVBUFFORCE is not None:
        try:
            sock.setsockopt(socket.SOL_SOCKET, _SO_RCVBUFFORCE, asked)
            forced = True
        except OSError:  # EPERM without CAP_NET_ADMIN: the capped way below
            pass
    if not forced:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, asked)
    granted = sock.getsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF)
    if sys.platform == "linux" and granted < asked:  # Linux grants twice what it accepted
        log.info(
            "UDP receive buffer: %d bytes asked, %d granted (capped by net.core.rmem_max); "
            "a busy PC may drop datagrams and count them as loss. "
            "`sudo sysctl -w net.core.rmem_max=%d` raises the cap.",
            asked, granted, asked,
        )  # fmt: skip
    return granted


def open_udp_socket(ctrl: socket.socket, params: TestParams) -> socket.socket:
    """A UDP socket on the address and port the client's control connection reached."""
    name = ctrl.getsockname()
    sock = socket.socket(ctrl.family, socket.SOCK_DGRAM)
    try:
        if ctrl.family == socket.AF_INET6:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
        sock.bind(name)
        granted = _receive_buffer(sock, params.window or UDP_RCVBUF)
        if params.window:  # the send buffer stays the OS default unless -w
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, params.window)
        log.debug(
            "UDP socket buffers: rcv %d snd %d",
            granted, sock.getsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF),
        )  # fmt: skip
        if params.tos and ctrl.family == socket.AF_INET:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.IPPROTO_IP, socket.IP_TOS, params.tos)
        sock.setblocking(False)
    except OSError:
        sock.close()
        raise
    return sock


def _enable(sock: socket.socket, option: int | None) -> bool:
    if option is None or not hasattr(sock, "recvmsg_into"):
        return False
    try:
        sock.setsockopt(socket.SOL_SOCKET, option, 1)
    except OSError:
        return False
    return True


def enable_kernel_timestamps(sock: socket.socket) -> bool:
    """Ask the kernel to stamp each datagram's arrival (Linux ``SO_TIMESTAMPNS``).

    Jitter is the spread of (arrival - send) times: stamped when the Python thread gets to a
    datagram, a backlog read in one go would look like jitter that the network never had.
    Where the OS has no such stamp (Windows, macOS), the thread's clock is used."""
    return _enable(sock, _SO_TIMESTAMPNS)


def enable_drop_counts(sock: socket.socket) -> bool:
    """Ask the kernel to tell, with each datagram, how many the socket dropped so far
    (Linux ``SO_RXQ_OVFL``)."""
    return _enable(sock, _SO_RXQ_OVFL)


def ancillary(anc: list[tuple[int, int, bytes]]) -> tuple[float, int | None]:
    """(arrival time, the socket's drop count so far or None) from a datagram's ancillary
    data; the arrival is this thread's clock when the kernel gave no stamp."""
    arrived: float | None = None
    drops: int | None = None
    for level, kind, data in anc:
        if level != socket.SOL_SOCKET:
            continue
        if kind == _SO_TIMESTAMPNS and len(data) >= _TIMESPEC.size:
            sec, nsec = _TIMESPEC.unpack_from(data)
            arrived = int(sec) + int(nsec) / 1e9
        elif kind == _SO_RXQ_OVFL and len(data) >= _DROPS.size:
            drops = int(_DROPS.unpack_from(data)[0])
    return (time.time() if arrived is None else arrived), drops


def drops_text(drops: int, sock: socket.socket) -> str:
    """The warning when the socket dropped datagrams: how many, why, and what lets it keep
    more (Linux: the rmem_max cap, when the buffer got less than was asked)."""
    text = "UDP test: this PC's socket dropped %d datagrams (its receive buffer was full: the "
    text += "endpoint fell behind); they count as lost"
    text %= drops
    try:
        granted = sock.getsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF)
    except OSError:
        return text
    if sys.platform == "linux" and granted < 2 * UDP_RCVBUF:
        text += (
            f". Its buffer was {granted // 1024} KiB, capped by net.core.rmem_max: "
            f"`sudo sysctl -w net.core.rmem_max={UDP_RCVBUF}` lets it keep more"
        )
    return text
