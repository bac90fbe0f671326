"""A Realtek Wi-Fi driver's line that names its interface only after a function's name:
``RTW: rtw_set_ps_mode(wlp3s0) Leave 802.11 power save``. Realtek's driver codebase (the one
the kernel carries in staging) formats such messages with its own macro, ``FUNC_NDEV_FMT
"%s(%s)"`` with ``FUNC_NDEV_ARG(ndev) __func__, ndev->name`` (and FUNC_ADPT_FMT/FUNC_ADPT_ARG,
the adapter's netdev name): 6.1 drivers/staging/rtl8723bs/include/osdep_service_linux.h and
drivers/staging/r8188eu/include/osdep_service.h, 6.12 the rtl8723bs one. The staging copies
print through netdev_*()/pr_*(); the vendor's own trees (rtl8821ce, rtl8812au, rtl8852cu ...)
print the same formats behind their upper-case DRIVER_PREFIX ("RTW: ", "RTL871X: "), with no
device, so the interface inside the parentheses is the only name such a line gives.

The rule: an upper-case tag, ``: ``, a C function's name, and in parentheses right after it a
name of the shapes the kernel and udev give interfaces (dmesg_classify's netdev names:
``wlan2``, ``wlp3s0``, ``eth0``); "IPv6: ADDRCONF(NETDEV_UP)" (a tag with lower case, a
macro's word in the parentheses) is not such a line. Only lines no other shape read reach it
(dmesg_classify.classify's last resort), with string tests before the one pattern."""

from __future__ import annotations

from collections.abc import Callable

from .lazy_pattern import later

# "rtw_set_ps_mode(wlp3s0)", "SetHwReg8812A(wlan0):", "issue_nulldata(wlan2) to ..."
_CALL_RE = later(r"[A-Za-z_]\w{1,63}\(([\w.-]{2,15})\)(?:[:\s,=]|$)")


def func_ndev_line(
    msg: str, is_netdev_name: Callable[[str], bool]
) -> tuple[str, dict[str, str]] | None:
    """("device", {"iface": name}) for a FUNC_NDEV_FMT line, or None. ``is_netdev_name`` is
    the caller's test of an interface name's shape."""
    head, sep, rest = msg.partition(": ")
    # per distinct unread message of a long log: cheap string tests first
    if not sep or not 1 < len(head) <= 16 or not head.isupper() or " " in head:
        return None
    if not head[:1].isalpha() or "(" not in rest[:80]:
        return None
    m = _CALL_RE.match(rest)
    if m is None or not is_netdev_name(m.group(1)):
        return None
    return "device", {"iface": m.group(1)}
