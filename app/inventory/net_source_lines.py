"""A driver newer than the tables, told a network one by the words it prints (issue 24).

The driver tables come from the 6.1 and 6.12 sources; a driver that came later (rtw88's
rtw_8812au, 6.14) or is built out of tree under a name of its own is unknown to them. Its lines
about its device still carry the messages of the code it is built on: "rtw_8812au 1-2:1.0:
error beacon valid" and "failed to download drv rsvd page" are rtw88's own words (rtw88/fw.c,
resources/kernel_source/messages.tsv), printed by dev_err() on the device its USB part probed.
A device whose driver the tables do not know, and whose own lines hold such a message from
drivers/net/ (not a switch, MDIO bus, PHY, PCS or CAN controller), is driven by a network
driver: a NIC, and a wireless one when every such message is from drivers/net/wireless/.

Only the device's own driver lines are read (its name, then the device's, then the message),
each distinct text once and at most _MAX_LINES of them; a format whose literal words are
fewer than _MIN_LITERAL characters ("%s: %d") says nothing. Text from a Pi is never a regex.
"""

from __future__ import annotations

import re

from sbctune.catalog import link_layers
from sbctune.catalog.kernel_drivers import load_kernel_drivers
from sbctune.catalog.kernel_messages import load_messages
from sbctune.inventory.graph import Device

_NET = "drivers/net/"
_WIRELESS = "drivers/net/wireless/"
# no host interface of their own (nic_kind._NOT_NIC_DIRS), or another link layer than Ethernet
# and Wi-Fi (CAN, IEEE 802.15.4 ...: catalog.link_layers)
_NOT_NIC = ("drivers/net/dsa/", "drivers/net/mdio/", "drivers/net/phy/", "drivers/net/pcs/",
            *link_layers.DIRS)  # fmt: skip
_CONVERSION = re.compile(r"%[-+ #0-9.*]*(?:hh|h|ll|l|z|t|j)?[a-zA-Z]")
_MIN_LITERAL = 12
_MAX_LINES = 32


def net_source(device: Device) -> str | None:
    """ "wireless" or "wired" when the device's unknown driver prints a network driver's
    messages about it (module docstring); None when it does not, or its driver is known."""
    driver = device.value("driver")
    if not driver or load_kernel_drivers().get(driver) is not None:
        return None
    seen: set[str] = set()
    wireless = wired = shared = False
    for fact in device.all("driver"):
        if fact.source != "dmesg" or fact.value != driver:
            continue
        rest = _message_of(fact.line, str(driver))
        if not rest or rest in seen:
            continue
        seen.add(rest)
        if len(seen) > _MAX_LINES:
            break
        message = load_messages().match(rest)
        if message is None or not message.files:
            continue
        if len(_CONVERSION.sub("", message.format).strip()) < _MIN_LITERAL:
            continue
        files = message.files
        if not all(f.startswith(_NET) and not f.startswith(_NOT_NIC) for f in files):
            continue
        if all(f.startswith(_WIRELESS) for f in files):
            wireless = True
        elif any(f.startswith(_WIRELESS) for f in files):
            # "Message %08x (seq %d) timeout": mt76's MCU and the MediaTek WED's (its Wi-Fi
            # offload, drivers/net/ethernet/mediatek/mtk_wed_mcu.c) alike: a network driver's,
            # of either kind
            shared = True
        else:
            wired = True
    if wired or (shared and not wireless):
        return "wired"
    return "wireless" if wireless else None


def _message_of(line: str, driver: str) -> str:
    """The words after "<driver> <device>: " in a log line (whatever clock or wrapper came
    before them)."""
    at = line.find(f"{driver} ")
    if at < 0:
        return ""
    return line[at + len(driver) + 1 : at + 400].partition(": ")[2].strip()
