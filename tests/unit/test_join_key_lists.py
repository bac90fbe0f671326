"""graph.join cuts each distinct key list once (issue 24, speed, session 33).

A long log's ~6 000 sightings have ~870 distinct key lists; the cut of a shared device
(`_split_shared`), of reused names (`_without_reused`) and the naming by address
(`_name_by_address`) depend on a log-only sighting's keys alone, so each key list is cut and
named once, and the former names are read per fact only in a sighting that holds one. The
devices must be exactly those of the per-sighting code it replaced (main at 268e6a77, kept
below as the reference): keys, facts in their order, and who named each key.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from sbctune.inventory import graph, log_names
from sbctune.inventory.graph import Device, join, reused_names, shared_devices
from sbctune.inventory.sightings import Fact, Key, Sighting, says_any


def _reference_split(sighting: Sighting, shared: dict[Key, set[Key]]) -> list[Sighting]:
    mine = [k for k in sighting.keys if k in shared]
    if not mine or not sighting.facts or not graph._log_only(sighting.facts):
        return [sighting]
    rest = [k for k in sighting.keys if k not in shared]
    if any(k[0] == "if" for k in rest):
        return [Sighting(rest, sighting.facts)]
    carried = sorted(set().union(*(shared[k] for k in mine)))
    return [Sighting([*rest, iface], list(sighting.facts)) for iface in carried]


def _reference_without_reused(
    sightings: list[Sighting], reused: set[Key]
) -> Iterator[tuple[tuple[Key, ...], list[Fact]]]:
    for sighting in sightings:
        keys = tuple(sighting.keys)
        if reused and not reused.isdisjoint(keys) and graph._log_only(sighting.facts):
            olds = {("if", str(f.value)) for f in sighting.facts if f.field == "former_name"}
            if olds:
                keys = tuple(k for k in keys if k not in reused or (k[0] == "if" and k not in olds))
            else:
                keys = tuple(k for k in keys if k not in reused)
        if keys:
            yield keys, sighting.facts


def _reference_name_by_address(
    sightings: list[Sighting], reused: set[Key], uf: graph._UnionFind, groups: dict[Key, Device]
) -> None:
    for sighting in sightings:
        names = [k for k in sighting.keys if k in reused]
        if not names or not graph._log_only(sighting.facts) or says_any(sighting, graph._FORMER):
            continue
        devices = [k for k in sighting.keys if k[0] in ("platform", "pci") or k[0] == "usb"]
        device = groups.get(uf.find(devices[0])) if len(devices) == 1 else None
        if device is None or devices[0] not in device.keys:
            continue
        for name in names:
            device.keys.add(name)
            device.key_sources.setdefault(name, set()).add(graph.LOG_SOURCE)


def _reference_join(sightings: list[Sighting]) -> list[Device]:
    """graph.join before this session: every sighting cut, split and named on its own."""
    given = list(sightings)
    reused = reused_names(given)
    shared = shared_devices(given)
    if shared:
        given = [part for s in given for part in _reference_split(s, shared)]
    items = list(_reference_without_reused(given, reused))
    uf = graph._UnionFind()
    for keys, _facts in items:
        for key in keys:
            uf.union(keys[0], key)
    groups: dict[Key, Device] = {}
    for keys, facts in items:
        device = groups.setdefault(uf.find(keys[0]), Device())
        device.keys.update(keys)
        device.facts += facts
        for key in keys:
            device.key_sources.setdefault(key, set()).update(f.source for f in facts)
    if reused:
        _reference_name_by_address(given, reused, uf, groups)
    return [groups[k] for k in sorted(groups)]


def _shape(devices: list[Device]) -> list[tuple[object, ...]]:
    return [
        (sorted(d.keys), d.facts, sorted((k, sorted(v)) for k, v in d.key_sources.items()))
        for d in devices
    ]


# mtk_soc_eth's one platform device with two MACs (a shared device), renames, reused names
_KEYS = [
    ("if", "eth0"), ("if", "eth1"), ("if", "lan1"), ("platform", "1e100000.ethernet"),
    ("usb", "1-1:1.0"), ("mac", "aa"), ("pci", "0000:01:00.0"),
]  # fmt: skip
_fact = st.builds(
    Fact,
    st.sampled_from(["link", "driver", "former_name", "seen"]),
    st.sampled_from(["eth0", "eth1", "lan1", True, 1000]),
    st.sampled_from([graph.LOG_SOURCE, graph.LOG_SOURCE, "ip", "ethtool"]),
    st.sampled_from(["line a", "line b"]),
    st.integers(0, 5),
)
_sighting = st.builds(
    Sighting,
    st.lists(st.sampled_from(_KEYS), min_size=0, max_size=3, unique=True),
    st.lists(_fact, max_size=3),
)
# the same few key lists again and again, as a long log gives them
_MTK = ("platform", "1e100000.ethernet")
_SHARED = [
    Sighting([_MTK, ("if", "eth0")], [Fact("link", 1, "dmesg", "a", 1)]),
    Sighting([_MTK, ("if", "eth1")], [Fact("link", 1, "dmesg", "b", 2)]),
    Sighting([_MTK], [Fact("seen", True, "dmesg", "c", 3)]),
    Sighting([_MTK], [Fact("seen", True, "ip", "d", 4)]),
    Sighting([("usb", "1-1:1.0"), ("if", "eth0")], [Fact("former_name", "eth1", "dmesg", "e", 5)]),
    Sighting([("usb", "1-1:1.0"), ("if", "eth0")], [Fact("link", 0, "dmesg", "f", 6)]),
    Sighting([("pci", "0000:01:00.0"), ("if", "eth0")], [Fact("link", 0, "dmesg", "g", 7)]),
]  # fmt: skip


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sightings=st.lists(_sighting, max_size=12), again=st.lists(st.integers(0, 11), max_size=20))
@example(sightings=_SHARED, again=[0, 1, 2, 3, 4, 5, 6, 0, 2, 5])
def test_each_key_list_cut_once_makes_the_same_devices(
    sightings: list[Sighting], again: list[int]
) -> None:
    # repeats of the drawn sightings' key lists, with their own facts
    sightings += [
        Sighting(list(sightings[i].keys), list(reversed(sightings[i].facts)))
        for i in again
        if i < len(sightings)
    ]
    assert _shape(join(sightings)) == _shape(_reference_join(sightings))


def test_a_shared_devices_lines_are_cut_once_per_key_list(monkeypatch: pytest.MonkeyPatch) -> None:
    """300 lines naming only mtk_soc_eth's platform device (two MACs: eth0, eth1) are about
    both NICs: each line's facts go to both, but the key list is cut once, not 300 times."""
    cuts: list[tuple[Key, ...]] = []
    parts_of = log_names._parts_of

    def counted(keys: tuple[Key, ...], shared: dict[Key, set[Key]]) -> list[list[Key]]:
        cuts.append(keys)
        return parts_of(keys, shared)

    monkeypatch.setattr(log_names, "_parts_of", counted)
    platform = ("platform", "1e100000.ethernet")
    sightings = [
        Sighting([platform, ("if", "eth0")], [Fact("link", 1, "dmesg", "eth0 up", 0)]),
        Sighting([platform, ("if", "eth1")], [Fact("link", 1, "dmesg", "eth1 up", 1)]),
    ] + [
        Sighting([platform], [Fact("kernel_error", "reset", "dmesg", f"reset {n}", n + 2)])
        for n in range(300)
    ]
    devices = join(sightings)
    # three key lists, each cut once (before: a cut per line, 302)
    assert cuts == [(platform, ("if", "eth0")), (platform, ("if", "eth1")), (platform,)]
    assert [d.names() for d in devices] == [["eth0"], ["eth1"]]
    assert [len(d.by_field("kernel_error")) for d in devices] == [300, 300]
    assert _shape(devices) == _shape(_reference_join(sightings))
