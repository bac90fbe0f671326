"""Parsers for ``ethtool IFACE`` and ``ethtool -i/-k/-g/-l/-c IFACE``."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TypeVar

from .common import Parsed, ParseWarning, finish, guarded, is_noise, split_lines, to_int
from .lazy_pattern import later

_ERROR_RE = later(
    r"^\s*(?:Cannot |netlink error|No data available|Operation not permitted|"
    r"ethtool: |Could not |Error)",
    re.IGNORECASE,
)
_HEADER_RE = later(
    r"^\s*(Settings|Features|Ring parameters|Channel parameters|Coalesce parameters)"
    r" for (\S+?):\s*$"
)
_KV_RE = later(r"^\s*([A-Za-z][^:]*?):\s*(.*)$")
_SPEED_RE = later(r"^(\d+)\s*Mb/s$")
_MODE_KEYS = {
    "Supported link modes": "supported_link_modes",
    "Advertised link modes": "advertised_link_modes",
    "Link partner advertised link modes": "link_partner_link_modes",
}


def _error_warning(source: str, line: str) -> ParseWarning:
    if "not supported" in line.lower():
        return ParseWarning(source, f"the driver does not offer this ({line.strip()})")
    return ParseWarning(source, f"ethtool reported an error: {line.strip()}")


def _header(line: str, kind: str) -> str | None:
    m = _HEADER_RE.match(line)
    if m and m.group(1) == kind:
        return m.group(2)
    return None


# --- ethtool IFACE -------------------------------------------------------------


@dataclass
class EthtoolSettings:
    interface: str | None = None
    speed_mbps: int | None = None  # None when "Unknown!"
    duplex: str | None = None  # "Full" / "Half"; None when unknown
    autoneg: bool | None = None
    port: str | None = None
    supported_ports: list[str] = field(default_factory=list)
    supported_link_modes: list[str] = field(default_factory=list)
    advertised_link_modes: list[str] = field(default_factory=list)
    link_partner_link_modes: list[str] = field(default_factory=list)
    link_detected: bool | None = None
    extra: dict[str, str] = field(default_factory=dict)

    @property
    def max_supported_mbps(self) -> int | None:
        return _fastest(self.supported_link_modes)

    @property
    def max_partner_mbps(self) -> int | None:
        """The fastest mode the other end advertised (phylib's and mii's lp_advertising, filled
        once autonegotiation completed; igb, igc and cdc_ncm never fill it: None)."""
        return _fastest(self.link_partner_link_modes)


def _fastest(modes: list[str]) -> int | None:
    best: int | None = None
    for mode in modes:
        m = re.match(r"^(\d+)base", mode)
        if m:
            best = max(best or 0, int(m.group(1)))
    return best


def _modes(value: str) -> list[str]:
    value = value.strip()
    if not value or value == "Not reported":
        return []
    return value.split()


def parse_ethtool(text: str) -> Parsed[EthtoolSettings]:
    """``ethtool IFACE``: speed, duplex, autoneg, port, link modes, link detected."""
    return guarded("ethtool", _parse_ethtool, text, EthtoolSettings)


def _yes_no(value: str) -> bool | None:
    v = value.strip().lower()
    if v in {"yes", "on"}:
        return True
    if v in {"no", "off"}:
        return False
    return None


def _parse_ethtool(text: str) -> Parsed[EthtoolSettings]:
    res = EthtoolSettings()
    warnings: list[ParseWarning] = []
    found = bad = 0
    list_key: str | None = None
    last_extra: str | None = None
    for line in split_lines(text):
        if is_noise(line):
            continue
        iface = _header(line, "Settings")
        if iface:
            res.interface = iface
            found += 1
            list_key = last_extra = None
            continue
        if _ERROR_RE.match(line):
            warnings.append(_error_warning("ethtool", line))
            continue
        m = _KV_RE.match(line)
        if not m or not m.group(1).strip() or ("/" in m.group(1) and " " not in m.group(1)):
            if list_key is not None and line.strip():
                getattr(res, list_key).extend(_modes(line))
                continue
            if last_extra is not None:
                res.extra[last_extra] += " " + line.strip()
                continue
            bad += 1
            continue
        key, value = m.group(1).strip(), m.group(2).strip()
        list_key = last_extra = None
        found += 1
        if key in _MODE_KEYS:
            list_key = _MODE_KEYS[key]
            getattr(res, list_key).extend(_modes(value))
        elif key == "Supported ports":
            res.supported_ports = value.strip("[] ").split()
        elif key == "Speed":
            sm = _SPEED_RE.match(value)
            res.speed_mbps = int(sm.group(1)) if sm else None
        elif key == "Duplex":
            res.duplex = value if value in {"Full", "Half"} else None
        elif key == "Auto-negotiation":
            res.autoneg = _yes_no(value)
        elif key == "Port":
            res.port = value or None
        elif key == "Link detected":
            res.link_detected = _yes_no(value)
        else:
            res.extra[key] = value
            last_extra = key
    return res, finish("ethtool", text, found, bad, warnings)


# --- ethtool -i ----------------------------------------------------------------


@dataclass
class EthtoolDriverInfo:
    driver: str | None = None
    version: str | None = None
    firmware_version: str | None = None
    bus_info: str | None = None
    extra: dict[str, str] = field(default_factory=dict)

    @property
    def bus_type(self) -> str:
        """``pci``, ``usb``, ``sdio``, ``platform`` or ``unknown`` from the bus-info string."""
        b = self.bus_info or ""
        if re.match(r"^mmc\d+:[0-9a-f]{4}:\d+$", b):
            # an SDIO function, "mmc1:0001:1" (drivers/mmc/core/sdio_bus.c sdio_add_func())
            return "sdio"
        if b.startswith("usb-") or re.match(r"^\d+-[\d.]+(?::\d+\.\d+)?$", b):
            return "usb"
        if re.match(r"^(?:[0-9a-f]{4,8}:)?[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]$", b):
            return "pci"
        if b:
            return "platform"
        return "unknown"


def parse_ethtool_driver(text: str) -> Parsed[EthtoolDriverInfo]:
    """``ethtool -i IFACE``: driver, version, firmware-version, bus-info."""
    return guarded("ethtool -i", _parse_ethtool_driver, text, EthtoolDriverInfo)


def _parse_ethtool_driver(text: str) -> Parsed[EthtoolDriverInfo]:
    res = EthtoolDriverInfo()
    warnings: list[ParseWarning] = []
    found = bad = 0
    for line in split_lines(text):
        if is_noise(line):
            continue
        if _ERROR_RE.match(line):
            warnings.append(_error_warning("ethtool -i", line))
            continue
        m = re.match(r"^\s*([a-z][a-z-]*):\s*(.*)$", line)
        if not m:
            bad += 1
            continue
        key, value = m.group(1), m.group(2).strip()
        if value or key not in {"driver", "version", "firmware-version", "bus-info"}:
            found += 1
        v = value or None
        if key == "driver":
            res.driver = v
        elif key == "version":
            res.version = v
        elif key == "firmware-version":
            res.firmware_version = v
        elif key == "bus-info":
            res.bus_info = v
        else:
            res.extra[key] = value
    return res, finish("ethtool -i", text, found, bad, warnings)


# --- ethtool -k ----------------------------------------------------------------


@dataclass(frozen=True)
class Feature:
    enabled: bool
    fixed: bool = False
    requested: bool | None = None  # "[requested on]" after a failed change


@dataclass
class EthtoolFeatures:
    interface: str | None = None
    features: dict[str, Feature] = field(default_factory=dict)

    def is_on(self, name: str) -> bool | None:
        f = self.features.get(name)
        return f.enabled if f else None


_FEATURE_RE = later(r"^\s*([\w-]+):\s*(on|off)(?:\s*\[(fixed|requested (?:on|off))\])?\s*$")


def parse_ethtool_features(text: str) -> Parsed[EthtoolFeatures]:
    """``ethtool -k IFACE``: ``feature: on|off [fixed]``."""
    return guarded("ethtool -k", _parse_ethtool_features, text, EthtoolFeatures)


def _parse_ethtool_features(text: str) -> Parsed[EthtoolFeatures]:
    res = EthtoolFeatures()
    warnings: list[ParseWarning] = []
    bad = 0
    for line in split_lines(text):
        if is_noise(line):
            continue
        iface = _header(line, "Features")
        if iface:
            res.interface = iface
            continue
        if line.strip() == "Actual changes:":
            continue
        if _ERROR_RE.match(line):
            warnings.append(_error_warning("ethtool -k", line))
            continue
        m = _FEATURE_RE.match(line)
        if not m:
            bad += 1
            continue
        tag = m.group(3) or ""
        requested = None
        if tag.startswith("requested"):
            requested = tag.endswith("on")
        res.features[m.group(1)] = Feature(
            enabled=m.group(2) == "on", fixed=tag == "fixed", requested=requested
        )
    return res, finish("ethtool -k", text, len(res.features), bad, warnings)


# --- ethtool -g / -l (two sections of "Key: number") ----------------------------


@dataclass
class EthtoolSections:
    interface: str | None = None
    maximums: dict[str, int | None] = field(default_factory=dict)
    current: dict[str, int | None] = field(default_factory=dict)
    text_values: dict[str, str] = field(default_factory=dict)

    @property
    def rx(self) -> int | None:
        return self.current.get("RX")

    @property
    def tx(self) -> int | None:
        return self.current.get("TX")


@dataclass
class EthtoolRings(EthtoolSections):
    @property
    def rx_max(self) -> int | None:
        return self.maximums.get("RX")

    @property
    def tx_max(self) -> int | None:
        return self.maximums.get("TX")


@dataclass
class EthtoolChannels(EthtoolSections):
    @property
    def combined_max(self) -> int | None:
        return self.maximums.get("Combined")

    @property
    def combined(self) -> int | None:
        return self.current.get("Combined")


def parse_ethtool_rings(text: str) -> Parsed[EthtoolRings]:
    """``ethtool -g IFACE``: pre-set maximums vs current ring sizes."""
    return guarded(
        "ethtool -g",
        lambda t: _parse_sections(t, "ethtool -g", "Ring parameters", EthtoolRings()),
        text,
        EthtoolRings,
    )


def parse_ethtool_channels(text: str) -> Parsed[EthtoolChannels]:
    """``ethtool -l IFACE``: pre-set maximums vs current channel counts."""
    return guarded(
        "ethtool -l",
        lambda t: _parse_sections(t, "ethtool -l", "Channel parameters", EthtoolChannels()),
        text,
        EthtoolChannels,
    )


_T = TypeVar("_T", bound=EthtoolSections)


def _parse_sections(text: str, source: str, kind: str, res: _T) -> tuple[_T, list[ParseWarning]]:
    warnings: list[ParseWarning] = []
    found = bad = 0
    table: dict[str, int | None] | None = None
    for line in split_lines(text):
        if is_noise(line):
            continue
        iface = _header(line, kind)
        if iface:
            res.interface = iface
            continue
        s = line.strip()
        if s == "Pre-set maximums:":
            table = res.maximums
            continue
        if s == "Current hardware settings:":
            table = res.current
            continue
        if _ERROR_RE.match(line):
            warnings.append(_error_warning(source, line))
            continue
        m = _KV_RE.match(line)
        if not m or not m.group(2).strip():
            bad += 1
            continue
        key, value = m.group(1).strip(), m.group(2).strip()
        number = to_int(value)
        if number is None and value != "n/a":
            res.text_values[key] = value
        if table is None:
            table = res.maximums  # a paste without the section title
        table[key] = number
        found += 1
    return res, finish(source, text, found, bad, warnings)


# --- ethtool -c ----------------------------------------------------------------


@dataclass
class EthtoolCoalesce:
    interface: str | None = None
    adaptive_rx: bool | None = None
    adaptive_tx: bool | None = None
    params: dict[str, int | None] = field(default_factory=dict)
    extra: dict[str, str] = field(default_factory=dict)  # e.g. "CQE mode RX": "n/a"
    # Some field shows "n/a": netlink's print (ethtool/netlink/coalesce.c coalesce_reply_cb,
    # show_u32/show_bool), which shows only what the kernel reported (net/ethtool/coalesce.c
    # coalesce_put_u32: a zero the driver does not support is left out). The ioctl print
    # (ethtool.c dump_coalesce: ethtool 4.19 and 5.4, OpenWrt's netlink-less build, a kernel
    # without CONFIG_ETHTOOL_NETLINK) shows every field of struct ethtool_coalesce, so its
    # "Adaptive RX: off" or "0" says nothing about what the driver supports.
    per_attribute: bool = False

    @property
    def every_field_shown(self) -> bool:
        """The ioctl print: every field shown, supported or not (see `per_attribute`)."""
        return not self.per_attribute and (self.adaptive_rx is not None or bool(self.params))

    @property
    def rx_usecs(self) -> int | None:
        return self.params.get("rx-usecs")

    @property
    def rx_frames(self) -> int | None:
        return self.params.get("rx-frames")

    @property
    def tx_usecs(self) -> int | None:
        return self.params.get("tx-usecs")


_ADAPTIVE_RE = later(r"^\s*Adaptive RX:\s*(\S+)\s+TX:\s*(\S+)\s*$")
_PAIR_RE = later(r"^\s*([A-Za-z][\w ]*?) RX:\s*(\S+)\s+TX:\s*(\S+)\s*$")


def parse_ethtool_coalesce(text: str) -> Parsed[EthtoolCoalesce]:
    """``ethtool -c IFACE``: adaptive RX/TX and the coalescing parameters."""
    return guarded("ethtool -c", _parse_ethtool_coalesce, text, EthtoolCoalesce)


def _parse_ethtool_coalesce(text: str) -> Parsed[EthtoolCoalesce]:
    res = EthtoolCoalesce()
    warnings: list[ParseWarning] = []
    found = bad = 0
    for line in split_lines(text):
        if is_noise(line):
            continue
        iface = _header(line, "Coalesce parameters")
        if iface:
            res.interface = iface
            continue
        if _ERROR_RE.match(line):
            warnings.append(_error_warning("ethtool -c", line))
            continue
        m = _ADAPTIVE_RE.match(line)
        if m:
            res.adaptive_rx = _yes_no(m.group(1))
            res.adaptive_tx = _yes_no(m.group(2))
            res.per_attribute |= "n/a" in (m.group(1), m.group(2))
            found += 1
            continue
        m = _PAIR_RE.match(line)
        if m:  # e.g. "CQE mode RX: n/a  TX: n/a"
            res.extra[f"{m.group(1)} RX"] = m.group(2)
            res.extra[f"{m.group(1)} TX"] = m.group(3)
            res.per_attribute |= "n/a" in (m.group(2), m.group(3))
            found += 1
            continue
        m = re.match(r"^\s*([a-z][\w-]*):\s*(\S+)\s*$", line)
        if not m:
            bad += 1
            continue
        res.params[m.group(1)] = to_int(m.group(2))
        res.per_attribute |= m.group(2) == "n/a"
        found += 1
    return res, finish("ethtool -c", text, found, bad, warnings)
