"""The network daemons' reader's gate (parsers/daemon_lines.may_be_daemon_line): substring
tests of its daemons' literals, in place of a regex alternating them that ran on every
distinct message of a long log (issue 24, speed). It holds exactly when a literal is in the
message, as the regex did."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from sbctune.inventory.parsers import daemon_lines
from sbctune.inventory.parsers.daemon_lines import _DAEMON_OF, daemon_line, may_be_daemon_line
from tests.corpus_support import CORPUS

_PIECES = (
    *_DAEMON_OF, "systemd-networkd[412]: ", "end0: ", "Gained carrier", "device (end1): ",
    "state change: ", "dhcp4 (wlan0): ", "dhcp6 (", "device(", "dhcp4(", "systemd-network",
    "<info>  [1700000000.1234] ", "x", " ",
)  # fmt: skip
_MADE = st.lists(st.sampled_from(_PIECES) | st.text(max_size=6), max_size=8).map("".join)


@settings(max_examples=500, deadline=None)
@given(_MADE)
def test_gate_is_any_literal_of_the_daemons(text: str) -> None:
    assert may_be_daemon_line(text) == any(literal in text for literal in _DAEMON_OF)


def test_corpus_lines_read_as_with_the_regex_gate() -> None:
    """Every line of every stored output of the corpus (journals of networkd and
    NetworkManager among them): the gate says what the old regex said (the reading after it
    is unchanged), and the reader reads some of them."""
    old = re.compile("|".join(re.escape(needle) for needle in _DAEMON_OF))
    read = 0
    for path in sorted(CORPUS.glob("*/commands/*")):
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            assert may_be_daemon_line(line) == (old.search(line) is not None), line
            read += daemon_line(line) is not None
    assert read > 20
    assert not hasattr(daemon_lines, "_NEEDLE_RE")  # no regex gate left beside it
