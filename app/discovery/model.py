"""What Find my Pi reports, and how a MAC address tells a Raspberry Pi."""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from sbctune.wording import counted

# Sources, in the order a user reads them.
MDNS_WORKSTATION = "mDNS workstation"
MDNS_SSH = "mDNS ssh"
KNOWN_NAME = "name"
SCAN = "port 22"

_HEX_OCTETS = re.compile(r"^[0-9a-fA-F]{1,2}([:-][0-9a-fA-F]{1,2}){5}$")


def normalise_mac(text: str) -> str | None:
    """'dc:a6:32:1:2:3', 'DC-A6-32-01-02-03' -> 'dc:a6:32:01:02:03'; None if not a MAC."""
    text = text.strip()
    if not _HEX_OCTETS.match(text):
        return None
    return ":".join(part.zfill(2) for part in re.split(r"[:-]", text.lower()))


@functools.lru_cache(maxsize=1)
def raspberry_pi_blocks() -> dict[str, str]:
    """OUI (6 hex digits, upper case) -> owner, from resources/discovery."""
    path = resources.files("sbctune.resources") / "discovery" / "raspberry_pi_ouis.json"
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    blocks = {str(k).upper(): str(v) for k, v in data.get("blocks", {}).items()}
    blocks.update({str(k).upper(): "Raspberry Pi Trading Ltd" for k in data.get("later", {})})
    return blocks


def is_raspberry_pi_mac(mac: str | None) -> bool:
    norm = normalise_mac(mac or "")
    return norm is not None and norm.replace(":", "")[:6].upper() in raspberry_pi_blocks()


# Raspberry Pi OS's default host name; Avahi renames a second one on the network "raspberrypi-2".
PI_OS_DEFAULT_NAME = "raspberrypi"
_DEFAULT_NAME = re.compile(rf"^{PI_OS_DEFAULT_NAME}(-[0-9]{{1,4}})?(\.local)?\.?$")


def has_pi_default_name(hostname: str | None) -> bool:
    return bool(hostname) and _DEFAULT_NAME.match((hostname or "").lower()) is not None


@dataclass
class FoundHost:
    """One host that answered, with every way it was found."""

    address: str
    hostname: str | None = None
    mac: str | None = None
    ssh_port: int | None = None
    ssh_banner: str | None = None
    sources: list[str] = field(default_factory=list)

    @property
    def is_raspberry_pi(self) -> bool:
        return is_raspberry_pi_mac(self.mac)

    @property
    def pi_by(self) -> str | None:
        """Why it is taken for a Raspberry Pi: "mac" (its network card's maker), "name"
        (Raspberry Pi OS's default host name; no MAC reaches this PC over mDNS), or None."""
        if self.is_raspberry_pi:
            return "mac"
        return "name" if has_pi_default_name(self.hostname) else None

    @property
    def kind_words(self) -> str:
        """What the Find list says of it, the same rule the count follows (found_summary)."""
        if self.pi_by == "mac":
            return "Raspberry Pi"
        if self.pi_by == "name":
            return "Raspberry Pi (by its name)"
        return "SSH" if self.ssh_port else ""

    def merge(self, other: FoundHost) -> None:
        self.hostname = self.hostname or other.hostname
        self.mac = self.mac or other.mac
        self.ssh_port = self.ssh_port or other.ssh_port
        self.ssh_banner = self.ssh_banner or other.ssh_banner
        for source in other.sources:
            if source not in self.sources:
                self.sources.append(source)

    def to_json(self) -> dict[str, Any]:
        return {
            "address": self.address,
            "hostname": self.hostname,
            "mac": self.mac,
            "raspberry_pi": self.is_raspberry_pi,
            "raspberry_pi_by": self.pi_by,
            "ssh_port": self.ssh_port,
            "ssh_banner": self.ssh_banner,
            "sources": list(self.sources),
        }


def found_summary(hosts: list[FoundHost]) -> str:
    """The count above the Find list, by the rule the list's lines follow, and why (the s13
    walk: "5 found (0 Raspberry Pis)" beside five `raspberrypi.local`, counted by MAC only)."""
    by_mac = sum(1 for h in hosts if h.pi_by == "mac")
    by_name = sum(1 for h in hosts if h.pi_by == "name")
    if not by_mac and not by_name:
        return (
            f"{len(hosts)} found, none known as a Raspberry Pi (neither a Raspberry Pi network "
            f"card's address nor Raspberry Pi OS's default name, {PI_OS_DEFAULT_NAME})"
        )
    why = []
    if by_mac:
        why.append(f"{by_mac} by its network card's maker (MAC address)")
    if by_name:
        why.append(f"{by_name} by Raspberry Pi OS's default name, {PI_OS_DEFAULT_NAME}")
    pis = counted(by_mac + by_name, "likely Raspberry Pi")
    return f"{len(hosts)} found, {pis}: {'; '.join(why)}"
