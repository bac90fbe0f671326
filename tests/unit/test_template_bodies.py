"""A long log's template search (template_names) reads the log's distinct line texts first
(DmesgResult.bodies) and scans the whole text only for the templates they hold (issue 24: nine
`str.find` scans of a 100 000-line log were ~60 ms). The texts must hold every word of the log
whatever wrapper, clock, printk caller, elision or NUL it has: then the sightings are the same
as the full scan's."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from sbctune.inventory.parsers.dmesg import parse_dmesg
from sbctune.inventory.sightings import Sighting
from sbctune.inventory.template_names import template_sightings

_HEADS = [
    "",
    "[    1.000000] ",
    "[ 2.5] ",
    "[    7.040000] [1: kworker/1:3: 9974] ",  # Samsung's caller: a task's name
    "[    7.041000] [1: kbnepd bnep3: 97] ",  # ... holding a template's name
    "[    9.346320][  T187] ",
    "[6.679649@3]d ",
    "<6>",
    "Sun Oct 13 10:00:00 2024 kern.warn kernel: [ 12.3] ",
    "Jan 01 00:00:01 host kernel: ",
    "pi@raspberrypi:~ $ ",
    "> ",
    "  ",
]
_WORDS = [
    "bnep0",
    "thunderbolt1",
    "qmimux12",
    "hdlc3",
    "mctptest0",
    "xbnep0",
    "bnep",
    "r8152 2-1:1.0 eth0: ",
    "bluetoothd[812]: Added new connection: ",
    "usb 1-1.2: new high-speed USB device",
    " ... ",
    "...",
    "\x00",
    "🟡",
    "@",
    ":~",
    " ",
    ": ",
    "-",
    "\t",
]
_LINE = st.builds(
    lambda head, words: head + "".join(words),
    st.sampled_from(_HEADS),
    st.lists(st.sampled_from(_WORDS), max_size=5),
)
_LOG = st.lists(_LINE, max_size=12).map("\n".join)


def _plain(found: list[Sighting]) -> list[object]:
    return [
        (s.keys, [(f.field, f.value, f.source, f.line, f.order) for f in s.facts]) for s in found
    ]


@settings(max_examples=300, deadline=None)
@given(_LOG)
def test_the_bodies_hold_every_word_of_the_log(text: str) -> None:
    result, _warnings = parse_dmesg(text)
    assert result.read is text and result.bodies is not None
    held = "\n".join(result.bodies)
    for word in re.findall(r"[A-Za-z0-9_-]+", text):
        if sum(c.isalpha() for c in word) >= 2:
            assert word in held


@settings(max_examples=300, deadline=None)
@given(_LOG)
def test_the_templates_found_through_the_bodies_are_the_full_scan_s(text: str) -> None:
    result, _warnings = parse_dmesg(text)
    assert _plain(template_sightings(text, result.bodies)) == _plain(template_sightings(text))


def test_a_template_in_a_task_s_name_is_still_found() -> None:
    text = "[    7.041000] [1: kbnepd bnep3: 97] hub 2-0:1.0: USB hub found\n" * 3
    result, _warnings = parse_dmesg(text)
    assert result.bodies is not None
    found = template_sightings(text, result.bodies)
    assert [s.keys for s in found] == [[("if", "bnep3")]]
    assert _plain(found) == _plain(template_sightings(text))


def test_a_log_without_a_template_is_not_scanned_for_one() -> None:
    """The mechanism: the full text is searched only for templates its line texts hold."""
    text = "".join(f"[{n:5d}.000000] r8152 2-1:1.0 eth0: carrier on\n" for n in range(50))
    result, _warnings = parse_dmesg(text)
    assert result.bodies == ("r8152 2-1:1.0 eth0: carrier on",)

    class Watched(str):
        finds = 0

        def find(self, *args: object) -> int:  # type: ignore[override]
            Watched.finds += 1
            return super().find(*args)  # type: ignore[arg-type]

    assert template_sightings(Watched(text), result.bodies) == []
    assert Watched.finds == 0
    template_sightings(Watched(text))
    assert Watched.finds >= 9
