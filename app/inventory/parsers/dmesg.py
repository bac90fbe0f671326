"""NIC-related kernel log lines from ``dmesg`` (whole logs, grep'ed or mid-log excerpts)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .common import Parsed, ParseWarning, guarded, is_ellipsis, is_noise, split_lines

# Prefixes in front of the kernel message: syslog / journal / dmesg -T / --time-format iso
_SYSLOG_RE = re.compile(r"^[A-Z][a-z]{2}\s+\d+\s+[\d:.]+\s+\S+\s+kernel(?:\[\d+\])?:\s*")
_JOURNAL_RE = re.compile(r"^kernel:\s+")  # journalctl -o cat-ish pastes: "kernel: bcmgenet ..."
_ISO_SYSLOG_RE = re.compile(r"^\d{4}-\d\d-\d\dT[\d:.,+-]+\s+\S+\s+kernel:\s*")
_ISO_RE = re.compile(r"^\d{4}-\d\d-\d\dT[\d:]+[,.]\d+(?:[+-]\d\d:?\d\d|Z)?\s+")
_HUMAN_TS_RE = re.compile(
    r"^\[(?:[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d [\d:]+ \d{4}"  # dmesg -T
    r"|[A-Z][a-z]{2}\s?\d{1,2}(?: [\d:]+)?"  # dmesg --human: [Mar23 13:30]
    r"|\s*\+\s*[\d.]+)\]\s*"  # ... then [  +3.071234]
)
_TS_RE = re.compile(r"^\[\s*(\d+\.\d+)(?:@\d+)?\]\s*")  # [6.679649@3]: Amlogic's CPU suffix

# How a driver names its device: PCI address, USB interface, platform device, SDIO function.
BUS_ID = (
    r"(?:[0-9a-f]{4,8}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]|\d+-[\d.]+:\d+\.\d+|"
    r"[0-9a-f]{5,16}\.[a-z][\w-]*(?::[\w@.-]+)?|mmc\d+:[0-9a-f]{4}:\d+)"
)

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
            r"^usb (?P<device>\d+-[\d.]+): new (?P<speed>[\w -]+?) USB device number "
            r"(?P<number>\d+)"
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
    (
        "link_up",  # mtk_soc_eth "eth0: port 2 link up", stmmac "Link is Up - 1Gbps/Full"
        re.compile(
            rf"^(?P<driver>[\w-]+) (?P<device>{BUS_ID}) (?P<iface>[\w.-]+): (?:port \d+ )?"
            r"(?:carrier on|[Ll]ink (?:is )?[Uu]p)\b"
            r"(?:\W+(?P<speed>\d+(?:\.\d+)?)\s?(?P<unit>[GM])?"
            r"(?:bps|b/s)?\W+(?P<duplex>[Ff]ull|[Hh]alf))?"
        ),
    ),
    (
        "link_down",
        re.compile(
            rf"^(?P<driver>[\w-]+) (?P<device>{BUS_ID}) (?P<iface>[\w.-]+): (?:port \d+ )?"
            r"(?:carrier off|[Ll]ink (?:is )?[Dd]own)\b"
        ),
    ),
    (
        "link_up",  # vendor r8125: "r8125: eth0: link up"; atlantic "link change old 0 new 10000"
        re.compile(
            r"^(?P<driver>[\w-]+): (?P<iface>[\w.-]+): link up\b|"
            rf"^(?P<driver2>[\w-]+) (?P<device>{BUS_ID}) (?P<iface2>[\w.-]+): \w+: link change "
            r"old \d+ new (?P<speed>[1-9]\d*)$"
        ),
    ),
    ("link_down", re.compile(r"^(?P<driver>[\w-]+): (?P<iface>[\w.-]+): link down\b")),
    (
        "phy_failure",  # davinci_mdio: probe of 8000000.ethernet:mdio@f00 failed with error -22
        re.compile(rf"^(?P<driver>[\w-]*mdio[\w-]*): probe of (?P<device>{BUS_ID}) failed"),
    ),
    (
        "link_up",  # cdc_ncm 6-1:2.0 enx...: 2500 mbit/s downlink 2500 mbit/s uplink
        re.compile(
            rf"^(?P<driver>[\w-]+) (?P<device>{BUS_ID}) (?P<iface>[\w.-]+): "
            r"(?P<speed>[1-9]\d*) mbit/s downlink"
        ),
    ),
    ("machine_model", re.compile(r"^(?:OF: fdt: )?Machine model: (?P<model>.{1,120})$")),
    (
        "machine_model",  # the header of a kernel warning: "Hardware name: X (DT)"
        re.compile(r"^Hardware name: (?P<model>[^,()]{1,120}?)(?: \(DT\))?(?:, BIOS .*)?$"),
    ),
    (
        "carrier",  # systemd-networkd in a journal: eth0: Lost carrier / Gained carrier
        re.compile(r"^systemd-networkd\[\d+\]: (?P<iface>[\w.-]+): (?P<state>Lost|Gained) carrier"),
    ),
    (
        "vendor_register",  # Realtek's r8125/r8168: "eth0: 0xffffc900..., c4:83:..., IRQ 22"
        re.compile(
            r"^(?P<iface>[a-z][\w.-]{1,14}): 0x[0-9a-f]+, (?P<mac>[0-9a-fA-F:]{17}), "
            r"IRQ (?P<irq>\d+)"
        ),
    ),
    (
        "phy_link_up",  # libphy: 63fec000.etherne:00 - Link is Up - 100/Full
        re.compile(
            r"^libphy: (?P<phy>[\w.@-]+):\w+ - Link is Up - (?P<speed>\d+)/(?P<duplex>Full|Half)"
        ),
    ),
    ("phy_link_down", re.compile(r"^libphy: (?P<phy>[\w.@-]+):\w+ - Link is Down")),
    (
        "carrier_up",
        re.compile(r"ADDRCONF\(NETDEV_CHANGE\): (?P<iface>[\w.-]+): link becomes ready"),
    ),
    ("netdev_up", re.compile(r"ADDRCONF\(NETDEV_UP\): (?P<iface>[\w.-]+): link is not ready")),
    (
        "phy_failure",
        re.compile(
            rf"^(?:(?P<driver>[\w-]+) (?P<device>{BUS_ID})(?: (?P<iface>[\w.-]+))?: )?.*?"
            r"(?i:cannot attach to phy|could not attach (?:to )?phy|no phy at addr|"
            r"failed to connect (?:to )?phy|(?<!supply )phy\b.{0,40}\bnot found|no phy found|"
            r"mdio\S*: probe of \S+ failed)"
        ),
    ),
    (
        "kevent_dropped",
        re.compile(
            rf"^(?P<driver>[\w-]+) (?P<device>{BUS_ID}) (?P<iface>[\w.-]+): "
            r"kevent (?P<kevent>\d+) may have been dropped"
        ),
    ),
    (
        "usb_reset",
        re.compile(
            r"^usb (?P<device>\d+-[\d.]+): reset (?P<speed>[\w -]+?) USB device number "
            r"(?P<number>\d+)"
        ),
    ),
    (
        "usb_disconnect",
        re.compile(r"^usb (?P<device>\d+-[\d.]+): USB disconnect, device number (?P<number>\d+)"),
    ),
    ("usb_not_top_speed", re.compile(r"^usb (?P<device>\d+-[\d.]+): not running at top speed")),
    (
        "usb_error",  # r8152 "get_registers -71", "Tx status -71", "failed tx_urb -19"
        re.compile(
            r"^(?P<driver>[\w-]+) (?P<device>\d+-[\d.]+:\d+\.\d+) (?P<iface>[\w.-]+): "
            r".*?(?P<errno>-(?:71|110|32|19|108|62|5))\b"
        ),
    ),
    (
        "firmware_missing",
        re.compile(
            r"^(?:(?P<driver>[\w-]+) (?P<device>\S+): )?Direct firmware load for "
            r"(?P<firmware>\S+) failed with error (?P<errno>-?\d+)"
        ),
    ),
    (
        "wifi_chip",  # brcmfmac: brcmf_fw_alloc_request: using brcm/... for chip BCM43430/1
        re.compile(
            rf"^(?P<driver>brcmfmac)(?: (?P<device>{BUS_ID}))?: .*?(?:for chip |Firmware: )"
            r"(?P<chip>BCM\d{4,5}\w*)"
        ),
    ),
    (
        "device",  # any other line a driver wrote about its device: who drives what
        re.compile(
            rf"^(?P<driver>[A-Za-z][\w-]*) (?P<device>{BUS_ID})"
            r"(?: (?P<iface>[a-z][\w.-]{1,14}))?: "
        ),
    ),
]
_NEEDLES: dict[str, tuple[str, ...]] = {
    "register": ("register '",),
    "renamed": ("renamed",),
    "link_up": (
        "downlink",
        "ink is Up",
        "link up",
        "ink Is Up",
        "ink up",
        "ink is up",
        "link change",
        "carrier on",
    ),
    "link_down": ("ink is Down", "link down", "ink Down", "ink down", "ink is down", "carrier off"),
    "driver_version": (": v",),
    "firmware": ("successfully",),
    "chip": ("XID",),
    "description": ("Intel(R)",),
    "pcie_link": ("(PCIe:",),
    "pcie_bandwidth": ("PCIe bandwidth",),
    "mac": ("MAC: ",),
    "pci_device": (" type ",),
    "pci_bar": ("BAR ",),
    "pcie_link_up": ("link up",),
    "pcie_link_down": ("link down",),
    "usb_new_device": (" USB device number",),
    "usb_ids": ("idVendor",),
    "driver_registered": ("registered new",),
    "under_voltage": ("oltage",),
    "voltage_normalised": ("ormali",),
    "tx_timeout": ("WATCHDOG",),
    "csum_failure": ("csum failure",),
    "phy_link_up": ("libphy",),
    "carrier": (" carrier",),
    "machine_model": ("Machine model", "Hardware name"),
    "vendor_register": (", IRQ ",),
    "phy_link_down": ("libphy",),
    "carrier_up": ("NETDEV_CHANGE",),
    "netdev_up": ("NETDEV_UP",),
    "phy_failure": ("PHY", "phy", "probe of"),
    "kevent_dropped": ("kevent",),
    "usb_reset": ("reset ",),
    "usb_disconnect": ("disconnect",),
    "usb_not_top_speed": ("top speed",),
    "usb_error": ("-71", "-110", "-32", "-19", "-108", "-62", "-5"),
    "firmware_missing": ("Direct firmware",),
    "wifi_chip": ("brcmfmac",),
    "device": (": ",),
}


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
    for rx in (_SYSLOG_RE, _ISO_SYSLOG_RE, _ISO_RE, _HUMAN_TS_RE, _JOURNAL_RE):
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
            if not any(n in msg for n in _NEEDLES[kind]):
                continue  # a cheap test first: a long log has few NIC lines
            m = rx.search(msg)
            if m:
                fields = {k.rstrip("2"): v for k, v in m.groupdict().items() if v is not None}
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
