"""A netdev line whose driver-and-device prefix was cut to its last word: ``ethernet eth0:
stmmac_open: Hw setup failed`` (the kernel printed ``meson8b-dwmac ff3f0000.ethernet eth0:
...``; a terminal or a copy kept the tail). The kernel never prints "word iface:" itself:
__netdev_printk() (net/core/dev.c, 6.1 and 6.12) writes "driver device iface: " when the
net_device has a parent and "iface: " alone when it has none, so such a line is a paste's cut.

What tells it from prose or another subsystem's line: the interface is of the shapes the kernel
and udev give NICs (dmesg_classify's netdev names: ``eth0``, ``wlan0``, ``end0``), and the
message after it is a network driver's own format in the kernel's generated tables
(resources/kernel_source/messages.tsv at warn/err, netdev_info_formats.tsv at info, both read
from linux-source 6.1/6.12 by their regen scripts) printed by a file under drivers/net/. The
cut word names no driver, so none is taken: the line says only that this interface exists and
what its driver said (issue 24, forty-ninth unseen set: an X96 Max+ TV box's stmmac lines).
Only lines no other shape read reach it (dmesg_classify.classify's last resort), with string
tests before any table look-up."""

from __future__ import annotations

from collections.abc import Callable

from sbctune.catalog.kernel_messages import KernelMessage, load_format_table, load_messages

_NET_FILES = "drivers/net/"


def _net_message(message: str) -> bool:
    """Whether a network driver's source prints this message (any level)."""
    for table in (load_messages(), load_format_table("netdev_info_formats.tsv")):
        found: KernelMessage | None = table.match(message)
        if found is not None and any(f.startswith(_NET_FILES) for f in found.files):
            return True
    return False


def cut_netdev_line(
    msg: str, is_netdev_name: Callable[[str], bool]
) -> tuple[str, dict[str, str]] | None:
    """("device", {"iface": name}) for a netdev line cut to "word iface: message", or None.
    ``is_netdev_name`` is the caller's test of an interface name's shape."""
    head, sep, rest = msg.partition(": ")
    # per distinct unread message of a long log: cheap string tests first
    if not sep or not rest[:1].strip() or head.count(" ") != 1 or len(head) > 48:
        return None
    word, iface = head.split(" ")
    if not word[:1].isalpha() or not word.replace("-", "").replace("_", "").isalnum():
        return None
    if not is_netdev_name(iface) or not _net_message(rest):
        return None
    return "device", {"iface": iface}
