"""``/sys/class/net/IFACE/flags``: whether the interface was brought up.

net/core/net-sysfs.c (6.1 and 6.12) shows ``dev->flags`` with ``fmt_hex`` ("%#x\\n",
NETDEVICE_SHOW_RW(flags, fmt_hex)); IFF_UP is bit 0 (include/uapi/linux/if.h). "0x1002"
(IFF_BROADCAST | IFF_MULTICAST) is an interface nobody brought up."""

from __future__ import annotations

import re

_IFF_UP = 0x1
_HEX = re.compile(r"0x[0-9a-fA-F]{1,8}")  # dev->flags is an unsigned int


def sysfs_not_up(text: str | None) -> bool:
    """True when the file's value is a flags word without IFF_UP; False when it has it or
    cannot be read (unknown is not "down")."""
    value = (text or "").strip()
    return bool(_HEX.fullmatch(value)) and not int(value, 16) & _IFF_UP
