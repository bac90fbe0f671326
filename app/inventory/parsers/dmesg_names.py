"""The shapes of the names a kernel log line gives a device or an interface (a part of
dmesg_patterns, kept apart by concern): PCI, USB, platform, SDIO and device-tree device names,
an MDIO bus's devices, the devices registered below a NIC's, and interface names."""

from __future__ import annotations

from sbctune.catalog.child_devices import pattern as _child_pattern

# A device's name: PCI address, USB interface, device-tree platform device ("fe300000.ethernet"),
# SDIO function, or a platform device of a board file before device trees: "<name>.<id>"
# (drivers/base/platform.c, platform_device_add(): "%s.%d", and "%s.%d.auto" for automatic ids).
PRE_DT_PLATFORM = r"[a-z][a-z0-9_-]{1,30}\.\d{1,3}(?:\.auto)?"
# A device-tree node whose address did not translate (of_device_make_bus_id(): "%s:%s" of
# each node's base name up the tree), as on PowerPC: "soc@ffe00000:ethernet@b0000"; a node
# right below the root is named alone: "switch@1b000000" (OpenWrt's RTL930x switch).
OF_NAMED = r"[a-z][\w-]{0,30}@[0-9a-f]{1,16}(?::[a-z][\w-]{0,30}@[0-9a-f]{1,16}){0,3}"
# A node right below the root with no "reg" at all is named by its base name alone, which then
# has no unit address either: TI's ICSSG Ethernet node `/icssg0-eth` (arch/arm64/boot/dts/ti/
# k3-am654-idk.dtso) makes the platform device "icssg0-eth" ("icssg-prueth icssg0-eth: ...").
# A word with a hyphen, so a message's own words ("driver some words: ...") are not taken; a
# line is read by it only after its driver was found in the kernel's driver tables.
OF_NODE = r"[a-z][a-z0-9]*(?:-[a-z0-9]+)+"
ADDRESSED_BUS_ID = (
    r"(?:[0-9a-f]{4,8}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]|\d+-[\d.]+:\d+\.\d+|"
    r"[0-9a-f]{5,16}\.[a-z][\w-]*(?::[\w@.-]+)?|mmc\d+:[0-9a-f]{4}:\d+|"
    rf"{OF_NAMED})"
)
# A PHY or DSA switch on an MDIO bus (mdio_bus.c PHY_ID_FMT "%s:%02x"): "mdio-bus:1f"
MDIO_DEVICE = r"[a-z][\w.-]{0,40}:[0-9a-f]{2}(?=[\s:])"
BUS_ID = f"(?:{ADDRESSED_BUS_ID}|{PRE_DT_PLATFORM}|{MDIO_DEVICE})"
# A device the kernel registers below a NIC's own, as dev_printk names it: "mhi mhi0", "ieee80211
# phy0" (resources/kernel_source/child_devices.json says where each name is made).
CHILD_DEVICE = _child_pattern()
# Kernels before 3.x printed a netdev's lines as "driver device: iface: msg" (dev_printk and
# the netdev's name): "smsc95xx 1-1.1:1.0: eth0: Failed to read register index 0x00000114".
# Only names that look like interfaces, so a function name there ("rk_gmac_setup: ") is not one.
OLD_NETDEV = r"(?:eth|wlan|usb|lan|wan|en[a-z]|wl[a-z])[\w.-]{0,12}"
# An interface the kernel or a tool named (net/core/dev.c dev_valid_name(): below IFNAMSIZ, no
# "/", ":" or space), led by a letter or "_" (IncusOS's "_p2cf05d501bfb"): not a word like "12"
IFACE = r"[a-z_][\w.-]{1,14}"
# A netdev message before the interface is registered (__netdev_printk() with
# include/linux/netdevice.h netdev_name() "(unnamed net_device)", netdev_reg_state()
# " (uninitialized)").
_STATES = r"(?: \((?:uninitialized|unregistering|unregistered)\))?"
UNREGISTERED = rf"(?: \(unnamed net_device\))?{_STATES}"
UNNAMED = rf"(?P<unnamed> \(unnamed net_device\))?{_STATES}"  # only a net_device says so
