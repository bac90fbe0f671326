"""OpenWrt's ``ubus call network.device status`` (netifd's device.c device_dump_status() and
system-linux.c system_if_dump_info()): a JSON object of devices, each ``"NAME": { ... }`` with
``"type"`` (``"Network device"`` for a plain netdev in older netifd, ``"bridge"``, ``"VLAN"``
...), ``"devtype"`` (newer: ``"ethernet"``, ``"wlan"`` ...), ``"up"``, ``"carrier"``, and
with the ethtool link settings ``"speed": "1000F"`` (``"%d%c"``, H for half duplex, F for
full) and ``"link-advertising"`` lists, then ``"statistics"``.

Read line by line, by the nesting the paste shows, so that an excerpt cut in the middle (a
forum paste, a bug report's first screen) still gives the devices it holds; a bridge, a VLAN,
a tunnel and the loopback are left out. A device with a carrier has a link; ``"carrier":
false`` says none. The speed is read only with a carrier (netifd prints it from ethtool,
which keeps the last speed on some drivers)."""

from __future__ import annotations

from .common import Parsed, finish, guarded, split_lines
from .lazy_pattern import later
from .lshw import LshwNetwork, LshwResult

_OPEN = later(r'^\s*"(?P<name>[^"\\]{1,32})":\s*\{\s*$')
_FIELD = later(r'^\s*"(?P<key>type|devtype|carrier|up|speed|macaddr)":\s*"?(?P<value>[^",]{0,40})')
_SPEED = later(r"^(?P<mbps>\d{1,6})(?P<duplex>[FH])$")
_NIC_TYPES = {"network device", "ethernet", "wlan"}
MAX_NODES = 512


def parse_ubus_device_status(text: str) -> Parsed[LshwResult]:
    return guarded("ubus network.device", _parse, text, LshwResult)


def _parse(text: str) -> Parsed[LshwResult]:
    res = LshwResult()
    depth = 0
    started = False
    node: LshwNetwork | None = None
    kind: list[str] = []
    for line in split_lines(text):
        if not started:
            started = line.strip() == "{"
            depth = 1 if started else 0
            continue
        if depth == 1 and (m := _OPEN.match(line)):
            _keep(res, node, kind)
            node = LshwNetwork(node="network", source="ubus", logical_name=m.group("name"))
            kind = []
        elif depth == 2 and node is not None and (f := _FIELD.match(line)):
            _read(node, kind, f.group("key"), f.group("value").strip())
        depth += line.count("{") + line.count("[") - line.count("}") - line.count("]")
        if depth < 0:
            break  # text after the object
    _keep(res, node, kind)
    return res, finish("ubus network.device", text, len(res.networks), 0)


def _read(node: LshwNetwork, kind: list[str], key: str, value: str) -> None:
    if key in ("type", "devtype"):
        kind.append(value.lower())
    elif key == "carrier" and value in ("true", "false"):
        node.config["link"] = "yes" if value == "true" else "no"
    elif key == "macaddr":
        node.serial = value.lower()
    elif key == "speed" and (m := _SPEED.match(value)):
        node.size_mbps = float(m.group("mbps"))
        node.config["duplex"] = "full" if m.group("duplex") == "F" else "half"
    if kind and "wlan" in kind:
        node.description = "Wireless interface"


def _keep(res: LshwResult, node: LshwNetwork | None, kind: list[str]) -> None:
    if node is None or node.logical_name == "lo" or len(res.networks) >= MAX_NODES:
        return
    if kind and all(k in _NIC_TYPES for k in kind):
        res.networks.append(node)
