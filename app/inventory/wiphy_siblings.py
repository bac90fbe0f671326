"""A radio's second interface is no NIC of its own (issue 24, the fifty-first set).

One Wi-Fi radio is one wiphy, and it can carry several interfaces: the station mac80211 adds
when its driver registers the hardware (net/mac80211/main.c ieee80211_register_hw() ->
ieee80211_if_add()), and each one a program adds later (`iw dev wlan0 interface add uap0 type
__ap`: nl80211_new_interface(), RaspAP's and create_ap's access point beside the client).
cfg80211 numbers them as they come: cfg80211_register_wdev() sets ``wdev->identifier =
++rdev->wdev_id`` (net/wireless/core.c, 6.1 and 6.12 alike), and iw prints it as ``wdev 0x%llx``
with the radio's index (``wiphy %d``, or the ``phy#%d`` header of `iw dev`: iw's interface.c
print_iface_handler()).

So when iw shows two named interfaces of one wiphy, the one with the higher wdev number was
added to the radio the other one already stood for: it is that radio's second interface (an
AP beside the client, both with the radio's MAC), not a second adapter. build.py leaves out a
device that only such a name identifies (no bus key, driver or IDs of its own), as it does for
the names a log declares virtual. An output that prints no wdev numbers decides nothing.
"""

from __future__ import annotations

import re

_PHY = re.compile(r"^phy#(\d{1,4})$")
_IFACE = re.compile(r"^Interface\s+([A-Za-z0-9_][\w.-]{0,14})$")
_WDEV = re.compile(r"^wdev\s+0x([0-9a-fA-F]{1,16})$")
_WIPHY = re.compile(r"^wiphy\s+(\d{1,4})$")
_MAX_INTERFACES = 256


def second_interfaces(text: str) -> frozenset[str]:
    """The names iw (`iw dev`, `iw dev X info`, `iw X info`) shows as a later interface of a
    wiphy whose first interface is another named one."""
    if "wdev" not in text:
        return frozenset()
    blocks: list[dict[str, object]] = []
    phy: int | None = None
    for raw in text.splitlines():
        line = raw.strip()
        if m := _PHY.match(line):
            phy = int(m.group(1))
        elif m := _IFACE.match(line):
            if len(blocks) >= _MAX_INTERFACES:
                break
            blocks.append({"name": m.group(1), "wiphy": phy})
        elif blocks and (m := _WDEV.match(line)):
            blocks[-1]["wdev"] = int(m.group(1), 16)
        elif blocks and (m := _WIPHY.match(line)):
            blocks[-1]["wiphy"] = int(m.group(1))
    first: dict[int, tuple[int, str]] = {}
    for block in blocks:
        wiphy, wdev = block.get("wiphy"), block.get("wdev")
        if isinstance(wiphy, int) and isinstance(wdev, int):
            known = first.get(wiphy)
            if known is None or wdev < known[0]:
                first[wiphy] = (wdev, str(block["name"]))
    later: set[str] = set()
    for block in blocks:
        wiphy, wdev, name = block.get("wiphy"), block.get("wdev"), str(block["name"])
        if isinstance(wiphy, int) and isinstance(wdev, int):
            lowest, owner = first[wiphy]
            if wdev > lowest and name != owner:
                later.add(name)
    return frozenset(later)
