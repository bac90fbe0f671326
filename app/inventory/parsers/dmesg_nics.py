"""What a kernel log says about each network interface (DmesgResult.nics): its driver, device,
MAC, link and former names, following ``renamed from`` lines."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .dmesg_event import DmesgEvent
from .dmesg_patterns import OF_NAMED, OF_NODE, PRE_DT_PLATFORM
from .lazy_pattern import later

_PRE_DT_RE = later(rf"^{PRE_DT_PLATFORM}$")
_OF_RE = later(rf"^(?:{OF_NAMED}|{OF_NODE})$")


@dataclass
class DmesgNic:
    """What the log says about one network interface (after renames)."""

    iface: str
    driver: str | None = None
    device: str | None = None  # bus id: "2-2:1.0", "0000:01:00.0", "fd580000.ethernet"
    mac: str | None = None
    description: str | None = None
    driver_version: str | None = None
    firmware: str | None = None
    link_speed_mbps: int | None = None
    duplex: str | None = None
    link_up: bool | None = None
    former_names: list[str] = field(default_factory=list)

    @property
    def bus(self) -> str:
        d = self.device or ""
        if re.match(r"^\d+-[\d.]+:\d+\.\d+$", d):
            return "usb"
        if re.match(r"^[0-9a-f]{4,8}:[0-9a-f]{2}:[0-9a-f]{2}\.\d$", d):
            return "pci"
        if re.match(r"^[0-9a-f]+\.\w+", d) or _PRE_DT_RE.match(d) or _OF_RE.match(d):
            return "platform"
        if re.match(r"^mmc\d", d):
            return "sdio"
        return "unknown"


def nics_of(events: list[DmesgEvent]) -> dict[str, DmesgNic]:
    """Per-interface summary of the events, in order, following ``renamed from`` lines."""
    out: dict[str, DmesgNic] = {}
    by_device: dict[str, str] = {}

    def nic(name: str) -> DmesgNic:
        if name not in out:
            out[name] = DmesgNic(iface=name)
        return out[name]

    for e in events:
        f = e.fields
        dev = f.get("device")
        name = f.get("iface")
        if e.kind == "renamed" and name:
            old = f.get("old", "")
            prev = (
                out.pop(old, None)
                if old in out and (dev is None or out[old].device in {None, dev})
                else None
            )
            target = nic(name)
            if prev is not None:
                for attr in (
                    "driver",
                    "device",
                    "mac",
                    "description",
                    "driver_version",
                    "firmware",
                    "link_speed_mbps",
                    "duplex",
                    "link_up",
                ):
                    if getattr(target, attr) is None:
                        setattr(target, attr, getattr(prev, attr))
                target.former_names.extend(prev.former_names)
            if old and old not in target.former_names:
                target.former_names.append(old)
            if dev:
                target.device = target.device or dev
                by_device[dev] = name
            if f.get("driver"):
                target.driver = target.driver or f["driver"]
            continue
        if name is None and dev is not None and dev in by_device:
            name = by_device[dev]
        if name is None or not re.match(r"^[\w.-]+$", name) or name.startswith("("):
            if e.kind == "firmware" and dev:
                by_device.setdefault(dev, "")
            continue
        n = nic(name)
        if dev:
            n.device = n.device or dev
            by_device[dev] = name
        if f.get("driver") and f["driver"] not in {"pci", "usb"}:
            n.driver = n.driver or f["driver"]
        if f.get("mac"):
            n.mac = f["mac"].lower()
        if e.kind == "register" or e.kind == "description":
            n.description = f.get("description")
        elif e.kind == "driver_version":
            n.driver_version = f.get("version")
        elif e.kind == "link_up":
            speed = float(f.get("speed", "0"))
            n.link_speed_mbps = int(speed * 1000 if f.get("unit") == "G" else speed)
            n.duplex = (f.get("duplex") or "").capitalize() or None
            n.link_up = True
        elif e.kind == "link_down":
            n.link_up = False
    # firmware lines carry only the device: attach them afterwards
    for e in events:
        if e.kind == "firmware" and e.device:
            for n in out.values():
                if n.device and n.device.split(":")[0] == e.device.split(":")[0]:
                    n.firmware = f"{e.fields.get('firmware')} v{e.fields.get('version')}"
    for e in events:
        if e.kind == "description" and e.device:
            for n in out.values():
                if n.device == e.device and not n.description:
                    n.description = e.fields.get("description")
    return out
