"""Parsers for ``lsusb`` and ``lsusb -t`` (old and new usbutils tree formats)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .common import (
    Parsed,
    ParseWarning,
    finish,
    guarded,
    is_ellipsis,
    is_noise,
    split_lines,
    unbold,
)
from .lazy_pattern import later

_LSUSB_RE = later(
    r"^[\s`'\">*]*Bus\s+(\d+)\s+Device\s+(\d+):\s+ID\s+([0-9a-fA-F]{4}):([0-9a-fA-F]{4})"
    r"(?:\s+(.*?))?[`'\"*\s]*$"
)
# One lsusb line trimmed to its ID part by the poster (`ID 148f:3070 Ralink Technology, Corp.
# RT2870/RT3070 Wireless Adapter`): the device, without its bus and number
# Another device's line inside a line: lsusb prints one "Bus %03u Device %03u: ID %04x:%04x"
# line per device (usbutils lsusb.c list_devices()), so a second one in a line is a paste whose
# newlines were joined (an issue form's field, a chat): split there, never inside a name
_JOINED_RE = later(r"\s+(?=Bus \d{3} Device \d{3}: ID [0-9a-fA-F]{4}:[0-9a-fA-F]{4}\b)")
_ID_ONLY_RE = later(r"^[\s`'\"*]*ID\s+([0-9a-fA-F]{4}):([0-9a-fA-F]{4})\s+(\S.*?)[`'\"*\s]*$")
# Synology DSM's lsusb: "|__2-1  0bda:8156:3100 00  3.20 5000MBit/s 256mA 1IF  (Realtek ...)"
_DSM_RE = later(
    r"^\s*\|__(usb\d+|\d+-[\d.]+)\s+([0-9a-f]{4}):([0-9a-f]{4}):[0-9a-f]{4}\s+[0-9a-f]{2}\s+"
    r"([\d.]+)\s+([\d.]+)MBit/s\s+(?:\d+mA\s+)?\d+IFs?\s*(?:\((.*?)\)?)?\s*(hub)?\s*$"
)
_NEGOTIATED_RE = later(r"^\s*Negotiated speed:\s*\S+.*?\((\d+(?:\.\d+)?)([GM])bps\)")
_BCD_RE = later(r"^\s*bcdUSB\s+([\d.]+)")
# usb-devices: T:/P:/S:/I: records
_T_RE = later(r"^T:\s+Bus=(\d+).*?Dev#=\s*(\d+)\s+Spd=([\d.]+)")
# the T: line's place in the tree (drivers/usb/core/devices.c format_topo, usb_device_dump():
# Lev is the depth, Prnt the parent's device number, Port the 0-based port on the parent,
# printed for `chix - 1` by usb_hub_for_each_child; usb-devices' script prints the same)
_TOPO_RE = later(r"^T:\s+Bus=\s*(\d+)\s+Lev=\s*(\d+)\s+Prnt=\s*(\d+)\s+Port=\s*(\d+)\s")
_P_RE = later(r"^P:\s+Vendor=([0-9a-fA-F]{4})\s+ProdID=([0-9a-fA-F]{4})")
_S_RE = later(r"^S:\s+Product=(.+)$")
# usb-devices' `I:` line: the driver after the first interface class. Two forward searches: one
# pattern with two lazy gaps retried from every `Cls=` (quadratic in the line's length).
_I_CLASS_RE = later(r"Cls=\w\w\(")
_I_DRIVER_RE = later(r"Driver=(\S+)")
_I_TRIPLE_RE = later(
    r"Cls=([0-9a-fA-F]{2})(?:\([^)]*\))?\s*Sub=([0-9a-fA-F]{2})\s+Prot=([0-9a-fA-F]{2})"
)
_I_NUM_RE = later(r"^I:\*?\s*If#=\s*(\w+)")
_C_IFS_RE = later(r"^C:\*?\s*#Ifs=\s*(\d+)")


def _interface_driver(line: str) -> str | None:
    if not line.startswith("I:"):
        return None
    cls = _I_CLASS_RE.search(line)
    found = _I_DRIVER_RE.search(line, cls.end()) if cls else None
    return found.group(1) if found else None


@dataclass
class UsbDevice:
    bus: int
    device: int
    vendor_id: str
    product_id: str
    description: str | None
    path: str | None = None  # "2-1.4" when the output shows it (DSM's lsusb)
    speed_mbps: float | None = None  # DSM's lsusb, `lsusb -v` "Negotiated speed", usb-devices
    usb_version: str | None = None  # bcdUSB
    driver: str | None = None  # usb-devices "Driver=" of its first interface
    driver_none: bool = False  # usb-devices "Driver=(none)" on every interface
    is_hub: bool = False
    drivers: list[str] = field(default_factory=list)  # usb-devices: every interface's driver
    classes: list[str] = field(default_factory=list)  # usb-devices: "ef/04/01" per interface

    @property
    def ids(self) -> str:
        return f"{self.vendor_id}:{self.product_id}"


@dataclass
class LsusbResult:
    devices: list[UsbDevice] = field(default_factory=list)
    # DSM's tree prints each root hub on a line of its own ("|__usb1 1d6b:0002:..."), which
    # is no device of ours (plain lsusb lists it as "Linux Foundation 2.0 root hub"): the buses
    root_hubs: list[str] = field(default_factory=list)

    def find(self, ids: str) -> list[UsbDevice]:
        return [d for d in self.devices if d.ids == ids.lower()]


def parse_lsusb(text: str) -> Parsed[LsusbResult]:
    """``lsusb``: one ``Bus 002 Device 003: ID 0bda:8153 Realtek ...`` line per device."""
    return guarded("lsusb", _parse_lsusb, text, LsusbResult)


def _parse_lsusb(text: str) -> Parsed[LsusbResult]:
    """Plain `lsusb`, `lsusb -v` (its device lines, bcdUSB and negotiated speed) and DSM's
    tree-like `lsusb`."""
    result = LsusbResult()
    bad = 0
    verbose = "Device Descriptor:" in text or "Negotiated speed" in text
    for line in _unjoined(split_lines(text)):
        if is_noise(line):
            continue
        line = unbold(line)  # "ID **7392:b822** Edimax"
        if m := _LSUSB_RE.match(line):
            desc = (m.group(5) or "").strip() or None
            result.devices.append(
                UsbDevice(int(m.group(1)), int(m.group(2)), m.group(3).lower(),
                          m.group(4).lower(), desc)
            )  # fmt: skip
        elif m := _DSM_RE.match(line):
            _dsm_device(result, m)
        elif not verbose and (m := _ID_ONLY_RE.match(line)):
            result.devices.append(
                UsbDevice(0, 0, m.group(1).lower(), m.group(2).lower(), m.group(3).strip())
            )
        elif result.devices and (m := _NEGOTIATED_RE.match(line)):
            value = float(m.group(1))
            result.devices[-1].speed_mbps = value * 1000 if m.group(2) == "G" else value
        elif result.devices and (m := _BCD_RE.match(line)):
            result.devices[-1].usb_version = m.group(1)
        elif not verbose:
            bad += 1
    # a root hub's line is read too (plain lsusb lists it as a device): DSM's tree of root
    # hubs alone is a machine with nothing plugged in, not an output nothing of could be read
    return result, finish("lsusb", text, len(result.devices) + len(result.root_hubs), bad)


def _unjoined(lines: list[str]) -> list[str]:
    """Each device's line on its own, also when a paste joined several into one."""
    out: list[str] = []
    for line in lines:
        if line.count(" Device ") > 1:  # the cheap test: most lines hold one device
            out += _JOINED_RE.split(line)
        else:
            out.append(line)
    return out


def _dsm_device(result: LsusbResult, m: re.Match[str]) -> None:
    path = m.group(1)
    if path.startswith("usb"):
        result.root_hubs.append(path)
        return
    result.devices.append(
        UsbDevice(
            bus=int(path.split("-")[0]),
            device=0,
            vendor_id=m.group(2),
            product_id=m.group(3),
            description=(m.group(6) or "").strip() or None,
            path=path,
            speed_mbps=float(m.group(5)),
            usb_version=m.group(4),
            is_hub=bool(m.group(7)),
        )
    )


def parse_usb_devices(text: str) -> Parsed[LsusbResult]:
    """``usb-devices``: T: (bus, device number, speed), P: (IDs), S: and I: (drivers)."""
    return guarded("usb-devices", _parse_usb_devices, text, LsusbResult)


def _parse_usb_devices(text: str) -> Parsed[LsusbResult]:
    result = LsusbResult()
    drivers: list[str] = []
    current: UsbDevice | None = None
    # the active configuration's interface count (`C:* #Ifs= 5`) and the interfaces listed: a
    # listing cut before its last interface says nothing of the drivers of those not shown
    listed: set[str] = set()
    count: list[int] = []
    # (bus, device number) -> port path of the devices read so far: a parent is printed first
    paths: dict[tuple[int, int], str | None] = {}

    def close() -> None:
        if current is not None:
            bound = [d for d in drivers if d not in ("(none)", "usbfs")]
            current.driver = bound[0] if bound else None
            current.drivers = list(dict.fromkeys(bound))
            whole = not count or len(listed) >= min(count)
            current.driver_none = bool(drivers) and not bound and whole
            current.is_hub = "hub" in bound

    for line in split_lines(text):
        if m := _T_RE.match(line.strip()):
            close()
            current, drivers = UsbDevice(int(m.group(1)), int(m.group(2)), "", "", None), []
            listed.clear()
            count.clear()
            current.speed_mbps = float(m.group(3))
            result.devices.append(current)
            current.path = _topology_path(line.strip(), paths)
            paths[(current.bus, current.device)] = current.path
        elif current is not None and (m := _P_RE.match(line.strip())):
            current.vendor_id, current.product_id = m.group(1).lower(), m.group(2).lower()
        elif current is not None and (m := _S_RE.match(line.strip())):
            current.description = m.group(1).strip()
        elif current is not None and (driver := _interface_driver(line.strip())):
            drivers.append(driver)
            if m := _I_NUM_RE.match(line.strip()):
                listed.add(m.group(1))
            if m := _I_TRIPLE_RE.search(line):
                current.classes.append("/".join(g.lower() for g in m.groups()))
        elif current is not None and (m := _C_IFS_RE.match(line.strip())):
            count.append(int(m.group(1)))
    close()
    result.devices = [d for d in result.devices if d.vendor_id]
    return result, finish("usb-devices", text, len(result.devices), 0)


def _topology_path(line: str, paths: dict[tuple[int, int], str | None]) -> str | None:
    """The kernel's port path ("2-1", "1-1.4") of a T: line: a device on the root hub (Lev 1)
    is BUS-PORT; a deeper one extends its parent's path, when its parent's line was read."""
    m = _TOPO_RE.match(line)
    if m is None:
        return None
    bus, level, parent, port = (int(g) for g in m.groups())
    if level == 1:
        return f"{bus}-{port + 1}"
    above = paths.get((bus, parent)) if level > 1 else None
    return f"{above}.{port + 1}" if above else None


# --- lsusb -t -----------------------------------------------------------------

# A driver name holds no comma: with `[^,]*` a line that does not match fails in one pass
# (`.*?` there, behind the lazy class, retried from every ", Driver=": a 12 KB line took 1 s).
_ROOT_RE = later(
    r"^\s*/:\s+Bus\s+(\d+)\.Port\s+(\d+):\s+Dev\s+(\d+),\s*Class=(.*?),\s*Driver=([^,]*),\s*"
    r"([\d.]+)M(?:/x(\d+))?\s*$"
)
# usbutils' lsusb-t.c prints "|__ Port"; a Markdown page takes the "__" pairs of two such lines
# as emphasis and shows "| Port" (RinCat/RTL88x2BU-Linux-Driver#83): the same tree line.
_CHILD_RE = later(
    r"^(\s*)\|(?:__)?\s+Port\s+(\d+):\s+Dev\s+(\d+),\s+If\s+(\d+),\s*Class=(.*?),\s*Driver=([^,]*),\s*"
    r"([\d.]+)M(?:/x(\d+))?\s*$"
)
_ID_RE = later(r"^\s*ID\s+([0-9a-fA-F]{4}):([0-9a-fA-F]{4})(?:\s+(.*))?$")
_SYS_RE = later(r"^\s*(/sys/bus/usb/devices/(\S+))(?:\s+(/dev/bus/usb/\S+))?\s*$")
_EXTRA_RE = later(r"^\s*Manufactu\w*=")
_HUBPORTS_RE = later(r"^(.*?)/(\d+)p$")


@dataclass
class UsbTreeNode:
    """One line of ``lsusb -t``: a root hub, or one interface of a device."""

    bus: int
    port_path: str  # "" for a root hub, "2" or "1.4" below it (sysfs style)
    port: int
    device: int
    interface: int | None  # None for a root hub line
    class_name: str | None
    driver: str | None
    speed_mbps: float
    depth: int
    is_root_hub: bool
    hub_ports: int | None = None
    lanes: int | None = None
    vendor_id: str | None = None
    product_id: str | None = None
    description: str | None = None
    sysfs_path: str | None = None

    @property
    def sysfs_name(self) -> str:
        """The kernel's name for the device, e.g. ``2-1.4`` (``usb2`` for a root hub)."""
        return f"usb{self.bus}" if self.is_root_hub else f"{self.bus}-{self.port_path}"

    @property
    def ids(self) -> str | None:
        if self.vendor_id and self.product_id:
            return f"{self.vendor_id}:{self.product_id}"
        return None


@dataclass
class UsbTree:
    nodes: list[UsbTreeNode] = field(default_factory=list)
    elided: bool = False  # the paste contained "..." / "[...]"

    def by_driver(self, driver: str) -> list[UsbTreeNode]:
        return [n for n in self.nodes if n.driver == driver]

    def root_hub(self, bus: int) -> UsbTreeNode | None:
        for n in self.nodes:
            if n.is_root_hub and n.bus == bus:
                return n
        return None

    def bus_speed_mbps(self, bus: int) -> float | None:
        hub = self.root_hub(bus)
        return hub.speed_mbps if hub else None


def parse_lsusb_tree(text: str) -> Parsed[UsbTree]:
    """``lsusb -t`` (and ``-tv``/``-tvv``): the USB tree with drivers and speeds."""
    return guarded("lsusb -t", _parse_lsusb_tree, text, UsbTree)


def _driver(raw: str) -> tuple[str | None, int | None]:
    raw = raw.strip()
    if not raw or raw in {"[none]", "(none)"}:
        return None, None
    m = _HUBPORTS_RE.match(raw)
    if m:
        return m.group(1), int(m.group(2))
    return raw, None


def _unwrap(lines: list[str]) -> list[str]:
    """A mail client wraps long `lsusb -t` lines before "Driver=": join them back."""
    out: list[str] = []
    for line in lines:
        if out and line.strip().startswith("Driver=") and out[-1].rstrip().endswith(","):
            out[-1] = out[-1].rstrip() + " " + line.strip()
        else:
            out.append(line)
    return out


def _parse_lsusb_tree(text: str) -> Parsed[UsbTree]:
    tree = UsbTree()
    bad = 0
    # stack of (indent, port_path) for the current bus
    stack: list[tuple[int, str]] = []
    bus: int | None = None
    last: UsbTreeNode | None = None
    for line in _unwrap(split_lines(text)):
        if is_ellipsis(line):
            tree.elided = True
            continue
        if is_noise(line):
            continue
        m = _ROOT_RE.match(line)
        if m:
            bus = int(m.group(1))
            driver, ports = _driver(m.group(5))
            last = UsbTreeNode(
                bus=bus,
                port_path="",
                port=int(m.group(2)),
                device=int(m.group(3)),
                interface=None,
                class_name=m.group(4).strip() or None,
                driver=driver,
                speed_mbps=float(m.group(6)),
                depth=0,
                is_root_hub=True,
                hub_ports=ports,
                lanes=int(m.group(7)) if m.group(7) else None,
            )
            tree.nodes.append(last)
            stack = []
            continue
        m = _CHILD_RE.match(line)
        if m:
            indent = len(m.group(1).expandtabs(4))
            port = int(m.group(2))
            while stack and stack[-1][0] >= indent:
                stack.pop()
            parent_path = stack[-1][1] if stack else ""
            path = f"{parent_path}.{port}" if parent_path else str(port)
            stack.append((indent, path))
            if bus is None:
                tree.elided = True  # child lines without their root: a partial paste
            driver, ports = _driver(m.group(6))
            last = UsbTreeNode(
                bus=bus if bus is not None else 0,
                port_path=path,
                port=port,
                device=int(m.group(3)),
                interface=int(m.group(4)),
                class_name=m.group(5).strip() or None,
                driver=driver,
                speed_mbps=float(m.group(7)),
                depth=len(stack),
                is_root_hub=False,
                hub_ports=ports,
                lanes=int(m.group(8)) if m.group(8) else None,
            )
            tree.nodes.append(last)
            continue
        m = _ID_RE.match(line)
        if m and last is not None:
            last.vendor_id = m.group(1).lower()
            last.product_id = m.group(2).lower()
            last.description = (m.group(3) or "").strip() or None
            continue
        m = _SYS_RE.match(line)
        if m and last is not None:
            last.sysfs_path = m.group(1)
            continue
        if _EXTRA_RE.match(line) and last is not None:
            continue
        bad += 1
    warnings: list[ParseWarning] = []
    return tree, finish("lsusb -t", text, len(tree.nodes), bad, warnings)
