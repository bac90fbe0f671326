"""A USB 3 Wi-Fi chip held at USB 2.0 speed (issue 24): an RTL8812BU/8822CU starts in USB 2
mode and only its driver switches it to USB 3 (catalog.usb3_wifi, generated from rtw88's usb.c
rtw_usb_switch_mode()). Seen at 480M it is in a USB 2.0 port or hub, or its driver did not
switch it: the kernel's rtw88 does unless its switch_usb_mode parameter or the chip's efuse
says no; an out-of-tree driver keeps it in USB 2 mode unless its own option says otherwise.
A warning, not a certainty: rtw_usb_switch_mode_new() switches only when the chip's own
registers (REG_PAD_CTRL2) and efuse allow, which no output sbctune reads shows."""

from __future__ import annotations

from sbctune.advice.advisor import Advisor
from sbctune.advice.advisor import label as _label
from sbctune.catalog.usb3_wifi import Usb3WifiChip, usb3_wifi_chip
from sbctune.inventory.model import Nic

_USB2_MAX = 480  # Mbit/s: a high-speed enumeration; above it the device is SuperSpeed


def usb3_wifi_at_usb2(adv: Advisor, nic: Nic) -> bool:
    """The finding and its advice when the NIC is such a chip at USB 2.0 speed; True if made."""
    if nic.bus != "usb" or nic.builtin or nic.usb_speed_mbps is None:
        return False
    if nic.usb_speed_mbps > _USB2_MAX:
        return False
    chip = usb3_wifi_chip(nic.driver)
    if chip is None:
        return False
    if any(f.id == "usb3-adapter-at-usb2" and f.nic == _label(nic) for f in adv.inv.findings):
        return True
    evidence = [e.split(": ", 1)[-1] for e in nic.evidence if "480" in e or "high-speed" in e]
    name = nic.chip or f"RTL{chip.family.upper()}U"
    adv.finding(
        "usb3-adapter-at-usb2",
        "warning",  # the chip's efuse decides whether it can switch: not a certainty
        nic,
        f"The {name} runs at {nic.usb_speed_mbps} Mbit/s (USB 2.0), but it is a Wi-Fi chip "
        "that starts in USB 2 mode and can run at USB 3 (the kernel's "
        f"{chip.source} switches it when the chip's efuse allows): as a USB 3 adapter it is "
        "in a USB 2.0 port or behind a USB 2.0 hub, or its driver left it in USB 2 mode.",
        evidence[:2],
    )
    adv.recommend(
        "cable",
        nic,
        "Move the adapter to a USB 3 port",
        "Plug it straight into a USB 3 port (not through a USB 2.0 hub or extension). "
        + _switch_hint(nic, chip),
        "from at most ~480 Mbit/s (USB 2.0) to the adapter's full speed",
        ["rpi-doc-usb"],
        evidence=evidence[:2],
    )
    return True


def _switch_hint(nic: Nic, chip: Usb3WifiChip) -> str:
    """Who switches the chip to USB 3 mode: the kernel's rtw88, or not this driver."""
    if chip.in_tree:
        return (
            "rtw88 switches the chip to USB 3 mode when it probes it in a USB 3 port, unless "
            "rtw88_usb's switch_usb_mode=N or the chip's efuse forbids it."
        )
    return (
        f"{nic.driver} is an out-of-tree driver: unlike the kernel's rtw88 it may keep the chip "
        "in USB 2 mode even in a USB 3 port unless its own USB mode option is set."
    )
