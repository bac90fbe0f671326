"""The kernel log lines the inventory reads: one (kind, pattern) per line shape, first match
wins, and the literal needles that must appear for a pattern to be tried (a cheap test first:
a long log has few NIC lines). Patterns are constants; no text from a Pi is made a regex.
A new shape stays cheap by the rules in the docstring of parsers/dmesg.py.

The shapes live by concern (dmesg_names: the names of devices and interfaces; _link: a NIC's
own lines; _bus: PCI, PCIe, USB and MMC; _board; _trace; _words: drivers' own link words);
this module keeps a driver's lines about its device (firmware, Wi-Fi chip, the catch-all)
and _PATTERNS, the one list that says in which order they are tried."""

from __future__ import annotations

from sbctune.inventory.parsers import dmesg_patterns_words as _words
from sbctune.inventory.parsers.dmesg_names import (
    ADDRESSED_BUS_ID,
    BUS_ID,
    CHILD_DEVICE,
    IFACE,
    MDIO_DEVICE,
    OF_NAMED,
    OF_NODE,
    OLD_NETDEV,
    PRE_DT_PLATFORM,
    UNNAMED,
    UNREGISTERED,
)
from sbctune.inventory.parsers.dmesg_patterns_board import (
    BOARD,
    BOARD_NEEDLES,
    HARDWARE_NAME,
    POWER,
)
from sbctune.inventory.parsers.dmesg_patterns_bus import (
    BUS_NEEDLES,
    MMC_CARDS,
    PCI_LINES,
    PCIE_NEEDLES,
    PCIE_PATTERNS,
    USB_ENUMERATION,
    USB_TROUBLE,
    USB_UNSUPPORTED,
)
from sbctune.inventory.parsers.dmesg_patterns_link import (
    DRIVER_LINES,
    GENERIC_LINK,
    LINK_NEEDLES,
    NETDEV_LATE,
    NETDEV_NAMES,
    PHY_ATTACHED,
)
from sbctune.inventory.parsers.dmesg_patterns_trace import TRACE_NEEDLES, TRACE_PATTERNS
from sbctune.inventory.parsers.lazy_pattern import Lazy as _Lazy

# the names' shapes are dmesg_names'; the parsers import them from here too
__all__ = [
    "ADDRESSED_BUS_ID",
    "BUS_ID",
    "CHILD_DEVICE",
    "IFACE",
    "MDIO_DEVICE",
    "OF_NAMED",
    "OF_NODE",
    "OLD_NETDEV",
    "PRE_DT_PLATFORM",
    "UNREGISTERED",
]

FIRMWARE_MISSING: list[tuple[str, _Lazy]] = [
    (
        "firmware_missing",  # drivers/base/firmware_loader/main.c: both of its lines
        _Lazy(
            r"^(?:(?P<driver>[\w-]+) (?P<device>\S+): )?(?:Direct firmware load for "
            r"(?P<firmware>\S+) failed with error(?: (?P<errno>-?\d+))?|firmware: failed to load "
            r"(?P<firmware2>\S+) \((?P<errno2>-?\d+)\))"
        ),
    ),
]
DEVICE_LINES: list[tuple[str, _Lazy]] = [
    (
        # brcmfmac's lines that name its chip: brcmf_fw_alloc_request's "using brcm/... for chip
        # BCM43430/1" (firmware.c), brcmf_c_preinit_dcmds' "Firmware: BCM43430/1 wl0: ..."
        # (common.c) and, with brcmfmac.debug, brcmf_chip_recognition's "found %s chip: %s"
        # (chip.c: "AXI" or "SB", then brcmf_chip_name()'s "BCM%d/%u")
        "wifi_chip",
        _Lazy(
            rf"^(?P<driver>brcmfmac)(?: (?P<device>{BUS_ID}))?: .*?"
            r"(?:for chip |Firmware: |found (?:AXI|SB) chip: )"
            # 4.x brcmf_sdio_probe(): "Loading firmware ... for chip 0000a9a6 rev 00000001";
            # 4.18-5.0 firmware.c brcmf_fw_map_chip_to_name(): brcmf_info("using %s for chip
            # %#08x(%d) rev %#08x\n", ..., chip, chip, chiprev): "for chip 0x004345(17221) rev
            # 0x000006" (the same printf in Fuchsia's port of the function); 5.10 prints the name
            r"(?:(?P<chip>BCM\d{4,5}\w*)|0000(?P<chip_id>[0-9a-f]{4}) rev "
            r"|0x00(?P<chip_id2>[0-9a-f]{4})\(\d{4,5}\) rev )"
        ),
    ),
    (
        # cfg80211's wiphy device (net/wireless/core.c: dev_set_name(&rdev->wiphy.dev,
        # "phy%d")), printed by a Wi-Fi driver's wiphy_err(): "ieee80211 phy0: brcmf_fw_crashed:
        # Firmware has halted or crashed"; the format says which driver
        "wiphy",
        _Lazy(r"^ieee80211 (?P<device>phy\d+): (?P<message>\S.*)$"),
    ),
    (
        # any other line a driver wrote about its device: who drives what; and a driver's
        # lines about the whole USB device ("usb 1-1: ath9k_htc: Firmware - ... download
        # failed", dev_err(&udev->dev, ...)), named by its port path
        "device",
        _Lazy(
            rf"^(?:(?P<driver>[A-Za-z][\w-]*) (?P<device>{BUS_ID})|usb (?P<device2>\d+-[\d.]+)|"
            rf"(?=(?:{CHILD_DEVICE}):)(?P<driver3>[\w-]+) (?P<device3>\S+?)|"
            rf"net(?= {IFACE}: ))"  # a net_device's own class device (dev_printk): "net eth0:"
            rf"(?: (?P<iface>{IFACE})|: (?P<iface2>{OLD_NETDEV}))?{UNNAMED}: "
        ),
    ),
]

# First match wins: this order is the table's meaning (a NIC's fixed-format lines before the
# generic shapes that would misread them, the catch-all "device" last: classify relies on it).
_PATTERNS: list[tuple[str, _Lazy]] = [
    *TRACE_PATTERNS,
    *NETDEV_NAMES,
    *_words.OWN_WORDS_FIRST,
    *DRIVER_LINES,
    *PCI_LINES,
    *PCIE_PATTERNS,
    *USB_ENUMERATION,
    *POWER,
    *GENERIC_LINK,
    *_words.own_words(BUS_ID),
    *USB_UNSUPPORTED,
    *BOARD,
    *PHY_ATTACHED,
    *HARDWARE_NAME,
    *NETDEV_LATE,
    *USB_TROUBLE,
    *FIRMWARE_MISSING,
    *MMC_CARDS,
    *DEVICE_LINES,
]
_NEEDLES: dict[str, tuple[str, ...]] = {
    **TRACE_NEEDLES,
    **LINK_NEEDLES,
    **BUS_NEEDLES,
    **PCIE_NEEDLES,
    **BOARD_NEEDLES,
    "firmware_missing": ("Direct firmware", "firmware: failed to load"),
    "wifi_chip": ("brcmfmac",),
    "wiphy": ("ieee80211 phy",),
    "device": (": ",),
}
for _kind, _needles in _words.OWN_WORDS_NEEDLES.items():
    _NEEDLES[_kind] = _NEEDLES.get(_kind, ()) + _needles
