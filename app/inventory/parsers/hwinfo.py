"""``hwinfo`` (openSUSE's hwinfo: ``--netcard``, ``--network``, ``--usb``, ``--pci``, plain):
one block per device, opened by ``NN: BUS ADDR: CLASS NAME`` and followed by indented
``Key: value`` lines (hwinfo's hd.c/hwinfo.c dump_normal(): ``SysFS BusID``, ``Hardware
Class``, ``Model``, ``Vendor: usb 0x2001 "D-Link"``, ``Device: usb 0x3311 "..."``, ``Driver:
"r8188eu"``, ``Device File: wlan1``, ``Speed: 480 Mbps``, ``Link detected: yes``).

The blocks of network devices become the same records ``lshw -C network`` gives
(:class:`LshwNetwork`, ``source`` "hwinfo"), with the IDs and USB speed that lshw does not
print. A block is a network device when hwinfo's class says so (``network``, ``Ethernet``,
``WLAN``, ``Network controller``) or when its ``Device File`` is an interface name (a USB
Wi-Fi dongle that hwinfo files as "Unclassified device" but names ``wlan1``)."""

from __future__ import annotations

import re

from .common import Parsed, ParseWarning, finish, guarded, split_lines
from .lazy_pattern import later
from .lshw import LshwNetwork, LshwResult

_HEAD = later(
    r"^(?P<n>\d{1,4}): (?P<bus>[A-Za-z][\w ]{0,15}?) ?(?P<addr>[\da-f]{2,4}\.[\da-f]{1,2})?: "
    r"(?P<cls>[\da-f]{4})? ?(?P<what>.*)$"
)
_FIELD = later(r"^\s{2,}(?P<key>[A-Z][\w #/()-]{0,40}?):\s*(?P<value>.*)$")
_ID = later(r"^(?:usb|pci|pnp|sdio|platform)?\s*0x(?P<id>[\da-f]{1,4})\b", re.IGNORECASE)
_IFNAME = later(r"^[A-Za-z][\w.:@-]{0,14}$")
_NET_WORDS = ("network", "ethernet", "wlan", "wireless", "802.11")
MAX_BLOCKS = 512


def parse_hwinfo(text: str) -> Parsed[LshwResult]:
    return guarded("hwinfo", _parse, text, LshwResult)


def _unquote(value: str) -> str:
    value = value.strip()
    return value[1:-1] if len(value) >= 2 and value[0] == value[-1] == '"' else value


def _block_to_node(head: re.Match[str], fields: dict[str, str]) -> LshwNetwork | None:
    what = f"{head.group('what')} {fields.get('Hardware Class', '')} {fields.get('Model', '')}"
    device_file = _unquote(fields.get("Device File", ""))
    is_ifname = bool(_IFNAME.match(device_file)) and not device_file.startswith(("sd", "sr"))
    if not is_ifname and not any(w in what.lower() for w in _NET_WORDS):
        return None
    node = LshwNetwork(node="network", source="hwinfo")
    busid = fields.get("SysFS BusID", "").strip()
    if re.fullmatch(r"[\da-f]{4}:[\da-f]{2}:[\da-f]{2}\.[0-7]", busid):
        node.bus_info = f"pci@{busid}"
    elif m := re.fullmatch(r"(\d+)-([\d.]+)(?::\d+\.\d+)?", busid):
        node.bus_info = f"usb@{m.group(1)}:{m.group(2)}"
    node.logical_name = device_file if is_ifname else None
    model = _unquote(fields.get("Model", ""))
    node.product = model or None
    lowered = what.lower()
    if "wlan" in lowered or "wireless" in lowered or "802.11" in lowered:
        node.description = "Wireless interface"
    vendor = _ID.match(fields.get("Vendor", "").strip())
    device = _ID.match(fields.get("Device", "").strip())
    if vendor and device:
        node.ids = f"{int(vendor.group('id'), 16):04x}:{int(device.group('id'), 16):04x}"
    driver = _unquote(fields.get("Driver", ""))
    if driver:
        node.config["driver"] = driver[:64]
    link = fields.get("Link detected", "").strip()
    if link in ("yes", "no"):
        node.config["link"] = link
    speed = re.match(r"^(\d+(?:\.\d+)?) Mbps$", fields.get("Speed", "").strip())
    if speed and node.bus_info and node.bus_info.startswith("usb@"):
        node.usb_speed_mbps = float(speed.group(1))
    mac = fields.get("HW Address", "").strip().lower()
    node.serial = mac or None
    return node


def _parse(text: str) -> Parsed[LshwResult]:
    res = LshwResult()
    warnings: list[ParseWarning] = []
    blocks = 0
    head: re.Match[str] | None = None
    fields: dict[str, str] = {}

    def close() -> None:
        if head is not None and len(res.networks) < MAX_BLOCKS:
            node = _block_to_node(head, fields)
            if node is not None:
                res.networks.append(node)

    for line in split_lines(text):
        if (m := _HEAD.match(line)) and not line[:1].isspace():
            close()
            head, fields, blocks = m, {}, blocks + 1
        elif head is not None and (f := _FIELD.match(line)):
            fields.setdefault(f.group("key").strip(), f.group("value")[:300])
    close()
    return res, finish("hwinfo", text, blocks, 0, warnings)
