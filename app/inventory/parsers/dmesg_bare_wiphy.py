"""A wiphy line without its "ieee80211 " prefix: older kernels printed a Wi-Fi PHY's messages
with the wiphy's name alone ("phy0: Atheros AR9285 Rev:2 mem=0xf8320000, irq=17": mac80211 and
ath9k of 2.6.3x wrote printk(KERN_INFO "%s: ...", wiphy_name(hw->wiphy)) before cfg80211's
device got its class name in front). "phy0" alone says nothing, so such a line is a wiphy
line only where the message is one of the formats the kernel's source prints on a wiphy
(resources/kernel_source/wiphy_chips.json: wiphy_info()/wiphy_notice() and their wrappers);
any other "phyN: ..." (mac80211's "Selected rate control algorithm", an Ethernet PHY's
name) stays unread, as before."""

from __future__ import annotations

from sbctune.catalog.wiphy_chips import is_wiphy_format

from .lazy_pattern import later

_BARE_RE = later(r"^(phy\d{1,3}): (\S.{0,300})$")


def bare_wiphy(msg: str) -> tuple[str, dict[str, str]] | None:
    """("wiphy", fields) as the "ieee80211 phyN: " shape gives them, or None."""
    if not msg.startswith("phy"):  # per distinct message of a long log: the cheap test first
        return None
    m = _BARE_RE.match(msg)
    if m is None or not is_wiphy_format(m.group(2)):
        return None
    return "wiphy", {"device": m.group(1), "message": m.group(2)}
