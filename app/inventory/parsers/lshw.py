"""``lshw -C network`` (``lshw -class network``, ``lshw``): the network nodes lshw lists, each a
``*-network`` block of ``key: value`` lines (description, product, bus info, logical name,
serial, size, capacity, configuration: driver=... link=... speed=...). ``UNCLAIMED`` after the
node name means no driver is bound (lshw's own word).

``*-usb`` nodes are read too (``usb``): lshw lists every USB device from usbfs' device list
(src/core/usb.cc scan_usb(): bus info ``usb@BUS:PORTS`` with the kernel's 1-based port numbers,
vendor and product from the device's own Manufacturer/Product strings over usb.ids' names,
``driver=`` from its interfaces' drivers, UNCLAIMED when none has one, ``speed=`` the USB speed),
so a dongle no driver took is there with its port, though with no IDs."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .common import Parsed, ParseWarning, finish, guarded, split_lines
from .lazy_pattern import later
from .lshw_labels import ENGLISH_FLAGS, ORDER, is_flag, label_for, rates
from .tool_labels import lshw_label

# a node's head; a shell prompt and command may precede it on the line ("$ sudo lshw -C network
# *-network"), and a paste that lost its line breaks holds the node's fields after it
_NODE_RE = later(r"(?:^|[\s`>])\*-(?P<node>[\w:.-]+)(?P<rest>(?:\s.*)?)$")
# a node pasted without its "*-network" head starts with its description
_HEADLESS_RE = re.compile(r"^\s*description: (?:Ethernet|Wireless|Network) ")
_FIELD_RE = later(r"^\s*(?P<key>[a-z][a-z ]{0,20}):\s(?P<value>.*)$")
# a label in another language (print.cc prints each through gettext): lshw_labels names it
_ANY_FIELD_RE = later(r"^\s*(?P<key>[^\W\d_][^:=@]{0,40}?):(?:\s(?P<value>.*))?$")
_CONFIG_KEY_RE = later(r"(?:^|\s)([a-z][\w-]{0,30})=")
_RATE_RE = later(r"^(?P<n>\d+(?:\.\d+)?)(?P<unit>[KMGT])bit/s$")
_UNITS = {"K": 0.001, "M": 1, "G": 1000, "T": 1_000_000}
MAX_NODES = 256
# the fields print.cc prints after description and product: an excerpt may begin at any of them
_CUT_FIELDS = frozenset(
    {"vendor", "physical id", "bus info", "logical name", "version", "serial", "configuration"}
)


def _network_fields(net: LshwNetwork) -> bool:
    """A node cut above its head is a network one by network.cc's own marks: the ethernet or
    wireless capability, or a link setting (only network nodes have one); or, for a lone
    "configuration:" line (`lshw -C network | grep X`), the interface's flags scan_network()
    sets from SIOCGIFFLAGS ("broadcast", "multicast") beside its driver."""
    if {"ethernet", "wireless"} & set(net.capabilities) or "link" in net.config:
        return True
    return "driver" in net.config and bool({"broadcast", "multicast"} & set(net.config))


@dataclass
class LshwNetwork:
    node: str  # "network", "network:0"
    unclaimed: bool = False  # "*-network UNCLAIMED": no driver bound
    disabled: bool = False
    description: str | None = None  # "Ethernet interface", "Wireless interface"
    product: str | None = None
    vendor: str | None = None
    bus_info: str | None = None  # "pci@0000:01:00.0", "usb@2:1.4"
    logical_name: str | None = None
    serial: str | None = None  # the MAC
    size_mbps: float | None = None  # the link speed lshw read (when the link is up)
    capacity_mbps: float | None = None
    config: dict[str, str] = field(default_factory=dict)
    capabilities: tuple[str, ...] = ()  # lshw's capability ids: "ethernet physical wireless"
    irq: int | None = None
    # hwinfo's blocks (parsers/hwinfo.py) carry what lshw does not print
    ids: str | None = None  # "2001:3311"
    usb_speed_mbps: float | None = None
    bus: str | None = None  # the bus a tool names without an address (iwinfo's PCI IDs)
    source: str = "lshw"

    @property
    def driver(self) -> str | None:
        return self.config.get("driver")

    @property
    def link(self) -> bool | None:
        value = self.config.get("link")
        return None if value is None else value == "yes"

    @property
    def pci_address(self) -> str | None:
        bus = self.bus_info or ""
        return bus[4:] if bus.startswith("pci@") else None

    @property
    def platform_device(self) -> str | None:
        """inxi's SoC device "platform@fe300000.ethernet" as the kernel's device name."""
        bus = self.bus_info or ""
        return bus[9:] if bus.startswith("platform@") else None

    @property
    def sdio_function(self) -> str | None:
        """lshw's "mmc@2:390b:1" (guessBusInfo() of the sysfs name) as the kernel's SDIO
        function "mmc2:390b:1" (sdio_bus.c: host, card address, function number)."""
        m = re.fullmatch(r"mmc@(\d{1,3}):([0-9a-f]{4}):(\d)", self.bus_info or "")
        return f"mmc{m.group(1)}:{m.group(2)}:{m.group(3)}" if m else None

    @property
    def usb_port(self) -> str | None:
        """lshw's "usb@2:1.4" (bus 2, ports 1.4) as the kernel's port path "2-1.4"."""
        m = re.fullmatch(r"usb@(\d+):([\d.]+)", self.bus_info or "")
        return f"{m.group(1)}-{m.group(2)}" if m else None


@dataclass
class LshwResult:
    networks: list[LshwNetwork] = field(default_factory=list)
    usb: list[LshwNetwork] = field(default_factory=list)  # "*-usb" nodes: every USB device
    # what a report tool's own system lines say beside its devices (inxi's System and Machine
    # sections, parsers/report_tools.py): the board's device-tree model and the kernel release
    model: str | None = None
    kernel: str | None = None


def parse_lshw(text: str) -> Parsed[LshwResult]:
    return guarded("lshw", _parse, text, LshwResult)


def _rate(value: str) -> float | None:
    m = _RATE_RE.match(value.strip())
    return float(m.group("n")) * _UNITS[m.group("unit")] if m else None


def _config(value: str) -> dict[str, str]:
    """``driver=r8169 firmware=rtl8125b-2_0.0.2 07/13/20 port=twisted pair``: values may hold
    spaces, so each value runs to the next ``key=``."""
    keys = list(_CONFIG_KEY_RE.finditer(value))
    out: dict[str, str] = {}
    for i, m in enumerate(keys):
        end = keys[i + 1].start() if i + 1 < len(keys) else len(value)
        out[m.group(1)] = value[m.end() : end].strip()[:200]
    return out


def _lines(text: str) -> list[str]:
    """The paste's lines, a head's own line split from a prompt before it and from fields a
    paste that lost its line breaks left after it (runs of 3+ spaces between them)."""
    out: list[str] = []
    for raw in split_lines(text):
        node = _NODE_RE.search(raw) if "*-" in raw else None
        if not node:
            out.append(raw)
            continue
        words = node.group("rest").split()
        flags = [w for w in words[: next((i for i, w in enumerate(words) if not is_flag(w)), None)]]
        rest = node.group("rest").strip()
        for w in flags:
            rest = rest[len(w) :].strip()
        out.append(" ".join([f"*-{node.group('node')}", *flags]))
        out.extend(re.split(r"\s{3,}", rest) if rest else [])
    return out


def _parse(text: str) -> tuple[LshwResult, list[ParseWarning]]:
    res = LshwResult()
    current: LshwNetwork | None = None
    unreadable = 0
    headed = False  # a "*-network" head seen: a paste from a node's first field has none
    last: tuple[str, str] | None = None  # the field a wrapped line continues
    state = _NodeState()
    cut: LshwNetwork | None = None  # the node an excerpt begins inside, if any
    for raw in _lines(text):
        node = _NODE_RE.match(raw)
        if node:
            state.finish(current)
            current, headed, last, state = None, True, None, _NodeState()
            kind = node.group("node").split(":")[0]
            # lshw lists an SDIO card's Wi-Fi function as "*-wifi:N" (its network node's id,
            # warpme/miniarch#85: "bus info: mmc@2:390b:1", "logical name: wlan0")
            nodes = {"network": res.networks, "wifi": res.networks, "usb": res.usb}.get(kind)
            if nodes is not None and len(nodes) < MAX_NODES:
                # a catalog's flag ("NON-RÉCLAMÉ": lshw's fr.po " UNCLAIMED") by its msgid
                flags = [lshw_label(f) or f for f in node.group("rest").split()[:8]]
                current = LshwNetwork(node.group("node"), "UNCLAIMED" in flags, "DISABLED" in flags)
                state.other_flags = any(f not in ENGLISH_FLAGS for f in flags)
                nodes.append(current)
            continue
        found = _FIELD_RE.match(raw)
        key = found.group("key").strip() if found else ""
        if current is not None and key not in ORDER:
            # a translated label: its msgid when lshw's own catalog has it ("nom logique"),
            # else read by its value's shape ("producto:", "Bus-Informationen:", below)
            label = _ANY_FIELD_RE.match(raw)
            english = lshw_label(label.group("key")) if label and label.group("value") else None
            found, key = (label, english or "") if english in ORDER else (None, "")
        if found and not headed and current is None and _HEADLESS_RE.match(raw):
            current = LshwNetwork("network")  # "description: Ethernet interface" first
            res.networks.append(current)
        elif found and not headed and current is None and key in _CUT_FIELDS:
            # an excerpt cut inside a node, above any head ("vendor: ...", "bus info: ..." first):
            # one node, kept at its end only if its fields say it is a network one
            current = cut = LshwNetwork("network")
            res.networks.append(current)
        other = _ANY_FIELD_RE.match(raw) if current is not None and not found else None
        if current is not None and other and state.translated(current, other.group("value") or ""):
            continue
        if current is not None and not found and last and raw[:1] not in (" ", "\t"):
            # a mail client's wrap of "configuration: ..." or "capabilities: ..." (no "key: ")
            last = (last[0], f"{last[1]} {raw.strip()}")
            _field(current, *last)
            continue
        if current is None or not found:
            unreadable += bool(raw.strip()) and current is not None
            continue
        state.seen.add(key)
        last = (key, found.group("value").strip())
        last = last if last[0] in ("configuration", "capabilities") else None
        _field(current, key, found.group("value").strip())
    state.finish(current)
    if cut is not None and not _network_fields(cut):
        res.networks.remove(cut)
    for usb in res.usb:
        # a USB device's "speed=480Mbit/s" (older lshw: "480.0MB/s", usbfs' Spd= in Mbit/s);
        # a node lshw merged with its network interface says the link's speed there instead
        speed = re.fullmatch(r"(\d{1,5}(?:\.\d+)?)(?:Mbit/s|MB/s)", usb.config.get("speed", ""))
        if speed and not usb.logical_name:
            usb.usb_speed_mbps = float(speed.group(1))
    return res, finish("lshw", text, len(res.networks) + len(res.usb), unreadable)


@dataclass
class _NodeState:
    """What a node's translated labels need: the fields seen so far (in print.cc's order), its
    rates in order (size or capacity), and a head flag that is not English."""

    seen: set[str] = field(default_factory=set)
    rates: list[float] = field(default_factory=list)
    other_flags: bool = False

    def translated(self, net: LshwNetwork, value: str) -> bool:
        """Read a field whose label is not English; False when its shape names no field."""
        key = label_for(value, self.seen)
        if key is None:
            return False
        if key == "rate":
            if (rate := _rate(value)) is not None:
                self.rates.append(rate)
            self.seen.add("size")
            return True
        self.seen.add(key)
        if key in ORDER:
            _field(net, key, value.strip())
        return True

    def finish(self, net: LshwNetwork | None) -> None:
        if net is None:
            return
        if self.rates:
            net.size_mbps, net.capacity_mbps = rates(self.rates, _rate(net.config.get("speed", "")))
        if self.other_flags and not (net.unclaimed or net.disabled):
            # a translated UNCLAIMED or DISABLED: a node no driver claimed has no driver=
            net.unclaimed, net.disabled = not net.driver, bool(net.driver)


def _field(net: LshwNetwork, key: str, value: str) -> None:
    value = value[:300]
    if key in ("description", "product", "vendor", "serial"):
        setattr(net, key, value or None)
    elif key == "bus info":
        net.bus_info = value or None
    elif key == "logical name" and net.logical_name is None and "/" not in value:
        net.logical_name = value or None  # the first: a Wi-Fi node may list a phy path after
    elif key == "size":
        net.size_mbps = _rate(value)
    elif key == "capacity":
        net.capacity_mbps = _rate(value)
    elif key == "configuration":
        net.config = _config(value)
    elif key == "capabilities":
        net.capabilities = tuple(value.split()[:64])
    elif key == "resources" and (m := re.search(r"(?i)\birq:(\d{1,6})\b", value)):
        net.irq = int(m.group(1))
