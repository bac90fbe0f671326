"""One tolerant parser for ``lspci`` in all its usual variants.

Handles ``lspci``, ``-k``, ``-n``, ``-nn``, ``-v``, ``-vv``, ``-vvv``/``-vvvv`` and their
combinations, busybox ``lspci``, pastes starting mid-device and ``...`` elisions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .common import Parsed, ParseWarning, finish, guarded, is_ellipsis, is_noise, split_lines
from .lazy_pattern import later

_HEADER_RE = later(
    r"^(?:(?P<domain>[0-9a-fA-F]{4,8}):)?(?P<bus>[0-9a-fA-F]{2}):(?P<dev>[0-9a-fA-F]{2})"
    r"\.(?P<fn>[0-7])\s+(?P<rest>\S.*)$"
)
_PATH_RE = later(r"^(?:(?:[0-9a-fA-F]{4,8}:)?[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7]/)+")
_IDS_END_RE = later(r"\s*\[([0-9a-fA-F]{4}):([0-9a-fA-F]{4})\]$")
_IDS_ONLY_RE = later(r"^([0-9a-fA-F]{4}):([0-9a-fA-F]{4})$")
_DEVICE_IDS_RE = later(r"\bDevice ([0-9a-fA-F]{4}):([0-9a-fA-F]{4})\b")
_REV_RE = later(r"\s*\(rev ([0-9a-fA-F]{2})\)")
_PROGIF_RE = later(r"\s*\(prog-if ([0-9a-fA-F]{2})(?: \[[^\]]*\])?\)")
_CLASS_ID_RE = later(r"^(?:Class\s+)?([0-9a-fA-F]{4})$")
_CLASS_NAME_ID_RE = later(r"^(.*?)\s*\[([0-9a-fA-F]{4})\]$")
_VENDOR_RE = later(
    r"^(.*?(?:Inc\. and subsidiaries|Inc\. \[AMD(?:/ATI)?\]|Co\., Ltd\.|Corporation|Corp\."
    r"|Technologies, Inc\.|Technology Inc\.|Inc\.|Ltd\.|Limited|GmbH|AG|s\.r\.o\.))\s+(.+)$"
)
_LNKCAP_RE = later(r"LnkCap:\s*Port #\d+,\s*Speed ([\d.]+)GT/s,\s*Width x(\d+)")
_LNKSTA_RE = later(
    r"LnkSta:\s*Speed ([\d.]+)GT/s(?:\s*\((downgraded|ok)\))?,\s*Width x(\d+)"
    r"(?:\s*\((downgraded|ok)\))?"
)
_DEVCAP_RE = later(r"DevCap:\s*MaxPayload (\d+) bytes")
_DEVCTL_RE = later(r"MaxPayload (\d+) bytes, MaxReadReq (\d+) bytes")
_IRQ_RE = later(r"(?:routed to IRQ|\bIRQ) (\d+)")
_EXPRESS_RE = later(r"Capabilities: \[[0-9a-f]+\] Express (?:\(v\d\) )?(.+?)(?:, MSI [0-9a-f]+)?$")
# The fields lspci -v prints under a device (pciutils lspci.c show_verbose(), show_bases(),
# show_htype1(); ls-kernel.c show_kernel()): a post that lost the indentation (a forum's
# Markdown, a quote) leaves them at column 0, still the open device's, never a new device.
_FIELD_STARTS = (
    "Subsystem:", "Physical Slot:", "Device tree node:", "Flags:", "Control:", "Status:",
    "Latency:", "Interrupt:", "BIST result:", "Region ", "Expansion ROM at ", "I/O ports at ",
    "Memory at ", "Capabilities:", "Kernel driver in use:", "Kernel modules:", "Bus: primary=",
    "I/O behind bridge:", "Memory behind bridge:", "Prefetchable memory behind bridge:",
    "Secondary status:", "BridgeCtl:", "IOMMU group:", "NUMA node:", "DeviceName:",
)  # fmt: skip
_K_LINES = ("Subsystem:", "Kernel driver in use:", "Kernel modules:")  # what -k prints too
# How far into a line lspci's own line may start after a script's prefix ("IOMMU Group 117 ",
# "Group 12:\t"): such a prefix is short, and the scan stays bounded on any line.
_WRAPPER_MAX = 48


@dataclass
class PciDevice:
    slot: str | None  # as printed: "01:00.0" or "0001:01:00.0"; None for a headless fragment
    domain: str | None = None
    bus: str | None = None
    device: str | None = None
    function: int | None = None
    class_name: str | None = None
    class_id: str | None = None
    description: str | None = None  # "vendor device" as printed, without ids/rev
    vendor_name: str | None = None
    device_name: str | None = None
    vendor_id: str | None = None
    device_id: str | None = None
    revision: str | None = None
    prog_if: str | None = None
    subsystem: str | None = None
    subsystem_ids: str | None = None
    driver: str | None = None
    modules: list[str] = field(default_factory=list)
    irq: int | None = None
    lnkcap_speed_gts: float | None = None
    lnkcap_width: int | None = None
    lnksta_speed_gts: float | None = None
    lnksta_width: int | None = None
    speed_downgraded: bool | None = None
    width_downgraded: bool | None = None
    devcap_max_payload: int | None = None
    devctl_max_payload: int | None = None
    devctl_max_read_req: int | None = None
    express_type: str | None = None
    capabilities_denied: bool = False
    # The block was closed: another device or the blank line lspci -v prints after each block
    # (pciutils lspci.c show_device(): putchar('\n') when verbose) followed it. A block left
    # open at the end of a paste may have been cut before its kernel lines.
    closed: bool = False
    # -v's own detail lines read (Flags, Control, Region ...; not -k's Subsystem and kernel
    # lines): only a verbose block ends with lspci's blank line, so only it can be left open
    verbose_lines: int = 0
    # Control's I/O and Mem decode bits: a driver's probe enables them (pci_enable_device()), so
    # "I/O- Mem-" says no driver has the device, even in a block cut before its kernel lines.
    decoding: bool | None = None
    # The lines that said the link (lspci's LnkCap/LnkSta, or the kernel's bandwidth line):
    # a finding about the link quotes these, never words of another tool.
    link_lines: list[str] = field(default_factory=list)

    @property
    def address(self) -> str | None:
        """Full address with domain, e.g. ``0000:01:00.0``."""
        if self.bus is None or self.device is None or self.function is None:
            return None
        return f"{self.domain or '0000'}:{self.bus}:{self.device}.{self.function}"

    @property
    def ids(self) -> str | None:
        if self.vendor_id and self.device_id:
            return f"{self.vendor_id}:{self.device_id}"
        return None

    @property
    def is_network(self) -> bool:
        if self.class_id:
            return self.class_id.startswith("02")
        return bool(self.class_name) and (
            "Ethernet" in (self.class_name or "") or "Network" in (self.class_name or "")
        )

    @property
    def link_degraded(self) -> bool | None:
        """True when lspci says (downgraded) or the link runs below its capability."""
        if self.speed_downgraded or self.width_downgraded:
            return True
        if self.lnksta_speed_gts is None or self.lnkcap_speed_gts is None:
            return self.speed_downgraded  # None, or False when lspci said (ok)
        return self.lnksta_speed_gts < self.lnkcap_speed_gts or (
            self.lnksta_width is not None
            and self.lnkcap_width is not None
            and self.lnksta_width < self.lnkcap_width
        )


@dataclass
class LspciResult:
    devices: list[PciDevice] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # lspci's own warnings
    elided: bool = False

    def by_slot(self, slot: str) -> PciDevice | None:
        for d in self.devices:
            if d.slot == slot or d.address == slot:
                return d
        return None

    def network(self) -> list[PciDevice]:
        return [d for d in self.devices if d.is_network]


def parse_lspci(text: str) -> Parsed[LspciResult]:
    """Any ``lspci`` variant; detail lines are read when present."""
    return guarded("lspci", _parse_lspci, text, LspciResult)


def _split_names(desc: str) -> tuple[str | None, str | None]:
    if desc.startswith("Device "):
        return None, desc
    m = _VENDOR_RE.match(desc)
    if m:
        return m.group(1), m.group(2)
    return None, desc


def _parse_header(m: re.Match[str]) -> PciDevice:
    dev = PciDevice(
        slot=m.group(0).split()[0],
        domain=m.group("domain").lower() if m.group("domain") else None,
        bus=m.group("bus").lower(),
        device=m.group("dev").lower(),
        function=int(m.group("fn")),
    )
    rest = m.group("rest").strip()
    pm = _PROGIF_RE.search(rest)
    if pm:
        dev.prog_if = pm.group(1)
        rest = (rest[: pm.start()] + rest[pm.end() :]).strip()
    rm = _REV_RE.search(rest)
    if rm:
        dev.revision = rm.group(1).lower()
        rest = (rest[: rm.start()] + rest[rm.end() :]).strip()
    cls, sep, desc = rest.partition(": ")
    if not sep:
        cls, desc = "", rest
    cls = cls.strip()
    cm = _CLASS_ID_RE.match(cls)
    if cm:
        dev.class_id = cm.group(1).lower()
    else:
        nm = _CLASS_NAME_ID_RE.match(cls)
        if nm:
            dev.class_name, dev.class_id = nm.group(1), nm.group(2).lower()
        elif cls:
            dev.class_name = cls
    desc = desc.strip()
    im = _IDS_END_RE.search(desc)
    if im:
        dev.vendor_id, dev.device_id = im.group(1).lower(), im.group(2).lower()
        desc = desc[: im.start()].strip()
    else:
        om = _IDS_ONLY_RE.match(desc)
        if om:
            dev.vendor_id, dev.device_id = om.group(1).lower(), om.group(2).lower()
            desc = ""
        else:
            dm = _DEVICE_IDS_RE.search(desc)
            if dm and desc.startswith("Device "):
                dev.vendor_id, dev.device_id = dm.group(1).lower(), dm.group(2).lower()
    if desc:
        dev.description = desc
        dev.vendor_name, dev.device_name = _split_names(desc)
    return dev


def _wrapped(line: str) -> PciDevice | None:
    """lspci's own device line after a short prefix another program printed before it: the
    VFIO "IOMMU groups" scripts pasted on forums run ``printf 'IOMMU Group %s '`` then
    ``lspci -nns``, or print ``IOMMU Group N:`` alone and each device's line after a tab;
    or a forum post glued the echoed command to the first line (``lspci -nn | grep -i
    net03:00.0 Ethernet controller [0200]: ...``), where the address starts after a character
    that cannot be part of it (lspci prints it as ``%02x:%02x.%d``: not a hex digit, ':', '.').
    Only lspci's numeric shape counts there (a class id and the vendor:device ids, as
    ``-n``/``-nn`` print them), so a sentence that merely holds an address is not one."""
    for i in range(min(len(line), _WRAPPER_MAX)):
        if (i and line[i - 1] in _IN_ADDRESS) or line[i] not in _HEX:
            continue
        m = _HEADER_RE.match(line[i:])
        if m:
            dev = _parse_header(m)
            if dev.class_id and dev.ids:
                return dev
    return None


_HEX = frozenset("0123456789abcdefABCDEF")
_IN_ADDRESS = _HEX | {":", "."}  # what may precede a character inside an address


def _detail(dev: PciDevice, line: str) -> bool:
    """Read one indented detail line into ``dev``; False if it is not an lspci detail."""
    s = line.strip()
    if s.startswith("Subsystem:"):
        value = s.split(":", 1)[1].strip()
        im = _IDS_END_RE.search(value)
        if im:
            dev.subsystem_ids = f"{im.group(1).lower()}:{im.group(2).lower()}"
            value = value[: im.start()].strip()
        dev.subsystem = value or None
        return True
    if s.startswith("Kernel driver in use:"):
        dev.driver = s.split(":", 1)[1].strip() or None
        return True
    if s.startswith("Kernel modules:"):
        dev.modules = [x.strip() for x in s.split(":", 1)[1].split(",") if x.strip()]
        return True
    if s.startswith("Control:"):
        bits = s.split()
        dev.decoding = (
            "I/O+" in bits or "Mem+" in bits if ("Mem-" in bits or "Mem+" in bits) else None
        )
        return True
    if s.startswith(("Flags:", "Interrupt:")):
        im2 = _IRQ_RE.search(s)
        if im2 and dev.irq is None:
            dev.irq = int(im2.group(1))
        return True
    if s.startswith("Capabilities:"):
        if "<access denied>" in s:
            dev.capabilities_denied = True
        em = _EXPRESS_RE.search(s)
        if em:
            dev.express_type = em.group(1).strip()
        return True
    lm = _LNKCAP_RE.search(s)
    if lm:
        dev.lnkcap_speed_gts = float(lm.group(1))
        dev.lnkcap_width = int(lm.group(2))
        dev.link_lines.append(s[:300])
        return True
    lm = _LNKSTA_RE.search(s)
    if lm:
        dev.lnksta_speed_gts = float(lm.group(1))
        dev.lnksta_width = int(lm.group(3))
        dev.link_lines.append(s[:300])
        if lm.group(2):
            dev.speed_downgraded = lm.group(2) == "downgraded"
        if lm.group(4):
            dev.width_downgraded = lm.group(4) == "downgraded"
        return True
    dm = _DEVCAP_RE.search(s)
    if dm:
        dev.devcap_max_payload = int(dm.group(1))
        return True
    dm = _DEVCTL_RE.search(s)
    if dm:
        dev.devctl_max_payload = int(dm.group(1))
        dev.devctl_max_read_req = int(dm.group(2))
        return True
    # Any other lspci detail: "Key: value", flag lists ("ExtTag- RBE+"), hex dumps...
    return bool(re.match(r"^[\w#<>\[\]()/+.,:=*-]", s))


def _parse_lspci(text: str) -> Parsed[LspciResult]:
    result = LspciResult()
    bad = 0
    orphan_lines = 0
    current: PciDevice | None = None
    warnings: list[ParseWarning] = []
    heading = False  # the last line was short and unread: a group heading if devices follow
    lines = split_lines(text)
    if lines and not lines[-1]:
        lines.pop()  # the text's own last newline; a blank line before it is lspci's, closing
    for raw in lines:
        line = _PATH_RE.sub("", raw)  # lspci -PP: "00:01.0/01:00.0 Ethernet ..." → "01:00.0 ..."
        if is_ellipsis(line):
            result.elided = True
            current = None
            continue
        if is_noise(line):
            if current is not None and not line.strip():
                current.closed = True
            continue
        if not line[:1].isspace():
            heading = False
            m = _HEADER_RE.match(line)
            header = _parse_header(m) if m else _wrapped(line)
            if header is not None:
                _close(current)
                current = header
                result.devices.append(current)
                continue
            if line.startswith(("lspci:", "pcilib:")):
                result.notes.append(line.strip())
                continue
            if current is not None and line.startswith(_FIELD_STARTS):
                _detail(current, line)  # a field whose indentation the post lost
                continue
            if re.match(r"^[0-9a-f]{2,3}: (?:[0-9a-f]{2} ?){1,16}$", line.strip()):
                continue  # lspci -x hex dump
            bad += 1
            heading = len(line) <= _WRAPPER_MAX
            continue
        wrapped = _wrapped(line)  # "\t0a:00.0 Ethernet controller [0200]: ..." under a group line
        if wrapped is not None:
            _close(current)
            current = wrapped
            result.devices.append(current)
            if heading:  # "IOMMU Group 17:" was the heading of this device: read, not unread
                bad -= 1
                heading = False
            continue
        heading = False
        # indented detail line
        if current is None:
            current = PciDevice(slot=None)
            result.devices.append(current)
            result.elided = True
        if current.slot is None:
            orphan_lines += 1
        if not _detail(current, line):
            bad += 1
        elif not line.strip().startswith(_K_LINES):
            current.verbose_lines += 1
    # drop a headless fragment that yielded nothing useful
    result.devices = [d for d in result.devices if d.slot is not None or _has_data(d)]
    if orphan_lines and any(d.slot is None for d in result.devices):
        warnings.append(
            ParseWarning(
                "lspci",
                f"{orphan_lines} detail lines came before any device header "
                "(a partial paste); they could not be tied to a device",
            )
        )
    found = len(result.devices)
    return result, finish("lspci", text, found, bad, warnings)


def _close(device: PciDevice | None) -> None:
    if device is not None:
        device.closed = True


def _has_data(d: PciDevice) -> bool:
    return any(
        v is not None
        for v in (
            d.lnksta_speed_gts,
            d.lnkcap_speed_gts,
            d.devctl_max_payload,
            d.devcap_max_payload,
            d.driver,
            d.irq,
        )
    )
