"""`tune revert` says, before it puts back a value whose restore drops the link, what apply says
before writing it (walk 22: apply said "the link of eth1 drops for about 3 s … waiting", revert
said nothing while the Pi waited for the link, up to 18 s, and only then "dropped and came
back"). The NIC's driver comes from the Pi's `ethtool -i` (a real capture here), the facts
from the same table apply reads."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

from sbctune.remote import batch
from sbctune.tuning.model import Change
from sbctune.tuning.revert_link import ahead_words, link_facts_read

CAPTURES = Path(__file__).resolve().parents[1] / "captures"
# isc-projects/ethq issue 4: an I350 port on igb (its SOURCE.md beside it)
IGB = (CAPTURES / "ethtool_i" / "server_ethq_4_igb_ethtool_i_s_prompts_zero_errors.txt").read_text(
    encoding="utf-8"
)
RINGS = [
    Change("ethtool", "eth1 -G rx", "256", "4096"),
    Change("ethtool", "eth1 -G tx", "256", "4096"),
]


class _Pi:
    """Answers `ethtool -i` and `uname -r` as a Pi would; counts the round trips."""

    def __init__(self, ethtool_i: str, kernel: str = "6.1.0-rpi7-rpi-v8\n") -> None:
        self.answers = {"driver": ethtool_i, "kernel": kernel}
        self.asked: list[tuple[str, ...]] = []

    async def run_script(self, steps: Sequence[batch.Step], **_kw: Any) -> list[batch.StepResult]:
        self.asked += [s.argv for s in steps]
        return [batch.StepResult(s, 0, self.answers[s.key].encode(), b"") for s in steps]


def _facts(pi: _Pi, changes: list[Change], nic: str = "eth1") -> Any:
    return asyncio.run(link_facts_read(cast(Any, pi), nic, changes))


def test_a_ring_restore_on_igb_is_announced_with_the_wait() -> None:
    pi = _Pi(IGB)
    words = ahead_words(_facts(pi, RINGS), RINGS)
    assert words is not None
    assert words.startswith("the link of eth1 drops for about 3 s"), words
    assert "the igb driver" in words and "waiting for it to come back (at most 18 s)" in words
    assert words.endswith("before putting back the rest"), words  # not "reading the values back"
    assert pi.asked == [("ethtool", "-i", "eth1"), ("uname", "-r")]


def test_nothing_said_and_nothing_asked_for_changes_that_keep_the_link() -> None:
    pi = _Pi(IGB)
    sysctl = [Change("sysctl", "net.core.rmem_max", "212992", "4194304")]
    assert _facts(pi, sysctl) is None and pi.asked == []  # no round trip at all
    assert ahead_words(_facts(_Pi(IGB), [RINGS[0], *sysctl]), sysctl) is None


def test_an_unknown_or_garbled_driver_says_nothing() -> None:
    assert _facts(_Pi("driver: no-such-driver-x\n"), RINGS) is None
    assert _facts(_Pi("driver: igb igb\n" + "x" * 5000), RINGS) is None
    assert _facts(_Pi(IGB), RINGS, nic="../../etc") is None  # a record's NIC name is checked
