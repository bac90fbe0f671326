"""``nixos-facter`` (NixOS's hardware report, numtide/nixos-facter): hwinfo's device records
as JSON (``hardware.<kind>`` lists of ``{"index", "class_list", "bus_type": {"name"},
"base_class": {"hex"}, "vendor": {"hex", "name"}, "device": {...}, "sysfs_bus_id", "driver",
"module_alias", "unix_device_names"}``), read into :class:`LshwNetwork` records (``source``
"hwinfo": the records are hwinfo's, as ``hwinfo --netcard`` prints them in text).

Pasted reports are excerpts (a record or two of a long document), so the JSON is read line by
line as nixos-facter pretty-prints it, one member a line. A record is a network device by
hwinfo's own class list (``network_controller``, ``network_interface``) or a PCI class 0x02
(its ``base_class``, or the ``bc02`` of its ``module_alias``)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .common import Parsed, finish, guarded, split_lines
from .lazy_pattern import later
from .lshw import MAX_NODES, LshwNetwork, LshwResult

_MEMBER = later(r'^\s*"(?P<key>[a-z_]{1,30})"\s*:\s*(?P<value>.*?)\s*,?\s*$')
_STRING = later(r'^"(?P<s>[^"\\]{0,300})"$')
_ALIAS = later(r"^(?P<bus>pci|usb|sdio):v(?P<v>[\dA-F]{4,8})[dp](?P<d>[\dA-F]{4,8})", re.I)
_NET_CLASSES = frozenset({"network_controller", "network_interface", "wlan_card"})
_BUSES = {"PCI": "pci", "USB": "usb", "SDIO": "sdio"}


@dataclass
class _Record:
    members: dict[str, str] = field(default_factory=dict)
    inner: dict[str, dict[str, str]] = field(default_factory=dict)  # bus_type, vendor ...
    classes: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)  # unix_device_names

    def hex_of(self, key: str) -> str:
        return self.inner.get(key, {}).get("hex", "").lower()

    def alias(self) -> re.Match[str] | None:
        return _ALIAS.match(self.members.get("module_alias", ""))

    def is_network(self) -> bool:
        alias = self.members.get("module_alias", "")
        return (
            bool(_NET_CLASSES & set(self.classes))
            or self.hex_of("base_class") == "0002"
            or bool(re.search(r"bc02sc", alias))
        )

    def record(self) -> LshwNetwork:
        alias = self.alias()
        bus = _BUSES.get(self.inner.get("bus_type", {}).get("name", "")) or (
            alias.group("bus").lower() if alias is not None else None
        )
        net = LshwNetwork(node="network", source="hwinfo", bus=bus)
        net.product = self.members.get("model") or None
        net.vendor = self.inner.get("vendor", {}).get("name") or None
        address = self.members.get("sysfs_bus_id", "")
        if bus == "pci" and re.fullmatch(r"[\da-f]{4}:[\da-f]{2}:[\da-f]{2}\.[0-7]", address):
            net.bus_info = f"pci@{address}"
        vendor, device = self.hex_of("vendor"), self.hex_of("device")
        if alias is not None:
            vendor = vendor or alias.group("v")[-4:].lower()
            device = device or alias.group("d")[-4:].lower()
        if bus in ("pci", "usb") and len(vendor) == 4 and len(device) == 4:
            net.ids = f"{vendor}:{device}"
        if driver := self.members.get("driver"):
            net.config["driver"] = driver
        if self.names:
            net.logical_name = self.names[0]
        if "wlan_card" in self.classes:
            net.description = "Wireless interface"
        # the report's own record: what keys a card whose excerpt shows no address (lshw_sightings)
        index = self.members.get("index", "")
        net.node = f"record:{index}" if index.isascii() and index.isdigit() else "network"
        return net


def parse_nixos_facter(text: str) -> Parsed[LshwResult]:
    return guarded("nixos-facter", _parse, text, LshwResult)


def _parse(text: str) -> Parsed[LshwResult]:
    res = LshwResult()
    stack: list[tuple[str, _Record | None]] = []  # open objects: (member name, record)
    cut = _Record()  # members before any object opens: an excerpt from inside a record
    listing = ""  # the list being read ("class_list", "unix_device_names")
    seen = 0

    def current() -> _Record:
        for _name, rec in reversed(stack):
            if rec is not None:
                return rec
        return cut

    def close(rec: _Record | None) -> None:
        if rec is not None and rec.is_network() and len(res.networks) < MAX_NODES:
            res.networks.append(rec.record())

    for line in split_lines(text):
        stripped = line.strip()
        if listing and stripped.startswith('"'):
            value = stripped.rstrip(",").strip('"')[:100]
            (current().classes if listing == "class_list" else current().names).append(value)
            continue
        if stripped.startswith("]"):
            listing = ""
            continue
        if stripped in ("{", "{,"):
            stack.append(("", _Record()))
            continue
        if stripped.startswith("}"):
            if stack:
                close(stack.pop()[1])
            elif cut.members or cut.classes:
                close(cut)  # the record the excerpt began inside ends here
                cut = _Record()
            continue
        if not (m := _MEMBER.match(line)):
            continue
        seen += 1
        key, raw = m.group("key"), m.group("value")
        if raw.startswith("{"):
            stack.append((key, None))
            continue
        if raw.startswith("["):
            listing = key if key in ("class_list", "unix_device_names") else ""
            continue
        value = s.group("s") if (s := _STRING.match(raw)) else raw
        inner = next((name for name, open_rec in reversed(stack) if open_rec is None), "")
        owner = current()
        if inner and stack and stack[-1][1] is None:
            owner.inner.setdefault(inner, {})[key] = value[:200]
        else:
            owner.members.setdefault(key, value[:300])
    for _name, left in reversed(stack):  # the excerpt ends inside these records
        close(left)
    return res, finish("nixos-facter", text, len(res.networks), 0 if seen else 1)
