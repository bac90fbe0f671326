"""Network sections of system report tools people paste whole, read into the same records as
``lshw -C network`` (:class:`LshwNetwork`, ``source`` naming the tool):

- ``networkctl status [LINK]`` (systemd's networkctl.c link_status_one(): ``● N: NAME`` then
  right-aligned ``Key: value`` lines: ``Path: pci-0000:59:00.0``, ``Driver:``, ``Vendor:``,
  ``Model:``, ``State: routable (configured)``, ``Speed: 1Gbps``, ``Duplex: full``);
- ``inxi -N``/``-n``/``-F`` (inxi's Network section: ``Device-1:`` or ``Card-1:`` then
  ``driver: X``, ``bus-ID: 01:05.0`` or ``2-1:2``, ``chip-ID: 11ab:4320``, ``IF: eth0 state: up
  speed: 1000 Mbps duplex: full``; lines wrapped with an indent).

networkctl prints the speed rounded down to its unit (a 2.5 Gbit/s link reads ``2Gbps``,
systemd issue 33076): a speed that is no Ethernet line rate is not taken."""

from __future__ import annotations

import re

from sbctune.catalog.kernel_drivers import load_kernel_drivers
from sbctune.catalog.of_compatibles import load_of_compatibles

from .common import Parsed, finish, guarded, split_lines
from .lazy_pattern import later
from .lshw import LshwNetwork, LshwResult

_RATES = {10, 100, 1000, 2500, 5000, 10000, 25000, 40000, 50000, 100000}
_NETWORKCTL_HEAD = later(r"^\s*[●*○↻×]?\s*\d+: (?P<name>[\w.:@-]{1,15})\s*$")
_NETWORKCTL_FIELD = later(r"^\s*(?P<key>[A-Z][\w ()/-]{0,30}): (?P<value>.*?)\s*$")
_SPEED = later(r"^(?P<n>\d+(?:\.\d+)?)(?P<unit>[KMG])bps$")
_UNIT = {"K": 0.001, "M": 1, "G": 1000}
MAX_NODES = 256
# `platform-f1070000.ethernet`; a child's component (`-usb-0:1.4:1.0`, `-pci-…`) fails the match
_PLATFORM_PATH = later(r"^platform-([\da-f]{1,16}\.[a-z][\w.-]{0,40})$")


def _rate(text: str) -> float | None:
    m = _SPEED.match(text.strip())
    if not m:
        return None
    value = float(m.group("n")) * _UNIT[m.group("unit")]
    return value if int(value) in _RATES and value == int(value) else None


def _bus_info_from_path(path: str) -> str | None:
    """udev's ID_PATH: ``pci-0000:59:00.0``, ``platform-xhci-hcd.0-usb-0:1.4:1.0``."""
    if m := re.match(
        r"^pci-([\da-f]{4}:[\da-f]{2}:[\da-f]{2}\.[0-7])(?:-usb-\d+:([\d.]+):)?", path
    ):
        return f"pci@{m.group(1)}" if m.group(2) is None else None
    if m := _PLATFORM_PATH.match(path):
        # path_id's "platform-<sysname>" of a device-tree node (of_device_make_bus_id():
        # "<unit address>.<node name>") with nothing below it: the device is the NIC's own
        return f"platform@{m.group(1)}"
    return None


def parse_networkctl_status(text: str) -> Parsed[LshwResult]:
    return guarded("networkctl status", _parse_networkctl, text, LshwResult)


def _parse_networkctl(text: str) -> Parsed[LshwResult]:
    res = LshwResult()
    node: LshwNetwork | None = None
    headless: LshwNetwork | None = None
    platform_paths: list[LshwNetwork] = []
    for line in split_lines(text):
        if (m := _NETWORKCTL_HEAD.match(line)) and len(res.networks) < MAX_NODES:
            node = LshwNetwork(node="network", source="networkctl", logical_name=m.group("name"))
            res.networks.append(node)
            continue
        if not (f := _NETWORKCTL_FIELD.match(line)):
            continue
        if node is None and not res.networks:
            # A paste cut above the "● N: NAME" head line: link_status_one() prints one
            # link's table under its head, so the rows before any head are one link's, its
            # name unknown. Kept only if its "Path:" places a device (below).
            node = headless = LshwNetwork(node="network", source="networkctl")
        if node is None:
            continue
        key, value = f.group("key").strip(), f.group("value")[:200]
        if key == "Path":
            node.bus_info = _bus_info_from_path(value)
            if node.bus_info and node.bus_info.startswith("platform@"):
                platform_paths.append(node)
        elif key == "Driver":
            node.config["driver"] = value.split()[0] if value.split() else ""
        elif key == "Model":
            node.product = value
        elif key == "Vendor":
            node.vendor = value
        elif key == "Type" and value.startswith("wlan"):
            node.description = "Wireless interface"
        elif key == "State":
            state = value.split()[0] if value.split() else ""
            if state in ("routable", "degraded", "carrier"):
                node.config["link"] = "yes"
            elif state in ("no-carrier", "off"):
                node.config["link"] = "no"
            if state == "no-carrier":
                # networkd's link_update_operstate() (src/network/networkd-link.c): no-carrier
                # only for an IFF_UP link without carrier; "off" is a link not brought up
                node.config["no_carrier_up"] = "yes"
        elif key == "Speed":
            node.size_mbps = _rate(value)
        elif key == "Duplex" and value in ("full", "half"):
            node.config["duplex"] = value
    for one in platform_paths:
        if one.description == "Wireless interface":
            # udev's path stops at an SDIO function's MMC host: the host is not the NIC
            one.bus_info = None
    if headless is not None and headless.bus_info:
        # the system's summary (`networkctl status` without a link: State, Address, DNS ...)
        # names no device; a headless block with a PCI path is one
        res.networks.insert(0, headless)
    return res, finish("networkctl status", text, len(res.networks), 0)


_INXI_DEVICE = later(r"\b(?:Device|Card)-\d+:\s")
_INXI_KEYS = later(
    r"\s(?=(?:driver|v|port|bus-ID|bus ID|chip-ID|chip ID|type|IF|state|"
    r"speed|duplex|mac|vendor|class-ID|rev|modules|pcie|link-max|lanes):\s)"
)


def _wired_of_driver(compatible: str) -> str | None:
    """The one wired network driver whose device-tree table lists ``compatible``, else None."""
    found = load_of_compatibles().match([compatible])
    if found is None or len(found.drivers) != 1:
        return None
    driver = load_kernel_drivers().get(found.drivers[0])
    return found.drivers[0] if driver is not None and not driver.wireless else None


def parse_inxi_network(text: str) -> Parsed[LshwResult]:
    return guarded("inxi", _parse_inxi, text, LshwResult)


def _fields(chunk: str) -> tuple[str, dict[str, str]]:
    parts = _INXI_KEYS.split(chunk)
    product = parts[0].strip()
    out: dict[str, str] = {}
    for part in parts[1:]:
        key, _, value = part.partition(": ")
        out.setdefault(key.strip(), value.strip())
    return product, out


def _inxi_node(chunk: str) -> LshwNetwork:
    product, f = _fields(chunk)
    node = LshwNetwork(node="network", source="inxi", product=product or None)
    bound: str | None = None
    bus = f.get("bus-ID") or f.get("bus ID") or ""
    if m := re.fullmatch(r"(?:([\da-f]{4}):)?([\da-f]{2}:[\da-f]{2}\.[0-7])", bus):
        node.bus_info = f"pci@{m.group(1) or '0000'}:{m.group(2)}"
    elif m := re.fullmatch(r"(\d+)-([\d.]+):\d+", bus):
        node.bus_info = f"usb@{m.group(1)}:{m.group(2)}"
    chip = f.get("chip-ID") or f.get("chip ID") or ""
    if re.fullmatch(r"[\da-f]{4}:[\da-f]{4}", chip):
        node.ids = chip
    elif not node.bus_info and (m := re.fullmatch(r"([a-z][\w,-]*):([\da-f]{4,16})", chip)):
        # an SoC's device-tree device (inxi's ARM devices): "chip-ID: rockchip:fe300000
        # class-ID: ethernet" is the platform device fe300000.ethernet, no bus-ID
        name = f.get("class-ID", "").split()
        bound = _wired_of_driver(f"{m.group(1)},{product}") if not name else None
        if bound is not None:
            # inxi 3.0 prints no class-ID: the device's compatible ("allwinner" of the chip ID
            # and the device's name, "sun8i-h3-emac") names a wired drivers/net driver, whose
            # binding names the node "ethernet@ADDR" (bindings/net/ethernet-controller.yaml
            # "$nodename: pattern: ^ethernet(@.*)?$", 6.1 and 6.12): the device ADDR.ethernet
            name = ["ethernet"]
        node.bus_info = f"platform@{m.group(2)}" + (f".{name[0]}" if name else "")
    driver = f.get("driver", "").split()
    if driver and driver[0] not in ("N/A", "none"):
        node.config["driver"] = driver[0]
        if bound is not None and driver[0] == bound.replace("-", "_"):
            # inxi names the module (KBUILD_MODNAME: "-" made "_"), the kernel the driver
            node.config["driver"] = bound
    if f.get("IF"):
        node.logical_name = f["IF"].split()[0]
    if f.get("state") in ("up", "down"):
        node.config["link"] = "yes" if f["state"] == "up" else "no"
    if m := re.match(r"(\d+) Mbps", f.get("speed", "")):
        node.size_mbps = float(m.group(1))
    if f.get("duplex") in ("full", "half"):
        node.config["duplex"] = f["duplex"]
    if re.search(r"wi-?fi|wireless|wlan|802\.11", product, re.IGNORECASE):
        node.description = "Wireless interface"
    return node


# inxi's System section: "Kernel: 4.14.18-sunxi armv7l bits: 32" (the release, uname -r); its
# Machine section on ARM: "Type: ARM Device System: Xunlong Orange Pi One details: ..." (inxi
# reads the device tree's model there; on a PC "System:" is the DMI vendor, so only ARM's is a
# model). A line may hold the section's name, and -y wraps a section's fields onto more lines.
_INXI_KERNEL = later(r"(?:^|\s)Kernel: (?P<release>\d+\.\d+[\w.+~-]{0,60})(?:\s|$)")
_INXI_ARM_MODEL = later(
    r"(?:^|\s)Type: ARM(?: Device)? System: (?P<model>\S.{0,80}?)"
    r"(?=\s+(?:details|serial|rev|v):\s|\s*$)"
)


def _system_line(res: LshwResult, section: str, line: str) -> None:
    if section == "System" and res.kernel is None and (m := _INXI_KERNEL.search(line)):
        res.kernel = m.group("release")
    elif section == "Machine" and res.model is None and (m := _INXI_ARM_MODEL.search(line)):
        res.model = m.group("model").strip()


def _parse_inxi(text: str) -> Parsed[LshwResult]:
    res = LshwResult()
    chunks: list[str] = []
    in_network = False
    section = ""
    for line in split_lines(text):
        # "Network:   Card: ..." (inxi 2.x) or "Network:" alone on its line (3.x)
        head = re.match(r"^\s*(?:\S+\s)?([A-Z][\w ]{1,20}):(?:\s|$)", line)
        if line[:1] not in (" ", "\t") and head:
            section = head.group(1)
            in_network = section == "Network"
        if section in ("System", "Machine"):
            _system_line(res, section, line)
        if not in_network:
            continue
        body = re.sub(r"^\s*Network:\s*", "", line).strip()
        for piece in re.split(r"(?=\b(?:Device|Card)-\d+:\s)", body):
            if _INXI_DEVICE.match(piece):
                chunks.append(_INXI_DEVICE.sub("", piece, count=1))
            elif chunks and piece:
                chunks[-1] += " " + piece
    res.networks = [_inxi_node(c) for c in chunks[:MAX_NODES]]
    return res, finish("inxi", text, len(res.networks), 0)
