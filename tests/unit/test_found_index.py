"""The joins after from_dmesg's loop read the sightings holding the key kinds and fields they
ask for, indexed once (inventory/found_index.py), not every sighting's facts once per join
(issue 24: a long log's ~5 000 sightings, a counted line's with a fact per repeat, read by
seven joins)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sbctune.inventory import log_sightings
from sbctune.inventory.found_index import FoundIndex
from sbctune.inventory.parsers.dmesg import parse_dmesg
from sbctune.inventory.sightings import Sighting

CAPTURES = Path(__file__).resolve().parents[1] / "captures" / "dmesg"


class _Read(list):  # type: ignore[type-arg]
    """A sighting's facts that count each time they are read through."""

    reads = 0

    def __iter__(self) -> Iterator[Any]:
        _Read.reads += 1
        return super().__iter__()


def _log() -> str:
    """Three hundred real captures one after the other (their own clocks)."""
    paths = sorted(CAPTURES.glob("*.txt"))[:300]
    return "\n".join(p.read_text(encoding="utf-8", errors="replace") for p in paths)


def test_the_joins_read_fewer_sightings_facts(monkeypatch: pytest.MonkeyPatch) -> None:
    joins = log_sightings._Reading.sightings
    counted: dict[str, int] = {}

    def reading(self: log_sightings._Reading) -> list[Sighting]:
        for sighting in self.found:
            sighting.facts = _Read(sighting.facts)
        _Read.reads = 0
        out = joins(self)
        counted.update(sightings=len(self.found), reads=_Read.reads)
        return out

    monkeypatch.setattr(log_sightings._Reading, "sightings", reading)
    parsed, _warnings = parse_dmesg(_log())
    found = log_sightings.from_dmesg(parsed)
    assert counted["sightings"] > 500 and len(found) >= counted["sightings"]
    # each sighting's facts read once by the index, then by the joins only where they ask
    # (the device lines' drivers are read by several): 7 625 reads of 1 594 sightings' facts;
    # 14 569 before, each join its own pass over all of them
    assert counted["reads"] < 6 * counted["sightings"], counted


def test_the_index_lists_in_order_and_follows_a_replaced_sighting() -> None:
    a = Sighting([("pci", "0000:01:00.0"), ("if", "eth0")])
    a.add("driver", "r8169", "dmesg", "r8169 0000:01:00.0 eth0: ...", 3)
    b = Sighting([("child", "mhi mhi0")])
    b.add("seen", True, "dmesg", "mhi mhi0: ...", 5)
    c = Sighting([("wifi", "brcmfmac")])
    c.add("ids", "14e4:43a0", "dmesg", "...", 7)
    c.add("driver", "brcmfmac", "dmesg", "...", 7)
    index = FoundIndex([a, b, c])
    assert index.saying("driver") == [a, c] and index.saying("ids", "driver") == [a, c]
    assert index.keyed("pci", "wifi") == [a, c] and index.keyed("usb") == []
    joined = Sighting([("pci", "0000:02:00.0")], b.facts)
    index.replace(1, joined)
    assert index.keyed("pci") == [a, joined] and index.found == [a, joined, c]
    index.extend([Sighting([("pci", "0000:03:00.0")])])
    assert len(index.keyed("pci")) == 3
    with pytest.raises(ValueError):
        index.saying("seen")  # not one of the fields the joins read: not indexed


def _tables(index: FoundIndex) -> tuple[object, ...]:
    return (
        index.found,
        {kind: places for kind, places in index._kinds.items() if places},
        {name: places for name, places in index._fields.items() if places},
    )


def test_an_mdio_bus_left_out_renumbers_the_index_without_reading_the_facts_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The OpenBMC AST2500 logs: "libphy: ftgmac100_mdio: probed" beside ftgmac100's own MAC
    lines, so shown_elsewhere leaves the bus out; the index of what is left is the one a new
    index makes (a child's replaced sighting under its new keys' kinds only), without each
    sighting's facts read a second time."""
    paths = sorted(CAPTURES.glob("openbmc_*ftgmac100*.txt"))
    assert len(paths) >= 2
    joins = log_sightings._Reading.sightings
    keeping = FoundIndex.keeping
    seen: dict[str, int] = {"kept": 0, "reads": 0, "sightings": 0}

    def checked(self: FoundIndex, found: list[Sighting]) -> FoundIndex:
        _Read.reads = 0
        kept = keeping(self, found)
        seen["reads"] += _Read.reads
        assert _tables(kept) == _tables(FoundIndex(found))
        seen["kept"] += 1
        return kept

    def reading(self: log_sightings._Reading) -> list[Sighting]:
        for sighting in self.found:
            sighting.facts = _Read(sighting.facts)
        seen["sightings"] += len(self.found)
        return joins(self)

    monkeypatch.setattr(FoundIndex, "keeping", checked)
    monkeypatch.setattr(log_sightings._Reading, "sightings", reading)
    for path in paths:
        parsed, _warnings = parse_dmesg(path.read_text(encoding="utf-8", errors="replace"))
        log_sightings.from_dmesg(parsed)
    # a bus left out in each log; the index kept, its sightings' facts not read (before: a
    # new index read every sighting's facts again)
    assert seen["kept"] >= 2 and seen["sightings"] > 20
    assert seen["reads"] == 0, seen


def test_the_index_kept_of_another_list_is_made_anew() -> None:
    a = Sighting([("pci", "0000:01:00.0")])
    b = Sighting([("mdio_bus", "x")])
    index = FoundIndex([a, b])
    other = Sighting([("usb", "1-1")])
    assert _tables(index.keeping([b, a])) == _tables(FoundIndex([b, a]))
    assert _tables(index.keeping([a, other])) == _tables(FoundIndex([a, other]))
    assert _tables(index.keeping([b])) == _tables(FoundIndex([b]))
