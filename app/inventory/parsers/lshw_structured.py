"""``lshw -json`` and ``lshw -xml``: the same network nodes as ``lshw -C network``, in lshw's
structured formats (src/core/hw.cc hwNode::asJSON() and asXML()), read into
:class:`LshwNetwork` records.

Pastes of these are excerpts far more often than whole documents (a node out of a machine's
tree, cut by a forum or an issue tracker), so neither is parsed as JSON or XML: each is read
line by line, as lshw prints one member or element per line.

- JSON: ``"class" : "network"``, ``"businfo" : "pci@0000:02:00.0"``, ``"logicalname" : "eth2"``
  (a list when the node has several), ``"size"``/``"capacity"`` in ``"units" : "bit/s"``,
  ``"configuration" : { "driver" : "tg3", "link" : "no" ... }``, ``"disabled" : true``.
- XML: ``<node id="network" claimed="true" class="network" handle="PCI:0000:02:00.0">``, then
  ``<businfo>``, ``<logicalname>``, ``<size units="bit/s">``, and ``<setting id="driver"
  value="bnx2"/>`` in ``<configuration>``; a Landscape client prefixes every tag (``lshw:``).

A paste that begins inside a node (no ``class``/``<node`` line above its fields) is one node
when its fields say it is a network one: lshw's ``ethernet`` or ``wireless`` capability, or a
``driver`` setting beside a ``link`` one (what only network nodes carry)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .common import Parsed, finish, guarded, split_lines
from .lazy_pattern import later
from .lshw import MAX_NODES, LshwNetwork, LshwResult

_JSON_MEMBER = later(r'^\s*"(?P<key>[a-z_]{1,30})"\s*:\s*(?P<value>.*?)\s*,?\s*$')
_JSON_STRING = later(r'^"(?P<s>(?:[^"\\]|\\.){0,300})"$')
_XML_NODE = later(r"^\s*<(?:\w{1,20}:)?node\b(?P<attrs>[^>]{0,400})>")
_XML_NODE_END = later(r"^\s*</(?:\w{1,20}:)?node>")
_XML_TEXT = later(
    r"^\s*<(?:\w{1,20}:)?(?P<tag>description|product|vendor|businfo|logicalname|serial|size|"
    r"capacity)\b(?P<attrs>[^>]{0,100})>(?P<text>[^<]{0,300})</"
)
_XML_SETTING = later(
    r'^\s*<(?:\w{1,20}:)?setting\s+id="(?P<id>[\w-]{1,30})"\s+value="(?P<value>[^"]{0,300})"'
)
_XML_CAPABILITY = later(r'^\s*<(?:\w{1,20}:)?capability\s+id="(?P<id>[\w.-]{1,40})"')
_ATTR = later(r'(?P<name>[a-z]{1,20})="(?P<value>[^"]{0,200})"')
_NETWORK_CAPS = frozenset({"ethernet", "wireless"})


def parse_lshw_json(text: str) -> Parsed[LshwResult]:
    return guarded("lshw -json", _parse_json, text, LshwResult)


def parse_lshw_xml(text: str) -> Parsed[LshwResult]:
    return guarded("lshw -xml", _parse_xml, text, LshwResult)


@dataclass
class _Node:
    """One lshw node being read: its own members, its settings and capability ids."""

    fields: dict[str, str] = field(default_factory=dict)
    config: dict[str, str] = field(default_factory=dict)
    caps: list[str] = field(default_factory=list)
    units: str = ""

    def is_network(self) -> bool:
        if "class" in self.fields:
            return self.fields["class"] == "network"
        # a node cut above its "class": its capabilities or settings say what it is
        return bool(_NETWORK_CAPS & set(self.caps)) or {"driver", "link"} <= set(self.config)

    def record(self) -> LshwNetwork:
        net = LshwNetwork(
            node=self.fields.get("id") or "network",
            unclaimed=self.fields.get("claimed") == "false",
            disabled=self.fields.get("disabled") == "true",
        )
        for key, attr in (("description", "description"), ("product", "product")):
            setattr(net, attr, self.fields.get(key) or None)
        net.vendor = self.fields.get("vendor") or None
        net.bus_info = self.fields.get("businfo") or None
        name = self.fields.get("logicalname", "")
        net.logical_name = name if name and "/" not in name else None
        net.serial = self.fields.get("serial") or None
        net.size_mbps = _mbps(self.fields.get("size"), self.units)
        net.capacity_mbps = _mbps(self.fields.get("capacity"), self.units)
        net.config = dict(self.config)
        net.capabilities = tuple(self.caps[:64])
        return net


def _mbps(value: str | None, units: str) -> float | None:
    if not value or not re.fullmatch(r"\d{1,15}", value) or units not in ("bit/s", ""):
        return None
    return int(value) / 1_000_000


def _scalar(raw: str) -> str | None:
    """A JSON member's value as text: a string, number or boolean; None for "{", "[" ..."""
    if m := _JSON_STRING.match(raw):
        return m.group("s").replace('\\"', '"')
    if re.fullmatch(r"-?\d{1,20}(?:\.\d{1,10})?|true|false", raw):
        return raw
    return None


def _parse_json(text: str) -> Parsed[LshwResult]:
    res = LshwResult()
    # the open objects, innermost last: (name of the member that opened it, node or None)
    stack: list[tuple[str, _Node | None]] = []
    headless = _Node()  # members read before any object opens: a paste cut inside a node
    seen = 0

    def node_of() -> _Node:
        for _name, node in reversed(stack):
            if node is not None:
                return node
        return headless

    def close(node: _Node | None) -> None:
        if node is not None and node.is_network() and len(res.networks) < MAX_NODES:
            res.networks.append(node.record())

    names: list[str] = []  # "logicalname" : [ "eth0", ... ]: the list being read
    for line in split_lines(text):
        stripped = line.strip()
        if names and stripped.startswith('"'):
            names.append(stripped.strip('",'))
            continue
        if stripped.startswith("]"):
            if names[:1] == ["logicalname"] and len(names) > 1:
                node_of().fields.setdefault("logicalname", names[1])
            names = []
            continue
        if stripped in ("{", "{,"):
            stack.append(("", _Node()))  # an anonymous object in "children": a node
            continue
        if stripped.startswith("}"):
            if stack:
                close(stack.pop()[1])
            continue
        m = _JSON_MEMBER.match(line)
        if not m:
            continue
        seen += 1
        key, raw = m.group("key"), m.group("value")
        if raw.startswith("{"):
            stack.append((key, None))  # "configuration" : { ..., "capabilities" : { ...
            continue
        if raw.startswith("["):
            names = [key] if key == "logicalname" else []
            continue
        value = _scalar(raw)
        if value is None:
            continue
        inner = stack[-1][0] if stack else ""
        node = node_of()
        if inner == "configuration":
            node.config[key] = value[:200]
        elif inner == "capabilities":
            node.caps.append(key)
        elif key == "units":
            node.units = value
        elif not inner:
            node.fields.setdefault(key, value[:300])
    for _, left in reversed(stack):  # the excerpt ends inside these objects
        close(left)
    if not res.networks:
        close(headless)
    return res, finish("lshw -json", text, len(res.networks), 0 if seen else 1)


def _parse_xml(text: str) -> Parsed[LshwResult]:
    res = LshwResult()
    stack: list[_Node] = []
    headless = _Node()
    seen = 0

    def close(node: _Node) -> None:
        if node.is_network() and len(res.networks) < MAX_NODES:
            res.networks.append(node.record())

    for line in split_lines(text):
        if m := _XML_NODE.match(line):
            seen += 1
            node = _Node()
            node.fields.update(
                {a.group("name"): a.group("value") for a in _ATTR.finditer(m["attrs"])}
            )
            stack.append(node)
            continue
        if _XML_NODE_END.match(line):
            if stack:
                close(stack.pop())
            continue
        node = stack[-1] if stack else headless
        if m := _XML_TEXT.match(line):
            seen += 1
            node.fields.setdefault(m.group("tag"), m.group("text").strip())
            if units := re.search(r'units="([^"]{1,20})"', m.group("attrs")):
                node.units = units.group(1)
        elif m := _XML_SETTING.match(line):
            seen += 1
            node.config[m.group("id")] = m.group("value")
        elif m := _XML_CAPABILITY.match(line):
            seen += 1
            node.caps.append(m.group("id"))
    for node in reversed(stack):
        close(node)
    if not res.networks:
        close(headless)
    return res, finish("lshw -xml", text, len(res.networks), 0 if seen else 1)
