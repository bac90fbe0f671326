"""A parsed kernel log (DmesgResult): its counts, and its events kept as columns and made into
DmesgEvent objects only when a reader asks (parsers/dmesg.py fills it)."""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import chain
from operator import itemgetter
from typing import Any

from .dmesg_event import DmesgEvent, EventColumns
from .dmesg_nics import DmesgNic, nics_of

_KIND = itemgetter(0)


@dataclass(init=False)
class DmesgResult:
    lines: int = 0
    kernel_lines: int = 0  # lines that look like kernel log lines
    # ... and the other lines whose log wrapper names the program that wrote them
    # (other_programs.py: netifd, NetworkManager, hostapd in a logread or a journal): read as
    # other programs' lines, not garbled ones
    other_lines: int = 0
    timestamps: bool = False
    starts_mid_log: bool = False
    elided: bool = False
    timestamp_jumps: int = 0  # time going backwards: two pastes joined
    # Every line's words, each distinct text once (a clock line's text after its clock, any
    # other line stripped, the task names some clocks carry), or None when a memo was full: a
    # run of letters, digits, "_" and "-" holding two letters or more that the `read` text
    # holds is in one of them (the steps before cut only blanks, dots, NULs, clocks and their
    # caller ids, "[T187]"). A search of the log for rare words (template_names) searches
    # these first and the whole text only for the words found here. `read` is the very text
    # parsed (compare by `is`: a caller's text that is another object is not covered).
    bodies: tuple[str, ...] | None = field(default=None, repr=False, compare=False)
    read: str | None = field(default=None, repr=False, compare=False)
    # The events as columns, one entry per event in order (the parse's form: a long log's
    # ~10^5 events are ~5 000 distinct messages, and a reader that works per distinct message
    # reads these in C instead of an object per line): the message (one string object for
    # all its repeats), its (kind, fields) (one tuple per distinct message), its line number
    # and its clock. ``events`` is made from them when first asked for.
    columns: EventColumns = field(default_factory=lambda: EventColumns([], [], [], []), repr=False)

    def __init__(
        self,
        events: list[DmesgEvent] | None = None,
        *,
        lines: int = 0,
        kernel_lines: int = 0,
        other_lines: int = 0,
        timestamps: bool = False,
        starts_mid_log: bool = False,
        elided: bool = False,
        timestamp_jumps: int = 0,
    ) -> None:
        # written out: ``events`` is made from the columns, or given as a list (a test's)
        self.lines, self.kernel_lines, self.other_lines = lines, kernel_lines, other_lines
        self.timestamps, self.starts_mid_log, self.elided = timestamps, starts_mid_log, elided
        self.timestamp_jumps = timestamp_jumps
        self.bodies = self.read = None
        self.columns = EventColumns([], [], [], [])
        if events is not None:
            self.events = events

    @property
    def events(self) -> list[DmesgEvent]:
        """Every event, in order, made from the columns at the first call (a list the caller
        may extend: the columns follow it, see ``said``)."""
        made = self.__dict__.get("_events")
        if made is None:
            texts, said, nos, clocks = self.columns
            made = [
                DmesgEvent(kind, no, clock, text, fields)
                for text, (kind, fields), no, clock in zip(texts, said, nos, clocks, strict=True)
            ]
            self.__dict__["_events"] = made
            self.__dict__["_made"] = (made, len(made))
        return made

    @events.setter
    def events(self, events: list[DmesgEvent]) -> None:
        self.__dict__["_events"] = events
        self.__dict__.pop("_made", None)

    def said(self) -> EventColumns:
        """The columns, made again from ``events`` when a caller replaced or extended that list
        (a test's hand-made events, a reference parse's appends)."""
        made = self.__dict__.get("_events")
        kept = self.__dict__.get("_made")
        if made is not None and (kept is None or kept[0] is not made or kept[1] != len(made)):
            self.columns = EventColumns.of(made)
            self.__dict__["_made"] = (made, len(made))
            self.__dict__["_given"] = True  # a caller's events: a message may have two kinds
        return self.columns

    def one_kind_a_text(self) -> bool:
        """Whether every message has one kind in the columns: the parse's (it classifies a
        message once), not events a caller gave or changed."""
        self.said()
        return not self.__dict__.get("_given")

    def places(self) -> dict[Any, list[int]]:
        """Each distinct message's places in the columns, in order, keyed by the message (the
        parse's columns: one kind a message) or by (kind, message) (a caller's events); the
        keys in the order they first come. Made once, by the one loop over every event that
        the readers share: a pass in C per question (map, compress over range) costs more
        than this loop, ~200 instructions an event each, as they make an int per event."""
        columns = self.said()
        kept = self.__dict__.get("_places")
        if kept is None or kept[0] is not columns:
            texts, said = columns.texts, columns.said
            keys: Any = (
                texts if self.one_kind_a_text() else zip(map(_KIND, said), texts, strict=True)
            )
            index: dict[Any, list[int]] = {}
            for place, key in enumerate(keys):
                if (at := index.get(key)) is None:
                    index[key] = [place]
                else:
                    at.append(place)
            kept = self.__dict__["_places"] = (columns, index)
        return kept[1]

    def key_at(self, place: int) -> Any:
        """The key ``places`` gives the event at ``place``."""
        texts, said = self.columns.texts, self.columns.said
        return texts[place] if self.one_kind_a_text() else (said[place][0], texts[place])

    def by_kind(self) -> dict[str, list[list[int]]]:
        """Each kind's distinct messages' places (from ``places``: per distinct message)."""
        index = self.places()
        kept = self.__dict__.get("_by_kind")
        if kept is None or kept[0] is not index:
            said = self.columns.said
            kinds: dict[str, list[list[int]]] = {}
            for at in index.values():
                kinds.setdefault(said[at[0]][0], []).append(at)
            kept = self.__dict__["_by_kind"] = (index, kinds)
        return kept[1]

    def at(self, index: int) -> DmesgEvent:
        """The event at ``index`` of the columns, made now (a reader of a few events)."""
        texts, said, nos, clocks = self.said()
        kind, fields = said[index]
        return DmesgEvent(kind, nos[index], clocks[index], texts[index], fields)

    def of_kind(self, kind: str) -> list[DmesgEvent]:
        """The events of a kind, in order (a list the caller may change)."""
        return self.of_kinds(kind)

    def of_kinds(self, *kinds: str) -> list[DmesgEvent]:
        """The events of any of these kinds, in order: their places from ``by_kind`` (a long
        log's ~10^5 events are not made for a few kinds)."""
        by_kind = self.by_kind()
        at = sorted(chain.from_iterable(chain.from_iterable(by_kind.get(k, ()) for k in kinds)))
        return [self.at(i) for i in at]

    @property
    def under_voltage(self) -> bool:
        return "under_voltage" in self.by_kind()

    def nics(self) -> dict[str, DmesgNic]:
        """Per-interface summary, following ``renamed from`` lines."""
        return nics_of(self.events)
