"""xsos (ryran/xsos: a summary of a live system or a sosreport) as people paste it: its
ETHTOOL section, one line per interface built from ethtool's settings and ``ethtool -i``, read
into :class:`LshwNetwork` records (``source`` "xsos").

The xsos script's ETHTOOL() prints, for each interface, its name, from v0.5.9 its PCI address
(ethtool -i's bus-info), then ``link=UP``/``link=DOWN`` (``link=up`` in later versions), the
speed and duplex when linked (``1000Mb/s full (autoneg=Y)``), the ring sizes in later versions,
and ``drv DRIVER vVERSION`` with `` / fw FIRMWARE`` when ethtool -i gives one:

    ETHTOOL
      eth0  link=UP 1000Mb/s full (autoneg=Y)  drv forcedeth v0.64
      eth2  link=DOWN                          drv e1000 v7.3.21-k6-1-NAPI / fw N/A

Its LSPCI and IP sections name no device that ties to an interface (a count and a product per
line; addresses and states), so they are not read here."""

from __future__ import annotations

import re

from .common import Parsed, finish, guarded, split_lines
from .lazy_pattern import later
from .lshw import MAX_NODES, LshwNetwork, LshwResult

_SECTION = later(r"^(?P<name>[A-Z][A-Z0-9_ -]{1,30})$")
_ROW = later(
    r"^\s+(?P<iface>[\w.:@-]{1,15})\s+(?:(?P<pci>[\da-f]{4}:[\da-f]{2}:[\da-f]{2}\.[0-7])\s+)?"
    r"link=(?P<link>[A-Za-z]{2,8})\b(?P<rest>.*)$"
)
_SPEED = later(r"^\s*(?P<mbps>\d{1,6})Mb/s\s+(?P<duplex>full|half)\b", re.IGNORECASE)
_DRV = later(r"\bdrv\s+(?P<drv>[\w-]{1,40})(?:\s+v(?P<ver>\S{1,40}))?(?:\s+/\s+fw\s+(?P<fw>.*))?")


def parse_xsos(text: str) -> Parsed[LshwResult]:
    return guarded("xsos", _parse, text, LshwResult)


def _parse(text: str) -> Parsed[LshwResult]:
    res = LshwResult()
    section = ""
    for line in split_lines(text):
        if m := _SECTION.match(line):
            section = m.group("name").strip()
            continue
        if section != "ETHTOOL" or not (m := _ROW.match(line)) or len(res.networks) >= MAX_NODES:
            continue
        node = LshwNetwork(node="network", source="xsos", logical_name=m.group("iface"))
        if m.group("pci"):
            node.bus_info = f"pci@{m.group('pci')}"
        state = m.group("link").lower()
        if state in ("up", "down"):
            node.config["link"] = "yes" if state == "up" else "no"
        if state == "up" and (speed := _SPEED.match(m.group("rest"))):
            node.size_mbps = float(speed.group("mbps"))
            node.config["duplex"] = speed.group("duplex").lower()
        if drv := _DRV.search(m.group("rest")):
            node.config["driver"] = drv.group("drv")
            if drv.group("ver"):
                node.config["driverversion"] = drv.group("ver")
            fw = (drv.group("fw") or "").strip()
            if fw and fw != "N/A":
                node.config["firmware"] = fw[:100]
        res.networks.append(node)
    return res, finish("xsos", text, len(res.networks), 0)
