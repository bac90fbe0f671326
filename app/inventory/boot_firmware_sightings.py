"""The boot firmware's network lines (parsers/boot_firmware_lines.py) as sightings: what U-Boot
or the Pi's EEPROM bootloader said of the board's Ethernet before Linux ran (issue 24,
forty-eighth unseen set). Read in order, as the lines depend on the ones before them: U-Boot's
"Speed: 100, full duplex" is the device that started last, the Pi bootloader's "LINK STATUS"
is the MAC that waited for its link, and its "GENET" lines name that MAC's controller.

U-Boot's PHY and link lines become the kernel's kinds of lines on the same device (a PHY not
found, a link up or down), so the findings read them as they read the kernel's; U-Boot's own
numbering of its devices (its "eth0") is not Linux's and names no interface."""

from __future__ import annotations

from sbctune.inventory.device_line_facts import link_facts
from sbctune.inventory.parsers.boot_firmware_lines import KINDS
from sbctune.inventory.parsers.dmesg import DmesgEvent
from sbctune.inventory.sightings import Sighting, device_keys

__all__ = ["KINDS", "BootFirmwareWatch"]

_SRC = "dmesg"
# U-Boot prints "Speed: ..." right after the device's start and its PHY's auto-negotiation
# (eth_init() -> the driver's start -> phy_startup() -> *_adjust_link()): a few lines at most
_SPEED_AFTER = 4


class BootFirmwareWatch:
    """The boot firmware's lines of a log in order."""

    def __init__(self) -> None:
        self.device: str | None = None  # U-Boot's device that started last (Linux's name)
        self.device_line = 0  # ... and the line that said so
        self.mac: str | None = None  # the Pi bootloader's MAC that waits for its link
        self.genet: DmesgEvent | None = None  # a "GENET: ..." line of the Pi 4's bootloader

    def see(self, event: DmesgEvent) -> Sighting | None:
        kind, f = event.kind, event.fields
        if kind == "uboot_net":
            return self._uboot(event)
        if kind == "uboot_speed":
            if self.device is None or event.line - self.device_line > _SPEED_AFTER:
                return None  # no device started just before: the line names none
            up = DmesgEvent("link_up", event.line, event.timestamp, event.text, f)
            return self._link(self.device, up, True)
        if kind == "netboot_genet":
            self.genet = event
            return self._pi(event) if self.mac else None
        if kind == "netboot_mac":
            self.mac = f["mac"].lower()
            return self._pi(event)
        if kind == "netboot_link" and self.mac:
            sighting = self._pi(event)
            link_facts(
                DmesgEvent("link_up", event.line, event.timestamp, event.text, f), sighting, True
            )
            return sighting
        return None

    def _uboot(self, event: DmesgEvent) -> Sighting | None:
        device, says = event.fields["device"], event.fields["says"]
        sighting = self._platform(device, event)
        if sighting is None:
            return None
        if says in ("autoneg", "used"):
            self.device, self.device_line = device, event.line
        if says == "no_phy":
            # the kernel's "phy_failure" facts: the MAC could not open (no link)
            sighting.add("phy_failure", event.text, _SRC, event.text, event.line)
            sighting.add("link", False, _SRC, event.text, event.line)
        elif event.fields.get("result") == "timeout":
            down = DmesgEvent("link_down", event.line, event.timestamp, event.text, {})
            link_facts(down, sighting, False)
        return sighting

    def _platform(self, device: str, event: DmesgEvent) -> Sighting | None:
        found = device_keys(device)
        if found is None:
            return None
        sighting = Sighting([found[1]])
        sighting.add("bus", "platform", _SRC, event.text, event.line)
        sighting.add("platform_name", device, _SRC, event.text, event.line)
        sighting.add("seen", True, _SRC, event.text, event.line)
        return sighting

    def _link(self, device: str, event: DmesgEvent, up: bool) -> Sighting | None:
        sighting = self._platform(device, event)
        if sighting is not None:
            link_facts(event, sighting, up)
        return sighting

    def _pi(self, event: DmesgEvent) -> Sighting:
        sighting = Sighting([("mac", self.mac or "")])
        sighting.add("seen", True, _SRC, event.text, event.line)
        # the bootloader's network boot runs over the board's own Ethernet: a network device
        sighting.add("net_device", True, _SRC, event.text, event.line)
        if self.genet is not None:
            # the Pi 4's on-board MAC (BCM2711's GENET v5), which its bootloader names
            why = f"{self.genet.text} (the Pi bootloader names its Ethernet controller)"
            sighting.add("chip_text", "GENET", _SRC, why, self.genet.line)
            sighting.add("bus", "platform", _SRC, why, self.genet.line)
        return sighting
