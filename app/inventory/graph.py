"""One device graph from every source: sightings that share a key (PCI address, USB port
path, USB bus/device number, interface name or former name, MAC) are one device.

Which source wins for a field is written once, in ``PRECEDENCE``; within one source the
newest line wins (the kernel log is in time order). The result does not depend on the order
the sources were read in.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any

from sbctune.inventory.log_names import (
    _DEVICE_KINDS,
    _FORMER,
    _SOURCE,
    LOG_SOURCE,
    _log_only,
    _logged_key_lists,
    _renamed,
    _split_shared,
    reused_names,
    shared_devices,
)
from sbctune.inventory.sightings import Fact, Key, Sighting, says_any

# Best first. A source not listed for a field is not used for it.
_DEFAULT = (
    "sysfs",
    "ethtool -i",
    "ethtool",
    "xsos",  # xsos's ETHTOOL section: ethtool's settings and -i, summarised (parsers/xsos.py)
    "lshw",
    "hwinfo",
    "iwinfo",
    "networkctl",
    "nmcli",  # NetworkManager's overview: "ethernet (bcmgenet), ..., hw" (nmcli_overview.py)
    "inxi",
    "mmcli",  # ModemManager's modem block: its net port's device and drivers (parsers/mmcli.py)
    "mii-tool",
    "ubus",
    "sysfs pci",  # a PCI function's driver link: its driver, a transport's where the NIC is a child
    "lspci",
    "lsusb -t",
    "lsusb",
    "ip",
    "dmesg",
    "interrupts",
    "of compatible",  # what the node's compatible makes the kernel bind (of_sightings.py)
)
# "/proc/net/bonding": a bond's port blocks, the port's own ethtool link settings and MII
# status as the bond last read them (bond_sightings.py), a snapshot like sysfs
_LINK_SOURCES = (
    *("dmesg", "ethtool", "xsos", "sysfs", "/proc/net/bonding", "udevadm", "lshw", "hwinfo"),
    *("networkctl", "inxi", "ubus", "mii-tool", "ip"),
)
_SPEED_SOURCES = (
    *("ethtool", "xsos", "sysfs", "/proc/net/bonding", "lshw", "networkctl", "inxi", "ubus"),
    *("mii-tool", "dmesg"),
)
PRECEDENCE: dict[str, tuple[str, ...]] = {
    # The last kernel log line about the link is newer than any snapshot a user pastes
    # beside it: "Link is Down" after ethtool's 1000 Mb/s means down.
    # udevadm's attribute walk prints the same sysfs attributes (parsers/udevadm_walk.py).
    # ubus: OpenWrt's netifd, which reads the kernel's carrier and ethtool's settings; mii-tool
    # reads the PHY's registers itself (net-tools' mii-tool.c).
    "link": _LINK_SOURCES,
    "link_speed_mbps": _SPEED_SOURCES,
    "duplex": _SPEED_SOURCES,
    # The newest enumeration wins over a tree taken before a reset.
    # lshw's speed= is usbfs' Spd= (src/core/usb.cc), a snapshot like lsusb's.
    # "lsusb bus": a device on a SuperSpeed bus of plain lsusb, 5000 at least (any line that
    # says the speed itself comes first)
    "usb_speed_mbps": ("lsusb -t", "sysfs", "lsusb", "hwinfo", "lshw", "dmesg", "lsusb bus"),
    # A driver's own line that prints the IDs (by its format, log_complaints.ids_said) only
    # where nothing lists them itself.
    "ids": (
        *("sysfs", "lsusb -t", "lspci", "lsusb", "hwinfo", "iwinfo", "inxi", "dmesg"),
        "dmesg format",
    ),
}


# Each field's sources ranked, as dicts: a rank is one lookup, not a search of the tuple (a
# long log's device has thousands of facts of one field, "dmesg" near its order's end)
_RANKS: dict[str, dict[str, int]] = {
    name: {source: rank for rank, source in enumerate(order)} for name, order in PRECEDENCE.items()
}
_DEFAULT_RANK = {source: rank for rank, source in enumerate(_DEFAULT)}
_ORDER = attrgetter("order")
_SOURCE_ORDER = attrgetter("source", "order")
_MISSING: Any = object()


@dataclass
class Device:
    """The facts of one device. Its fields' facts, best fact and value are computed once, when
    first asked, and kept while the facts and keys only grow as they do (a long log's device
    has tens of thousands of facts, and is_nic, the NIC's fields and the chip rules ask for the
    same ones thousands of times)."""

    keys: set[Key] = field(default_factory=set)
    facts: list[Fact] = field(default_factory=list)
    key_sources: dict[Key, set[str]] = field(default_factory=dict)  # who named each key
    _index: dict[str, list[Fact]] = field(default_factory=dict, repr=False, compare=False)
    _sorted: dict[str, list[Fact]] = field(default_factory=dict, repr=False, compare=False)
    _best: dict[str, Fact | None] = field(default_factory=dict, repr=False, compare=False)
    _values: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)
    # how many facts the index holds: facts are only ever added (join, join_returned, a USB
    # pairing), so a new count is the one sign of a change
    _indexed: int = field(default=-1, repr=False, compare=False)
    _by_kind: dict[str, list[str]] = field(default_factory=dict, repr=False, compare=False)
    _keyed: int = field(default=-1, repr=False, compare=False)  # len(keys) _by_kind is of

    def _fields(self) -> dict[str, list[Fact]]:
        if self._indexed != len(self.facts):
            self._indexed = len(self.facts)
            index: dict[str, list[Fact]] = {}
            for fact in self.facts:
                if (facts := index.get(fact.field)) is None:
                    index[fact.field] = [fact]
                else:
                    facts.append(fact)
            self._index = index
            self._sorted.clear()
            self._best.clear()
            self._values.clear()
        return self._index

    def by_field(self, name: str) -> list[Fact]:
        return self._fields().get(name, [])

    def all(self, name: str) -> list[Fact]:
        facts = self._fields().get(name)
        if facts is None:
            return []
        if (done := self._sorted.get(name)) is None:
            done = self._sorted[name] = _in_order(facts)
        return list(done)

    def best(self, name: str) -> Fact | None:
        index = self._fields()
        found = self._best.get(name, _MISSING)
        if found is _MISSING:
            facts = index.get(name)
            found = self._best[name] = (
                _best_of(facts, _RANKS.get(name, _DEFAULT_RANK)) if facts else None
            )
        return found  # type: ignore[no-any-return]

    def value(self, name: str) -> Any:
        if self._indexed == len(self.facts):  # the index is current: its value, once made
            found = self._values.get(name, _MISSING)
            if found is not _MISSING:
                return found
        fact = self.best(name)
        found = self._values[name] = fact.value if fact is not None else None
        return found

    def has(self, name: str) -> bool:
        return name in self._fields()

    def _keys_of(self, kind: str) -> list[str]:
        """The device's keys of `kind`, sorted (keys, like facts, are only added)."""
        if self._keyed != len(self.keys):
            self._keyed = len(self.keys)
            by_kind: dict[str, list[str]] = {}
            for k, v in self.keys:
                by_kind.setdefault(k, []).append(v)
            for values in by_kind.values():
                values.sort()
            self._by_kind = by_kind
        return self._by_kind.get(kind, [])

    def key(self, kind: str) -> str | None:
        values = self._keys_of(kind)
        return values[0] if values else None

    def newest_key(self, kind: str) -> str | None:
        """The key of `kind` that the newest log line names, where the device has several: a USB
        adapter moved to another port ("r8152 2-2:1.0 eth1", later "r8152 2-3:1.0 eth1") is
        where the last line saw it (corpus/ds218plus_bbqq_5_*). Otherwise key()."""
        values = self._keys_of(kind)
        if len(values) < 2:
            return values[0] if values else None
        said = {v: re.compile(rf"(?<![\w.-]){re.escape(v)}(?![\w.-])") for v in values}
        # newest first (a stable sort: of one position, the first listed); each line's names
        # read once (a line says several facts)
        logged = sorted((f for f in self.facts if f.source == LOG_SOURCE), key=_ORDER, reverse=True)
        read: set[str] = set()
        for fact in logged:
            if fact.line in read:
                continue
            read.add(fact.line)
            named = [v for v, pattern in said.items() if pattern.search(fact.line)]
            if len(named) == 1:
                return named[0]
        return values[0]

    def names(self) -> list[str]:
        return list(self._keys_of("if"))


def _in_order(facts: list[Fact]) -> list[Fact]:
    """`facts` by (source, order, repr(value)). A long log's facts rarely share a source and
    position, and where none do the value is never compared: it is not repr()'d (tens of
    thousands of calls for a 100 000-line log)."""
    if len(facts) < 2:  # most of a device's fields (none or one fact): nothing to order
        return list(facts)
    keys = list(map(_SOURCE_ORDER, facts))
    if len(set(keys)) < len(keys):
        return sorted(facts, key=lambda f: (f.source, f.order, repr(f.value)))
    return sorted(facts, key=_SOURCE_ORDER)


def _best_of(facts: list[Fact], rank: dict[str, int]) -> Fact | None:
    """min() by (rank of the source, newest first, repr(value)) over the facts of a ranked
    source, read in C where it can be: the best-ranked source is found among the few distinct
    ones, then its newest fact; the value is repr()'d only to break a tie of the first two."""
    if len(facts) == 1:
        return facts[0] if facts[0].source in rank else None
    sources = set(map(_SOURCE, facts))
    ranked = [s for s in sources if s in rank]
    if not ranked:
        return None
    top = min(ranked, key=rank.__getitem__)
    mine = facts if len(sources) == 1 else [f for f in facts if f.source == top]
    orders = list(map(_ORDER, mine))
    newest = max(orders)
    if orders.count(newest) == 1:
        return mine[orders.index(newest)]
    return min((f for f, o in zip(mine, orders, strict=True) if o == newest), key=_value_repr)


def _value_repr(fact: Fact) -> str:
    return repr(fact.value)


class _UnionFind:
    def __init__(self) -> None:
        self.parent: dict[Key, Key] = {}

    def find(self, key: Key) -> Key:
        self.parent.setdefault(key, key)
        root = key
        while self.parent[root] != root:
            root = self.parent[root]
        while self.parent[key] != root:  # path compression
            self.parent[key], key = root, self.parent[key]
        return root

    def union(self, a: Key, b: Key) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            # The smaller key is the root: the same groups whatever the order of the unions.
            low, high = sorted((ra, rb))
            self.parent[high] = low


def join(sightings: Iterable[Sighting]) -> list[Device]:
    """Devices from sightings; sorted by their smallest key, so the result is stable."""
    given = list(sightings)
    renamed = _renamed(given)  # one pass over the facts, read by both below
    logged = _logged_key_lists(given)
    reused = reused_names(given, logged, renamed)
    shared = shared_devices(given, logged, renamed)
    if shared:
        cut = frozenset(shared)  # a sighting naming none of them is kept whole, tested in C
        split: dict[tuple[Key, ...], list[list[Key]]] = {}
        given = [
            part
            for s in given
            for part in ((s,) if cut.isdisjoint(s.keys) else _split_shared(s, shared, split))
        ]
    # A long log gives tens of thousands of sightings with the same few key lists (each
    # repeat of a counted line): each distinct key list is cut, united and placed once.
    items = list(_without_reused(given, reused))
    uf = _UnionFind()
    for keys in dict.fromkeys(keys for keys, _facts in items):
        for key in keys:
            uf.union(keys[0], key)
    groups: dict[Key, Device] = {}
    # each key list's device and the sources already in its keys' key_sources
    placed: dict[tuple[Key, ...], tuple[Device, set[str]]] = {}
    for keys, facts in items:
        entry = placed.get(keys)
        if entry is None:
            device = groups.setdefault(uf.find(keys[0]), Device())
            device.keys.update(keys)
            for key in keys:
                device.key_sources.setdefault(key, set())
            entry = placed[keys] = (device, set())
        device, named = entry
        device.facts += facts
        sources = set(map(_SOURCE, facts))
        if not sources <= named:  # a source new to this key list: its keys are named by it
            sources -= named
            named |= sources
            for key in keys:
                device.key_sources[key] |= sources
    if reused:
        _name_by_address(given, reused, uf, groups)
    return [groups[k] for k in sorted(groups)]


def _name_by_address(
    sightings: list[Sighting], reused: set[Key], uf: _UnionFind, groups: dict[Key, Device]
) -> None:
    """A reused name, which joined nothing, still names the device whose address its line
    gives ("smsc95xx 1-1.1:1.0 eth0: register ..."); renamed-away names stay former names."""
    done: set[tuple[Key, ...]] = set()  # key lists named already
    for sighting in sightings:
        if reused.isdisjoint(sighting.keys):  # in C: most sightings name no reused name
            continue
        # a key list named already: this sighting names the same device by the same names,
        # or (its facts not the log's alone, or a rename) none
        keys = tuple(sighting.keys)
        if keys in done:
            continue
        names = [k for k in sighting.keys if k in reused]
        # read in C: a counted line's sighting holds a fact per repeat
        if not names or not _log_only(sighting.facts) or says_any(sighting, _FORMER):
            continue
        devices = [k for k in sighting.keys if k[0] in _DEVICE_KINDS or k[0] == "usb"]
        device = groups.get(uf.find(devices[0])) if len(devices) == 1 else None
        done.add(keys)
        if device is None or devices[0] not in device.keys:
            continue
        for name in names:
            device.keys.add(name)
            device.key_sources.setdefault(name, set()).add(LOG_SOURCE)


def _without_reused(
    sightings: list[Sighting], reused: set[Key]
) -> Iterator[tuple[tuple[Key, ...], list[Fact]]]:
    """Each sighting's keys and facts; a log line's sighting without the names it cannot be
    tied by (the current names that ip, ethtool and sysfs report name one device each), and
    without those that are left with no key."""
    cut: dict[tuple[Key, ...], tuple[Key, ...]] = {}
    for sighting in sightings:
        keys = tuple(sighting.keys)
        # keys that hold no reused name are kept whole whatever the facts say: their facts
        # are not read (a long log's ~5 000 sightings, a counted line's a fact per repeat)
        if reused and not reused.isdisjoint(keys) and _log_only(sighting.facts):
            # the former names read per fact only where one is (a C test first)
            olds = (
                {("if", str(f.value)) for f in sighting.facts if f.field == "former_name"}
                if says_any(sighting, _FORMER)
                else None
            )
            if olds:  # "wlan0: renamed from wlan1" names wlan0's device from here on
                keys = tuple(k for k in keys if k not in reused or (k[0] == "if" and k not in olds))
            else:
                kept = cut.get(keys)
                if kept is None:
                    kept = cut[keys] = tuple(k for k in keys if k not in reused)
                keys = kept
        if keys:
            yield keys, sighting.facts
