"""``udevadm info --attribute-walk`` / ``udevadm info -a`` (systemd's udevadm-info.c
print_all_attributes(): ``looking at device '/devices/...'`` or ``looking at parent device
'...'``, then ``KERNEL[S]==``, ``SUBSYSTEM[S]==``, ``DRIVER[S]==`` and ``ATTR[S]{name}==``
lines, one block per device up the tree).

A block of subsystem ``net`` is a network interface: its name (KERNEL), MAC (``address``),
carrier (``carrier`` 0/1, else ``operstate``), and the device it sits on from its path (the
PCI address, USB port or platform device before ``/net/NAME``), whose own block, further up,
names the driver (DRIVERS). A block with ``idVendor``/``idProduct`` is a USB device: its IDs,
port path (``busnum``-``devpath``), speed and product, read as ``lsusb`` lines are (whether it
is a NIC is the inventory's call, from its IDs). A block the paste starts inside (no
``looking at`` line) is read the same."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .common import Parsed, finish, guarded, is_noise, split_lines
from .lazy_pattern import later
from .lshw import LshwNetwork, LshwResult
from .lsusb import LsusbResult, UsbDevice

_HEAD = later(r"^\s*looking at (?:parent )?device '(?P<path>[^']{1,400})':\s*$")
_FIELD = later(
    r"^\s*(?P<key>KERNELS?|SUBSYSTEMS?|DRIVERS?|ATTRS?\{(?P<attr>[\w/.-]{1,80})\})==\"(?P<value>[^\"]{0,300})\"\s*$"
)
_PCI = later(r"/([0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7])(?=/)")
_USB = later(r"/(\d+-[\d.]+)(?::\d+\.\d+)?(?=/)")
_PLATFORM = later(r"/([0-9a-f]{5,16}\.[a-z][\w-]*)(?=/)")
_HEX4 = later(r"[0-9a-f]{4}")
MAX_BLOCKS = 512


@dataclass
class UdevWalk:
    lshw: LshwResult = field(default_factory=LshwResult)
    lsusb: LsusbResult = field(default_factory=LsusbResult)


@dataclass
class _Block:
    path: str = ""
    fields: dict[str, str] = field(default_factory=dict)


def parse_udevadm_walk(text: str) -> Parsed[UdevWalk]:
    return guarded("udevadm info", _parse, text, UdevWalk)


def _parse(text: str) -> Parsed[UdevWalk]:
    blocks: list[_Block] = [_Block()]
    bad = 0
    for line in split_lines(text):
        if is_noise(line):
            continue
        if m := _HEAD.match(line):
            if len(blocks) < MAX_BLOCKS:
                blocks.append(_Block(path=m.group("path")))
            continue
        if f := _FIELD.match(line):
            key = f.group("attr") or f.group("key").rstrip("S")
            blocks[-1].fields.setdefault(key, f.group("value"))
        else:
            bad += 1  # the command line, "Udevadm info starts with ...", a cut line
    res = UdevWalk()
    drivers = {b.path: b.fields.get("DRIVER", "") for b in blocks if b.path}
    for block in blocks:
        if block.fields.get("SUBSYSTEM") == "net" or "/net/" in block.path:
            res.lshw.networks.append(_net(block, drivers))
        elif (usb := _usb(block)) is not None:
            res.lsusb.devices.append(usb)
    found = len(res.lshw.networks) + len(res.lsusb.devices)
    return res, finish("udevadm info", text, found, bad)


def _net(block: _Block, drivers: dict[str, str]) -> LshwNetwork:
    f = block.fields
    name = f.get("KERNEL") or block.path.rsplit("/", 1)[-1] or None
    node = LshwNetwork(node="network", source="udevadm", logical_name=name)
    node.serial = f.get("address")
    carrier = f.get("carrier")
    state = f.get("operstate", "")
    if carrier in ("0", "1"):
        node.config["link"] = "yes" if carrier == "1" else "no"
    elif state in ("up", "down"):
        node.config["link"] = "yes" if state == "up" else "no"
    device_path = block.path.split("/net/", 1)[0] + "/"
    if m := _PCI.findall(device_path):
        node.bus_info = f"pci@{m[-1]}"
    elif m := _USB.findall(device_path):
        bus, _, ports = m[-1].partition("-")
        node.bus_info = f"usb@{bus}:{ports}"
    elif m := _PLATFORM.findall(device_path):
        node.bus_info = f"platform@{m[-1]}"
    parent = device_path.rstrip("/")
    if driver := drivers.get(parent):
        node.config["driver"] = driver
    return node


def _usb(block: _Block) -> UsbDevice | None:
    f = block.fields
    vendor, product = f.get("idVendor", "").lower(), f.get("idProduct", "").lower()
    if not (_HEX4.fullmatch(vendor) and _HEX4.fullmatch(product)):
        return None
    bus = (
        int(f["busnum"]) if (f.get("busnum", "").isascii() and f.get("busnum", "").isdigit()) else 0
    )
    devnum = (
        int(f["devnum"]) if (f.get("devnum", "").isascii() and f.get("devnum", "").isdigit()) else 0
    )
    devpath = f.get("devpath", "")
    path = f"{bus}-{devpath}" if bus and re.fullmatch(r"[\d.]{1,40}", devpath) else None
    speed = f.get("speed", "")
    words = " ".join(x for x in (f.get("manufacturer"), f.get("product")) if x) or None
    return UsbDevice(
        bus=bus,
        device=devnum,
        vendor_id=vendor,
        product_id=product,
        description=words,
        path=path,
        speed_mbps=float(speed) if re.fullmatch(r"\d{1,6}(?:\.\d)?", speed) else None,
        is_hub=f.get("bDeviceClass") == "09",
    )
