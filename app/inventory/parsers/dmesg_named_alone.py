"""A netdev line whose parent device is named as its driver: ``unisoc_wifi unisoc_wifi wlan0:
sprdwl_report_connection ...`` (the out-of-tree Unisoc UWE5622 driver, sprdwl_ng, on an Orange
Pi Zero 2W). __netdev_printk() (net/core/dev.c, 6.1 and 6.12) writes "%s %s %s: " of the
net_device's parent's driver, the parent's name and the interface: the line says the interface
is that device's. A device named exactly as its driver, with no bus form (no unit address, no
".N"), is a platform device added with no id: platform_device_add() names it "%s" of its name
alone (PLATFORM_DEVID_NONE, drivers/base/platform.c, 6.1 and 6.12) and platform_match() binds
it to the driver of that name. So the shape alone ties the interface to its platform device,
whether or not the kernel's tables know the driver (the device_line_keys rule for the older
"dm9000 dm9000: eth0: ..." shape, whose tie is dev_printk's text, asks that they do). The
device may be named otherwise than its driver: platform_match() also binds by the driver's
id_table (platform_match_id(): pdev->name against each entry) or device-tree match, so Allwinner's
vendor sunxi-gmac drives a device added as "gmac0" ("sunxi-gmac gmac0 eth0: eth0: Type(7) PHY
ID ...", a Creality Sonic Pad's 4.9 kernel, corpus/print81_sonicpad_*): the same "%s %s %s: ".

Only lines no other shape read reach it (dmesg_classify.classify's last resort): a split and
two string tests before the caller's interface-name test."""

from __future__ import annotations

from collections.abc import Callable

_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_-")


def named_alone_netdev(
    msg: str, is_netdev_name: Callable[[str], bool]
) -> tuple[str, dict[str, str]] | None:
    """("device", {"driver", "device", "iface", "named_alone"}) for "driver name iface: msg"
    (the driver's name and the device's are often the same)."""
    parts = msg.split(" ", 3)
    if len(parts) < 4 or not parts[2].endswith(":"):
        return None
    driver, name, iface = parts[0], parts[1], parts[2][:-1]
    if not (_bare(driver) and _bare(name)) or not is_netdev_name(iface):
        return None
    if name != driver and not _instance_of(name, driver):
        return None  # "the ethernet eth0: ...": a sentence's words, not two kernel names
    return "device", {"driver": driver, "device": name, "iface": iface, "named_alone": "1"}


def _instance_of(name: str, driver: str) -> bool:
    """Two different names that read as a driver and its device's: the device numbered as a
    board file numbers its instances ("gmac0"), the driver's name not a plain word (a "-", "_"
    or digit in it, as KBUILD_MODNAME and most drivers' names have: "sunxi-gmac")."""
    return name[-1] in "0123456789" and not driver.isalpha()


def _bare(name: str) -> bool:
    """A name of a driver or of a platform device with no id: no bus form (no ".", ":")."""
    return 2 <= len(name) <= 31 and name[0].isalpha() and set(name) <= _NAME_CHARS


def named_alone_device(
    msg: str, iface_of: Callable[[str, str], str | None]
) -> tuple[str, dict[str, str]] | None:
    """("device", {...}) for a driver's own line on its platform device named alone, "name
    name: msg" (dev_info() on a board file's device, PLATFORM_DEVID_NONE as above), when the
    driver's source prints the interface in `msg` by a format `iface_of(name, msg)` reads (an
    out-of-tree driver's row of vendor_formats.json: Nuvoton's "nuc970-emac0 nuc970-emac0: eth0
    is OPENED", nuc970_ether0.c nuc970_ether_open()). Without such a row the shape says nothing
    of a NIC ("bcm2835-codec bcm2835-codec: ...")."""
    head, sep, _rest = msg.partition(": ")
    name, space, again = head.partition(" ")
    if not sep or not space or name != again or not 2 <= len(name) <= 31:
        return None
    if not name[0].isalpha() or not set(name) <= _NAME_CHARS:
        return None
    iface = iface_of(name, msg)
    if iface is None:
        return None
    return "device", {"driver": name, "device": name, "iface": iface, "named_alone": "1"}
