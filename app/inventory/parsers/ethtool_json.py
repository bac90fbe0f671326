"""``ethtool --json IFACE`` (ethtool 5.10 and later): the settings as a JSON array of one object
per interface (`"ifname"`, `"speed"`, `"duplex"`, `"link-detected"`, the link-mode arrays ...).

A pasted one may carry the command line and a sudo prompt before it, and a mail client may have
re-wrapped it inside a JSON string (`"1000baseT/` / `Full" ],`, corpus/x86_lunn_kselftest_*):
the lines from the first one that opens the array are joined without their line breaks (JSON
needs none outside strings, and a wrap inside a string is the client's), then read with the
json module; what it cannot read gives no settings, never an exception."""

from __future__ import annotations

import json
import re
from typing import Any

from .common import Parsed, ParseWarning, guarded
from .ethtool import EthtoolSettings, parse_ethtool

_OPENS = re.compile(r"^\s*(?:\[\s*\{|\{\s*\"ifname\")")
_MODES = {
    "supported-link-modes": "supported_link_modes",
    "advertised-link-modes": "advertised_link_modes",
    "link-partner-advertised-link-modes": "link_partner_link_modes",
    "link-partner-modes": "link_partner_link_modes",
}
MAX_CHARS = 200_000  # one interface's settings are a few kilobytes


def parse_ethtool_any(text: str) -> Parsed[EthtoolSettings]:
    """`ethtool IFACE` in either form: JSON (`--json`) or the text ethtool prints."""
    if '"ifname"' not in text[:MAX_CHARS] or not looks_like_json(text):
        return parse_ethtool(text)
    return guarded("ethtool", _parse_json, text, EthtoolSettings)


def _parse_json(text: str) -> Parsed[EthtoolSettings]:
    found = parse_settings_json(text)
    if found is None:
        return EthtoolSettings(), [ParseWarning("ethtool", "its JSON could not be read")]
    return found, []


def looks_like_json(text: str) -> bool:
    return '"ifname"' in text[:MAX_CHARS] and any(_OPENS.match(ln) for ln in text.splitlines())


def parse_settings_json(text: str) -> EthtoolSettings | None:
    """The first interface's settings, or None when the text holds no readable JSON."""
    lines = text[:MAX_CHARS].splitlines()
    start = next((i for i, ln in enumerate(lines) if _OPENS.match(ln)), None)
    if start is None:
        return None
    try:
        data: Any = json.loads("".join(ln.strip() for ln in lines[start:]))
    except (ValueError, RecursionError):  # not JSON, or nested deeper than json can read
        return None
    item = data[0] if isinstance(data, list) and data else data
    return _settings(item) if isinstance(item, dict) else None


def _settings(item: dict[str, Any]) -> EthtoolSettings:
    res = EthtoolSettings()
    name = item.get("ifname")
    res.interface = name if isinstance(name, str) and 0 < len(name) <= 15 else None
    speed = item.get("speed")
    res.speed_mbps = speed if isinstance(speed, int) and 0 < speed < 10_000_000 else None
    duplex = item.get("duplex")
    res.duplex = duplex if duplex in ("Full", "Half") else None
    for key, attr in (("auto-negotiation", "autoneg"), ("link-detected", "link_detected")):
        value = item.get(key)
        setattr(res, attr, value if isinstance(value, bool) else None)
    port = item.get("port")
    res.port = port[:40] if isinstance(port, str) else None
    ports = item.get("supported-ports")
    if isinstance(ports, list):
        res.supported_ports = [p for p in ports if isinstance(p, str)][:8]
    for key, attr in _MODES.items():
        modes = item.get(key)
        if isinstance(modes, list) and not getattr(res, attr):
            setattr(res, attr, [m for m in modes if isinstance(m, str)][:64])
    return res
