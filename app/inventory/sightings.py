"""What a source says about devices: one ``Sighting`` per device mention, keyed by what
identifies the device there (PCI address, USB port path, bus/device number, interface name,
MAC), with facts that remember the line that said them; and how those keys are spelled. The
listings' readers are ``sbctune.inventory.listing_sightings``, the kernel log's
``sbctune.inventory.log_sightings``.

``sbctune.inventory.graph`` joins sightings that share a key; nothing here decides between
sources.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any

from sbctune.inventory.parsers.dmesg_patterns import OF_NAMED, OF_NODE, PRE_DT_PLATFORM

Key = tuple[str, str]
_new = object.__new__

_VIRTUAL = re.compile(
    r"^(lo|docker-?[0-9a-f]*|veth.*|br-.*|br\d*|virbr.*|tun\d*|tunl\d*|tap.*|wg\d*|dummy\d*|ifb\d*|"
    r"bond\d*|team\d*|vxlan.*|sit\d*|ip6tnl\d*|tailscale\d*|zt.*|ppp.*|pppoe.*|can\d*|"
    r"gre\d*|gretap\d*|erspan\d*|ip_vti\d*|ip6_vti\d*|ip6gre\d*|teql\d*|lan\d*@.*|"
    r"wan@.*|p2p.*|mon\.\w+|ovs[_-].*|bat\d+|fw(?:br|ln)\d+[io]\d+|fwpr\d+p\d+|[a-z]+\d*\.\d+|"
    r"hassio)$"
)
# hassio: the Home Assistant Supervisor's Docker bridge, which Home Assistant OS and Supervised
# installs create: home-assistant/supervisor's supervisor/const.py DOCKER_NETWORK = "hassio",
# supervisor/docker/network.py creates that network with the bridge driver and
# "com.docker.network.bridge.name": DOCKER_NETWORK (an elided `ip link` line of it has nothing
# else to tell it from a NIC: corpus/home82_minipc_haos_4962_*)
# fwbr/fwln/fwpr: Proxmox VE's per-guest firewall bridge and its veth pair, named by pve-common's
# src/PVE/Network.pm $compute_fwbr_names: "fwbr${vmid}i${devid}", "fwln${vmid}i${devid}",
# "fwpr${vmid}p${devid}" and the OVS port "fwln${vmid}o${devid}" (its guests' taps and veths,
# "tap${vmid}i${devid}" and "veth${vmid}i${devid}", are tap.* and veth.* above)
# ovs: Open vSwitch (Synology ovs_eth0)
# bat\d+: batman-adv's mesh interface, "bat0" as the kernel's Documentation/networking/
# batman-adv.rst (6.1, 6.12: "ip link add name bat0 type batadv") and batctl name it; its lines
# declare it too (virtual_declared.py), but an ifconfig paste has only the name
# docker[0-9a-f]*: docker0 and the host ends of Synology Docker's veths, named "docker" and
# hex digits of the container ("docker9b5d5a5", corpus/ds916plus_bbqq_468_*); docker-<hex>: the
# bridges of Synology's user-defined Docker networks (Docker's own are br-<hex>), which net-tools
# ifconfig cuts to 9 columns ("docker-30", corpus/virt_ds920_bbqq_556_*)
# dev_valid_name() (net/core/dev.c, 6.1 and 6.12): below IFNAMSIZ, no "/", ":" or space, and no
# rule on the first character: IncusOS's "_p2cf05d501bfb", Qualcomm's nss-dp ports "10g-1" and
# "10g-2" ("nss-dp 3a001800.dp5 10g-1: PHY Link up speed: 10000"). A name of digits, dots and
# dashes alone is a number or a USB port path ("2-1.4"), never taken for one.
_IFACE = re.compile(r"^(?:[A-Za-z_]|\d(?=[\w.-]*[A-Za-z_]))[\w.-]{0,14}$")
_PCI = re.compile(r"^(?:([0-9a-f]{4,8}):)?([0-9a-f]{2}):([0-9a-f]{2})\.([0-7])$")
_USB_IF = re.compile(r"^(\d+-[\d.]+)(?::\d+\.\d+)?$")
_PLATFORM = re.compile(r"^[0-9a-f]{5,16}\.[a-z][\w-]*")
_PRE_DT_PLATFORM = re.compile(rf"^{PRE_DT_PLATFORM}$")
_OF_NAMED = re.compile(rf"^(?:{OF_NAMED}|{OF_NODE})$")
_USB_SPEEDS = {
    "low": 1.5,
    "full": 12,
    "high": 480,
    "super": 5000,
    "superspeed": 5000,
    "superspeedplus": 10000,
    "superspeed plus": 10000,
    "wireless": 480,
    "enhanced superspeed": 5000,
}


@dataclass(frozen=True)
class Fact:
    field: str
    value: Any
    source: str  # the source's name in graph.PRECEDENCE
    line: str  # the output line that says it: the finding's evidence
    order: int = 0  # position in its source (a later kernel log line is newer)

    def at(self, order: int, value: Any) -> Fact:
        """The same fact said again at another position (a repeated log line), made without
        the frozen dataclass's checked __init__ (a long log makes tens of thousands)."""
        fact = _new(Fact)
        said = fact.__dict__  # filled in place: a copy of this fact's, two fields changed
        said.update(self.__dict__)
        said["order"], said["value"] = order, value
        return fact


@dataclass
class Sighting:
    keys: list[Key]
    facts: list[Fact] = field(default_factory=list)

    def add(self, name: str, value: Any, source: str, line: str, order: int = 0) -> None:
        if value is not None and value != "" and value != []:
            # Fact(name, value, source, line[:300], order) made in place, as Fact.at does: the
            # frozen dataclass's __init__ sets each field through object.__setattr__ (~2.5x
            # the cost; every source's facts come through here, a long log's ~10^4)
            fact = _new(Fact)
            fact.__dict__.update(
                field=name, value=value, source=source, line=line[:300], order=order
            )
            self.facts.append(fact)


_FIELD = attrgetter("field")


def says_any(sighting: Sighting, fields: frozenset[str]) -> bool:
    """Whether one of the sighting's facts is one of ``fields``, read in C: a counted line's
    sighting holds a fact per repeat (~10^4 in a long log), so a join that wants a few fields
    skips the sightings without them instead of stepping through every fact in Python."""
    return not fields.isdisjoint(map(_FIELD, sighting.facts))


def is_virtual(name: str) -> bool:
    return bool(_VIRTUAL.match(name)) or "@" in name


# A kernel log names the same few hundred devices and interfaces in 10^4-10^5 lines: each name's
# key is made once (a pure function of the name; the key is a tuple of strings, shared safely).
_NAMES_KEPT = 4096


@functools.lru_cache(maxsize=_NAMES_KEPT)
def iface_key(name: str | None) -> Key | None:
    if not name or not _IFACE.match(name) or is_virtual(name):
        return None
    return ("if", name)


def pci_address(text: str | None) -> str | None:
    """``01:00.0`` / ``0000:01:00.0`` → ``0000:01:00.0``."""
    match = _PCI.match((text or "").strip().lower())
    if match is None:
        return None
    domain, bus, dev, fn = match.groups()
    return f"{(domain or '0000').zfill(4)}:{bus}:{dev}.{fn}"


@functools.lru_cache(maxsize=_NAMES_KEPT)
def device_keys(device: str | None) -> tuple[str, Key] | None:
    """(bus, key) for a kernel device name: PCI address, USB interface, platform, SDIO."""
    text = (device or "").strip()
    if address := pci_address(text):
        return "pci", ("pci", address)
    if match := _USB_IF.match(text):
        return "usb", ("usb", match.group(1))
    if text.startswith("mmc"):
        return "sdio", ("sdio", text.split(":")[0])
    if _OF_NAMED.match(text):  # "soc@ffe00000:ethernet@b0000", "icssg0-eth": a node's name
        return "platform", ("platform", text)
    if _PLATFORM.match(text):
        return "platform", ("platform", text.split(".")[0])  # libphy may cut the name short
    if _PRE_DT_PLATFORM.match(text):
        return "platform", ("platform", text.removesuffix(".auto"))  # "wemac.0": a board file's
    return None


def mac_from_name(name: str) -> str | None:
    """``enxb827eb04f89e`` names the MAC (systemd's MAC-based naming)."""
    match = re.fullmatch(r"enx([0-9a-f]{12})", name)
    if match is None:
        return None
    hexes = match.group(1)
    return ":".join(hexes[i : i + 2] for i in range(0, 12, 2))


# hub.c hub_port_init()'s SuperSpeed words carry the signalling rate: 4.19-5.x print
# "SuperSpeed Gen 1" / "SuperSpeedPlus Gen 2" (+"x2" for two lanes), 6.x "SuperSpeed Plus Gen 2x1"
_USB_GEN = re.compile(r"superspeed ?(plus)? gen ([12])(?:x([12]))?")


def usb_speed(text: str | None) -> float | None:
    value = (text or "").strip().lower().replace("-", " ").removesuffix(" speed")
    if (gen := _USB_GEN.fullmatch(value)) is not None:  # 5 Gbit/s per Gen 1 lane, 10 per Gen 2
        return 5000.0 * int(gen.group(2)) * int(gen.group(3) or 1)
    return _USB_SPEEDS.get(value) or _USB_SPEEDS.get(value.replace(" ", ""))
