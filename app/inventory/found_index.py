"""A kernel log's sightings indexed once by the kinds of their keys and the fields of their
facts, for the joins after from_dmesg's loop (join_children, shown_elsewhere, usb_bus_ties,
lone_wifi_devices, lone_phy_link, buses_by_elimination): each asks for the few sightings
holding a key kind or a field it reads ("wifi", "mdio_bus", "ids" ...), in the log's order,
instead of testing all of them (a long log's ~5 000, a counted line's with a fact per repeat;
issue 24: each join was a pass of a Python call per sighting)."""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Iterable
from operator import attrgetter

from sbctune.inventory.sightings import Sighting

_FIELD = attrgetter("field")
# the fields the joins ask for (the others are not indexed: ~5 000 sightings' facts each)
FIELDS = frozenset(
    ("mdio_bus", "mdio_usb_bus", "driver", "refused_by", "probed_by", "firmware_wanted", "ids")
)


class FoundIndex:
    def __init__(self, found: Iterable[Sighting]) -> None:
        self.found: list[Sighting] = []
        self._kinds: dict[str, list[int]] = {}
        self._fields: dict[str, list[int]] = {}
        self._replaced: set[int] = set()  # places whose sighting replace() changed
        self.extend(found)

    def extend(self, more: Iterable[Sighting]) -> None:
        """Sightings added after the others (a join's ties), in that order."""
        kinds, fields, found = self._kinds, self._fields, self.found
        for sighting in more:
            place = len(found)
            found.append(sighting)
            for key in sighting.keys:
                places = kinds.get(key[0])
                if places is None:
                    kinds[key[0]] = [place]
                elif places[-1] != place:  # a second key of that kind
                    places.append(place)
            # in C: a counted line's thousands of facts
            for name in FIELDS.intersection(map(_FIELD, sighting.facts)):
                fields.setdefault(name, []).append(place)

    def replace(self, place: int, sighting: Sighting) -> None:
        """The sighting at `place` made anew with other keys and facts of the same fields (a
        child's lines joined to their parent): listed under its new keys' kinds too. Its old
        kinds keep it listed, so a reader tests the keys it gets (every join here does)."""
        self.found[place] = sighting
        self._replaced.add(place)
        for kind in {key[0] for key in sighting.keys}:
            places = self._kinds.setdefault(kind, [])
            at = bisect_left(places, place)
            if at == len(places) or places[at] != place:
                insort(places, place)

    def keeping(self, found: list[Sighting]) -> FoundIndex:
        """The index of `found`, which is this index's sightings with some left out, in their
        order (shown_elsewhere's MDIO buses): its places renumbered, not every sighting's keys
        and facts read again (a long log's ~6 000, a counted line's with a fact per repeat).
        A replaced sighting is listed under its own key kinds only, as a new index lists it.
        Any other list is indexed anew."""
        at: list[int] = []  # a place here -> its place in `found`, or -1 (left out)
        kept = 0
        for sighting in self.found:
            if kept < len(found) and found[kept] is sighting:
                at.append(kept)
                kept += 1
            else:
                at.append(-1)
        if kept != len(found):
            return FoundIndex(found)
        new = FoundIndex(())
        new.found = list(found)
        replaced = self._replaced
        for table, out in ((self._kinds, new._kinds), (self._fields, new._fields)):
            for name, places in table.items():
                moved = [
                    at[place]
                    for place in places
                    if at[place] >= 0
                    and (
                        table is not self._kinds
                        or place not in replaced
                        or any(key[0] == name for key in self.found[place].keys)
                    )
                ]
                if moved:
                    out[name] = moved
        return new  # its lists exact: nothing in it replaced

    def keyed(self, *kinds: str) -> list[Sighting]:
        """The sightings with a key of one of these kinds, in their order."""
        return self._of(self._kinds, kinds)

    def keyed_places(self, *kinds: str) -> list[int]:
        """Where the sightings with a key of one of these kinds are, in their order."""
        return self._places(self._kinds, kinds)

    def saying(self, *fields: str) -> list[Sighting]:
        """The sightings with a fact of one of these fields (of FIELDS), in their order."""
        if not FIELDS.issuperset(fields):
            raise ValueError(f"not indexed: {sorted(set(fields) - FIELDS)}")
        return self._of(self._fields, fields)

    def _of(self, table: dict[str, list[int]], names: tuple[str, ...]) -> list[Sighting]:
        found = self.found
        return [found[place] for place in self._places(table, names)]

    @staticmethod
    def _places(table: dict[str, list[int]], names: tuple[str, ...]) -> list[int]:
        lists = [table[name] for name in names if name in table]
        if not lists:
            return []
        return lists[0] if len(lists) == 1 else sorted(set().union(*lists))
