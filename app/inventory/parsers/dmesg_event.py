"""One kernel log line's reading (DmesgEvent) and a log's readings as columns (EventColumns):
the shapes parsers/dmesg.py makes and the readers of the log share."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True)  # a long log makes ~10^5: no per-event __dict__ (memory, page faults)
class DmesgEvent:
    kind: str
    line: int  # 1-based line number in the text
    timestamp: float | None
    text: str
    fields: dict[str, str] = field(default_factory=dict)

    @property
    def driver(self) -> str | None:
        return self.fields.get("driver")

    @property
    def device(self) -> str | None:
        return self.fields.get("device")

    @property
    def iface(self) -> str | None:
        return self.fields.get("iface")


class EventColumns:
    """A log's events as four lists, one entry per event in order. A plain class: a
    NamedTuple compiles its __new__ at every start of the program (~2 M instructions)."""

    __slots__ = ("clocks", "nos", "said", "texts")

    def __init__(
        self,
        texts: list[str],
        said: list[tuple[str, dict[str, str]]],  # (kind, fields): a tuple per distinct message
        nos: list[int],
        clocks: list[float | None],
    ) -> None:
        self.texts, self.said, self.nos, self.clocks = texts, said, nos, clocks

    def __iter__(self) -> Iterator[Any]:
        return iter((self.texts, self.said, self.nos, self.clocks))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, EventColumns) and tuple(self) == tuple(other)

    __hash__ = None  # type: ignore[assignment]  # mutable, as a list

    @staticmethod
    def of(events: list[DmesgEvent]) -> EventColumns:
        return EventColumns(
            [e.text for e in events],
            [(e.kind, e.fields) for e in events],
            [e.line for e in events],
            [e.timestamp for e in events],
        )
