"""The kernel's own IP autoconfiguration at boot (net/ipv4/ipconfig.c), as a sighting: the
interface an NFS root came over (Issue 24, eighth unseen set)."""

from __future__ import annotations

from sbctune.inventory.parsers.dmesg import DmesgEvent
from sbctune.inventory.sightings import Sighting, iface_key


def ip_config_sighting(event: DmesgEvent, answered: DmesgEvent | None) -> Sighting | None:
    """The kernel's own IP configuration at boot (net/ipv4/ipconfig.c ip_auto_config(),
    "     device=%s, hwaddr=%*phC, ...", 2.6.x's "     device=%s, addr=%pI4, ..."): the
    interface an NFS root came over, with its MAC (6.1/6.12);
    after a DHCP/BOOTP/RARP answer its link was up (the reply came over it)."""
    key_if = iface_key(event.iface)
    if key_if is None:
        return None
    # 2.6.x's line ("device=eth0, addr=192.168.1.245, ...") has no MAC to key it by
    mac = event.fields.get("mac", "").lower()
    sighting = Sighting([key_if, ("mac", mac)] if mac else [key_if])
    sighting.add("seen", True, "dmesg", event.text, event.line)
    if answered is not None:
        sighting.add("link", True, "dmesg", f"{answered.text} / {event.text}", event.line)
    return sighting


class IpConfigWatch:
    """The IP-Config lines of a log in order: a DHCP answer, then the interface it came on."""

    def __init__(self) -> None:
        self.answered: DmesgEvent | None = None  # "IP-Config: Got DHCP answer from ..."

    def see(self, event: DmesgEvent) -> Sighting | None:
        if event.fields.get("answer"):
            self.answered = event
            return None
        return ip_config_sighting(event, self.answered)
