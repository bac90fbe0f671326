"""Which interface names and devices a kernel log reuses or shares, and how a log line's keys
are cut by them before the device graph joins (``sbctune.inventory.graph``): a name the kernel
gave to two devices ("renamed from eth0" on each) ties none of them; one platform device or
PCI function with several MACs names none of its NICs alone. A log-only sighting's cut depends
on its keys alone, so each distinct key list is cut once (issue 24: a long log's ~6 000
sightings have ~870)."""

from __future__ import annotations

from functools import partial
from operator import attrgetter, eq

from sbctune.inventory.sightings import Fact, Key, Sighting

LOG_SOURCE = "dmesg"
# a sighting's facts' sources, read in C (map, no generator frame per fact): a long log's
# counted line is one sighting with a fact per repeat (thousands), and each is asked
_SOURCE = attrgetter("source")
_FROM_LOG = partial(eq, LOG_SOURCE)

_FORMER = frozenset({"former_name"})
_FIELD = attrgetter("field")


def _renamed(sightings: list[Sighting]) -> list[Sighting]:
    """The sightings that hold a former name (sightings.says_any, inline: one C pass over each
    sighting's facts and no call, a long log's ~5 000 sightings, few renames)."""
    return [s for s in sightings if not _FORMER.isdisjoint(map(_FIELD, s.facts))]


def _logged_key_lists(sightings: list[Sighting]) -> list[tuple[Key, ...]]:
    """The distinct key lists of the log's sightings that name two keys or more: all that
    shared_devices and _names_of_two_devices read of them (a long log's ~5 000 sightings have
    a few hundred distinct key lists)."""
    return list(
        dict.fromkeys(
            tuple(s.keys)
            for s in sightings
            if len(s.keys) > 1 and s.facts and s.facts[0].source == LOG_SOURCE
        )
    )


def _log_only(facts: list[Fact]) -> bool:
    """Whether every fact is the log's (all(), as a generator over the facts would say)."""
    return all(map(_FROM_LOG, map(_SOURCE, facts)))


def reused_names(
    sightings: list[Sighting],
    logged: list[tuple[Key, ...]] | None = None,
    renamed: list[Sighting] | None = None,
) -> set[Key]:
    """Interface names the kernel gave to more than one device in a log: each "renamed from
    eth0" names another device, so "eth0" identifies none of them there (a virtio NIC and an
    e1000e both start as eth0 on a real system)."""
    renamed_to: dict[Key, set[Key]] = {}
    devices_of: dict[Key, set[Key]] = {}  # a name -> the devices whose renames name it
    for sighting in _renamed(sightings) if renamed is None else renamed:
        olds = {("if", str(f.value)) for f in sighting.facts if f.field == "former_name"}
        news = {k for k in sighting.keys if k[0] == "if" and k not in olds}
        devices = {k for k in sighting.keys if k[0] in _DEVICE_KINDS or k[0] == "usb"}
        for old in olds:
            renamed_to.setdefault(old, set()).update(news)
            devices_of.setdefault(old, set()).update(devices)
        for new in news:
            devices_of.setdefault(new, set()).update(devices)
    # "mwlwifi 0000:01:00.0 mlan0: renamed from wlan0", then "mwlwifi 0000:02:00.0 wlan0:
    # renamed from wlan1": wlan0 was the first card's name, then the second's.
    reused = {
        old for old, news in renamed_to.items()
        if len(news) > 1 or len(devices_of.get(old, ())) > 1
    }  # fmt: skip
    if not renamed_to:
        return reused
    return reused | _names_of_two_devices(
        _logged_key_lists(sightings) if logged is None else logged
    )


def _names_of_two_devices(logged: list[tuple[Key, ...]]) -> set[Key]:
    """Names the log's lines give to two device addresses: "bcmgenet fd580000.ethernet end0:
    renamed from eth0", then "smsc95xx 1-1.1:1.0 eth0: register ...": eth0 was the SoC's
    name, then the adapter's. The device address decides, whatever the order of the lines."""
    devices_of: dict[Key, set[Key]] = {}
    for keys in logged:  # the log's key lists of two keys or more
        devices = {k for k in keys if k[0] in _DEVICE_KINDS or k[0] == "usb"}
        if len(devices) != 1:
            continue
        for key in keys:
            if key[0] == "if":
                devices_of.setdefault(key, set()).update(devices)
    return {name for name, devices in devices_of.items() if len(devices) > 1}


def shared_devices(
    sightings: list[Sighting],
    logged: list[tuple[Key, ...]] | None = None,
    renamed: list[Sighting] | None = None,
) -> dict[Key, set[Key]]:
    """Device keys the log shows with more than one interface name, renames aside: one
    platform device or PCI function may carry several MACs (mtk_soc_eth's eth0-eth2 on
    15100000.ethernet, mlx4's two ports), so there the device names none of them alone."""
    names: dict[Key, set[Key]] = {}
    for keys in _logged_key_lists(sightings) if logged is None else logged:
        ifaces = {k for k in keys if k[0] == "if"}
        if not ifaces:
            continue
        for key in keys:
            if key[0] in _DEVICE_KINDS:
                names.setdefault(key, set()).update(ifaces)
    if all(len(seen) < 2 for seen in names.values()):
        return {}
    olds = {
        ("if", str(f.value))
        for s in (_renamed(sightings) if renamed is None else renamed)
        for f in s.facts
        if f.field == "former_name"
    }
    return {key: seen - olds for key, seen in names.items() if len(seen - olds) > 1}


_DEVICE_KINDS = ("platform", "pci")


def _split_shared(
    sighting: Sighting,
    shared: dict[Key, set[Key]],
    split: dict[tuple[Key, ...], list[list[Key]]] | None = None,
) -> list[Sighting]:
    """A log line naming an interface joins by it, not by the shared device; a line naming
    only the shared device ("15100000.ethernet: warm reset failed") is about every NIC it
    carries. (`split`: each key list's parts, made once: a log's lines of one key list are cut
    alike, and a long log has thousands of lines of a few hundred key lists.)"""
    if not sighting.facts or not _log_only(sighting.facts):
        return [sighting]
    keys = tuple(sighting.keys)
    parts = split.get(keys) if split is not None else None
    if parts is None:
        parts = _parts_of(keys, shared)
        if split is not None:
            split[keys] = parts
    if parts and parts[0] is _WHOLE:
        return [sighting]
    # the parts share the facts list: nothing here or after changes a sighting's facts
    return [Sighting(list(part), sighting.facts) for part in parts]


_WHOLE: list[Key] = []  # _parts_of's answer for a key list kept whole


def _parts_of(keys: tuple[Key, ...], shared: dict[Key, set[Key]]) -> list[list[Key]]:
    mine = [k for k in keys if k in shared]
    if not mine:
        return [_WHOLE]
    rest = [k for k in keys if k not in shared]
    if any(k[0] == "if" for k in rest):
        return [rest]
    carried = sorted(set().union(*(shared[k] for k in mine)))
    return [[*rest, iface] for iface in carried]
