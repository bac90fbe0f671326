"""NIC-related kernel log lines from ``dmesg`` (whole logs, grep'ed or mid-log excerpts)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .common import Parsed, ParseWarning, guarded, is_ellipsis, is_noise, split_lines

# Prefixes in front of the kernel message: syslog / journal / dmesg -T / --time-format iso
_SYSLOG_RE = re.compile(r"^[A-Z][a-z]{2}\s+\d+\s+[\d:]+\s+\S+\s+kernel:\s*")
_ISO_SYSLOG_RE = re.compile(r"^\d{4}-\d\d-\d\dT[\d:.,+-]+\s+\S+\s+kernel:\s*")
_ISO_RE = re.compile(r"^\d{4}-\d\d-\d\dT[\d:]+,\d+[+-]\d\d:\d\d\s+")
_HUMAN_TS_RE = re.compile(r"^\[[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d [\d:]+ \d{4}\]\s*")
_TS_RE = re.compile(r"^\[\s*(\d+\.\d+)\]\s*")

_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    (
        "register",
        re.compile(
            r"^(?P<driver>\S+) (?P<device>\S+) (?P<iface>\S+): register '(?P<name>[^']+)' at "
            r"(?P<bus>[^,]+), (?P<description>.*?), (?P<mac>[0-9a-fA-F]{2}(?::[0-9a-fA-F]{2}){5})$"
        ),
    ),
    (
        "renamed",
        re.compile(r"^(?P<driver>\S+) (?P<device>\S+) (?P<iface>\S+): renamed from (?P<old>\S+)$"),
    ),
    (
        "renamed",
        re.compile(
            r"^systemd-udevd\[\d+\]: renamed network interface (?P<old>\S+) to (?P<iface>\S+)$"
        ),
    ),
    (
        "link_up",
        re.compile(
            r"^(?P<driver>\S+) (?P<device>\S+) (?P<iface>\S+): Link is Up - "
            r"(?P<speed>\d+(?:\.\d+)?)(?P<unit>[GM])bps/(?P<duplex>Full|Half)"
            r"(?: - flow control (?P<flow>.+))?$"
        ),
    ),
    (
        "link_up",
        re.compile(
            r"^(?P<driver>\S+) (?P<device>\S+) (?P<iface>\S+): (?:\S+: \S+ )?NIC Link is Up "
            r"(?P<speed>\d+) (?P<unit>[GM])bps (?P<duplex>Full|Half) Duplex"
        ),
    ),
    (
        "link_up",
        re.compile(
            r"^(?P<driver>\S+) (?P<device>\S+) (?P<iface>\S+): link up, (?P<speed>\d+)"
            r"(?P<unit>[GM])bps, (?P<duplex>full|half)-duplex"
        ),
    ),
    (
        "link_down",
        re.compile(r"^(?P<driver>\S+) (?P<device>\S+) (?P<iface>\S+): Link is Down$"),
    ),
    (
        "driver_version",
        re.compile(
            r"^(?P<driver>\S+) (?P<device>\S+) (?P<iface>\S+): (?P<version>v\d[\w.]*"
            r"(?: \([^)]*\))?)$"
        ),
    ),
    (
        "firmware",
        re.compile(
            r"^(?P<driver>\S+) (?P<device>\S+): load (?P<firmware>\S+) v(?P<version>\S+)"
            r"(?: (?P<date>\S+))? successfully$"
        ),
    ),
    (
        "chip",  # r8169: "eth0: RTL8125B, 00:e0:4c:..., XID 641, IRQ 38"
        re.compile(
            r"^(?P<driver>\S+) (?P<device>\S+) (?P<iface>\S+): (?P<chip>RTL[\w/-]+), "
            r"(?P<mac>[0-9a-fA-F:]{17}), XID (?P<xid>\w+), IRQ (?P<irq>\d+)"
        ),
    ),
    (
        "description",  # igb/igc/e1000e: "igb 0000:01:00.0: Intel(R) Gigabit Ethernet ..."
        re.compile(r"^(?P<driver>\S+) (?P<device>\S+): (?P<description>Intel\(R\) .*)$"),
    ),
    (
        "pcie_link",  # igb: "igb 0000:01:00.0: eth0: (PCIe:2.5Gb/s:Width x1) 00:0d:..."
        re.compile(
            r"^(?P<driver>\S+) (?P<device>\S+): (?P<iface>\S+): \(PCIe:(?P<speed>[\d.]+)"
            r"(?:Gb/s|GT/s):Width x(?P<width>\d+)\)(?: (?P<mac>[0-9a-fA-F:]{17}))?"
        ),
    ),
    (
        "pcie_bandwidth",
        re.compile(
            r"^(?P<driver>\S+) (?P<device>\S+): (?P<gbps>[\d.]+) Gb/s available PCIe bandwidth"
            r"(?:, limited by (?P<speed>[\d.]+) GT/s PCIe x(?P<width>\d+) link at (?P<at>\S+)"
            r" \(capable of (?P<capable_gbps>[\d.]+) Gb/s with (?P<max_speed>[\d.]+) GT/s "
            r"PCIe x(?P<max_width>\d+) link\)| \((?P<speed2>[\d.]+) GT/s PCIe x(?P<width2>\d+) "
            r"link\))"
        ),
    ),
    (
        "mac",
        re.compile(
            r"^(?P<driver>\S+) (?P<device>\S+) (?P<iface>\S+): MAC: "
            r"(?P<mac>[0-9a-fA-F]{2}(?::[0-9a-fA-F]{2}){5})$"
        ),
    ),
    (
        "pci_device",
        re.compile(
            r"^pci (?P<device>[0-9a-f]{4,8}:[0-9a-f]{2}:[0-9a-f]{2}\.\d): \[(?P<vendor>[0-9a-f]{4})"
            r":(?P<product>[0-9a-f]{4})\] type (?P<type>\d+) class (?P<class>0x[0-9a-f]{6})"
        ),
    ),
    (
        "pci_bar",
        re.compile(
            r"^pci (?P<device>\S+): BAR (?P<bar>\d+): (?P<status>assigned|no space for|failed to "
            r"assign|can't assign|not assigned)\b:?\s*(?P<resource>.*)$"
        ),
    ),
    (
        "pcie_link_up",  # brcm-pcie: "link up, 5.0 GT/s PCIe x1 (SSC)" / "link up, 5 GT/s x1"
        re.compile(
            r"^(?P<driver>brcm-pcie|rockchip-pcie|\S+pcie\S*) (?P<device>\S+): link up, "
            r"(?P<speed>[\d.]+) ?GT/s (?:PCIe )?x(?P<width>\d+)"
        ),
    ),
    ("pcie_link_down", re.compile(r"^(?P<driver>\S*pcie\S*) (?P<device>\S+): link down")),
    (
        "usb_new_device",
        re.compile(
            r"^usb (?P<device>\d+-[\d.]+): new (?P<speed>[\w ]+?) USB device number (?P<number>\d+)"
            r" using (?P<hcd>\S+)"
        ),
    ),
    (
        "usb_ids",
        re.compile(
            r"^usb (?P<device>\d+-[\d.]+): New USB device found, idVendor=(?P<vendor>[0-9a-f]{4}),"
            r" idProduct=(?P<product>[0-9a-f]{4})"
        ),
    ),
    (
        "driver_registered",
        re.compile(r"^usbcore: registered new (?:interface|device) driver (?P<driver>\S+)$"),
    ),
    (
        "under_voltage",
        re.compile(r"(?i)under-?voltage detected!?(?:\s*\((?P<code>0x[0-9a-f]+)\))?"),
    ),
    (
        "voltage_normalised",
        re.compile(r"(?i)voltage normali[sz]ed(?:\s*\((?P<code>0x[0-9a-f]+)\))?"),
    ),
    (
        "tx_timeout",
        re.compile(r"NETDEV WATCHDOG: (?P<iface>\S+) \((?P<driver>[^)]+)\): transmit queue"),
    ),
    ("csum_failure", re.compile(r"^(?P<iface>\S+): hw csum failure")),
]


@dataclass
class DmesgEvent:
    kind: str
    line: int  # 1-based line number in the text
    timestamp: float | None
    text: str
    fields: dict[str, str] = field(default_factory=dict)

    @property
    def driver(self) -> str | None:
        return self.fields.get("driver")

    @property
    def device(self) -> str | None:
        return self.fields.get("device")

    @property
    def iface(self) -> str | None:
        return self.fields.get("iface")


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
        if re.match(r"^[0-9a-f]+\.\w+", d):
            return "platform"
        if re.match(r"^mmc\d", d):
            return "sdio"
        return "unknown"


@dataclass
class DmesgResult:
    events: list[DmesgEvent] = field(default_factory=list)
    lines: int = 0
    kernel_lines: int = 0  # lines that look like kernel log lines
    timestamps: bool = False
    starts_mid_log: bool = False
    elided: bool = False
    timestamp_jumps: int = 0  # time going backwards: two pastes joined

    def of_kind(self, kind: str) -> list[DmesgEvent]:
        return [e for e in self.events if e.kind == kind]

    @property
    def under_voltage(self) -> bool:
        return any(e.kind == "under_voltage" for e in self.events)

    def nics(self) -> dict[str, DmesgNic]:
        """Per-interface summary, following ``renamed from`` lines."""
        out: dict[str, DmesgNic] = {}
        by_device: dict[str, str] = {}

        def nic(name: str) -> DmesgNic:
            if name not in out:
                out[name] = DmesgNic(iface=name)
            return out[name]

        for e in self.events:
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
        for e in self.events:
            if e.kind == "firmware" and e.device:
                for n in out.values():
                    if n.device and n.device.split(":")[0] == e.device.split(":")[0]:
                        n.firmware = f"{e.fields.get('firmware')} v{e.fields.get('version')}"
        for e in self.events:
            if e.kind == "description" and e.device:
                for n in out.values():
                    if n.device == e.device and not n.description:
                        n.description = e.fields.get("description")
        return out


def parse_dmesg(text: str) -> Parsed[DmesgResult]:
    """``dmesg``: driver registration, renames, link, versions, PCI/BAR and power lines."""
    return guarded("dmesg", _parse_dmesg, text, DmesgResult)


def _strip_prefix(line: str) -> tuple[str, float | None, bool]:
    s = line.strip()
    known = False
    for rx in (_SYSLOG_RE, _ISO_SYSLOG_RE, _ISO_RE, _HUMAN_TS_RE):
        m = rx.match(s)
        if m:
            s = s[m.end() :]
            known = True
            break
    ts = None
    m2 = _TS_RE.match(s)
    if m2:
        ts = float(m2.group(1))
        s = s[m2.end() :]
        known = True
    return s, ts, known


_KERNEL_MSG_RE = re.compile(r"^[\w.@:\[\]/-]+(?: [\w.:@\[\]/()-]+){0,2}: \S")


def _parse_dmesg(text: str) -> Parsed[DmesgResult]:
    res = DmesgResult()
    last_ts: float | None = None
    first_content = True
    for no, raw in enumerate(split_lines(text), start=1):
        if is_ellipsis(raw):
            res.elided = True
            if first_content:
                res.starts_mid_log = True
            continue
        if is_noise(raw):
            continue
        res.lines += 1
        msg, ts, known = _strip_prefix(raw)
        if ts is not None:
            res.timestamps = True
            if first_content and ts > 1.0:
                res.starts_mid_log = True
            if last_ts is not None and ts < last_ts:
                res.timestamp_jumps += 1
            last_ts = ts
        first_content = False
        if known or _KERNEL_MSG_RE.match(msg):
            res.kernel_lines += 1
        for kind, rx in _PATTERNS:
            m = rx.search(msg)
            if m:
                fields = {k: v for k, v in m.groupdict().items() if v is not None}
                if kind == "pcie_bandwidth" and "speed2" in fields:
                    fields["speed"] = fields.pop("speed2")
                    fields["width"] = fields.pop("width2")
                res.events.append(DmesgEvent(kind, no, ts, msg, fields))
                break
    warnings: list[ParseWarning] = []
    if not text.strip():
        warnings.append(ParseWarning("dmesg", "the output is empty"))
    elif res.kernel_lines == 0:
        warnings.append(
            ParseWarning("dmesg", "nothing could be read (no line looks like a kernel log line)")
        )
    elif res.kernel_lines < res.lines:
        n = res.lines - res.kernel_lines
        if n * 2 > res.lines:
            warnings.append(
                ParseWarning("dmesg", f"{n} of {res.lines} lines do not look like kernel log lines")
            )
    if res.timestamp_jumps:
        warnings.append(
            ParseWarning(
                "dmesg",
                "timestamps go backwards: this looks like several pastes (or boots) joined",
            )
        )
    return res, warnings
