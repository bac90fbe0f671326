"""A counted line's repeats take their template (keys and the facts a repeat says again) from
the line's first reading, not from reading its first repeat again with every rule (issue 24:
each distinct counted message of a long log was read twice: link flaps, resets, errors)."""

from __future__ import annotations

from typing import Any

import pytest

from sbctune.inventory import log_sightings
from sbctune.inventory.parsers.dmesg import DmesgEvent, parse_dmesg
from sbctune.inventory.sightings import Sighting
from tests.captured_dmesg import captured_texts

# real counted lines (tests/captures/dmesg: ac2100_openwrt_guide_6_mtk_flapping's kind of link
# lines, ds220_bbqq_177's resets; test_distinct_events' pool), each said 20 times
_LINES = [
    "bcmgenet fd580000.ethernet eth0: Link is Up - 1Gbps/Full - flow control rx/tx",
    "bcmgenet fd580000.ethernet eth0: Link is Down",
    "usb 1-1.3: reset high-speed USB device number 3 using xhci_hcd",
    "r8152 1-1.3:1.0 eth1: carrier on",
    "NETDEV WATCHDOG: eth0 (bcmgenet): transmit queue 0 timed out",
]


def _text() -> str:
    lines = [line for _ in range(20) for line in _LINES]
    return "\n".join(f"[{n * 0.5:12.6f}] {line}" for n, line in enumerate(lines, start=1))


def test_a_counted_line_is_read_by_its_rules_once(monkeypatch: pytest.MonkeyPatch) -> None:
    read: list[str] = []

    def reading(handler: Any) -> Any:
        def counted(event: DmesgEvent) -> Sighting | None:
            read.append(event.text)
            return handler(event)

        return counted

    monkeypatch.setattr(log_sightings, "on_device", reading(log_sightings.on_device))
    handlers = {kind: reading(h) for kind, h in log_sightings._HANDLERS.items()}
    monkeypatch.setattr(log_sightings, "_HANDLERS", handlers)
    parsed, _warnings = parse_dmesg(_text())
    found = log_sightings.from_dmesg(parsed)
    assert sorted(read) == sorted(_LINES)  # each twice before: its first line and first repeat
    drops = [s for s in found if any(f.field == "link" and f.value is False for f in s.facts)]
    assert sum(f.field == "link_event" for s in drops for f in s.facts) == 20


def _as_read(found: list[Sighting]) -> list[Any]:
    return [(s.keys, [vars(f) for f in s.facts]) for s in found]


def test_the_same_sightings_as_reading_the_repeat_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every captured log and the lines above: the sightings of the template read from the
    first repeat (as before) and from the first reading are the same."""
    logs = [_text()] + [text for _name, text in captured_texts()]
    parsed = [parse_dmesg(text)[0] for text in logs]
    now = [_as_read(log_sightings.from_dmesg(p)) for p in parsed]
    first = log_sightings._Reading.first

    def forgetting(self: log_sightings._Reading, key: Any, event: DmesgEvent) -> None:
        first(self, key, event)
        del self.said[key]  # the repeat's template then read from the repeat, as before

    monkeypatch.setattr(log_sightings._Reading, "first", forgetting)
    assert [_as_read(log_sightings.from_dmesg(p)) for p in parsed] == now
