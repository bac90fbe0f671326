"""What Find my Pi reports, and how a MAC address tells a Raspberry Pi."""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

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
            "ssh_port": self.ssh_port,
            "ssh_banner": self.ssh_banner,
            "sources": list(self.sources),
        }
