"""The consent words the app shows for changes that drop the link (issue 21): the "about N s"
comes from resources/tuning/link_restart.json, and N is what the real captures it cites show
(a gigabit link down, then up again)."""

from __future__ import annotations

import re
from pathlib import Path

from sbctune.workflow.link_consent import (
    consent_text,
    held_text,
    link_down_seconds,
    plan_options,
)

CORPUS = Path(__file__).resolve().parents[1] / "captures" / "corpus"
STAMP = re.compile(r"^\[\s*(\d+\.\d+)\] .*: Link is (Down|Up)")


def _down_times(case: str) -> list[float]:
    """Seconds from each "Link is Down" to the next "Link is Up" in the case's dmesg."""
    text = (CORPUS / case / "commands" / "000-dmesg.txt").read_text(encoding="utf-8")
    gaps, down = [], None
    for line in text.splitlines():
        found = STAMP.match(line)
        if found is None:
            continue
        if found.group(2) == "Down":
            down = float(found.group(1))
        elif down is not None:
            gaps.append(float(found.group(1)) - down)
            down = None
    return gaps


def test_about_n_seconds_is_what_the_cited_captures_show() -> None:
    gaps = _down_times("pi4_linux_4560_bcmgenet_flapping") + _down_times("bb_ai_soem_441_cpsw_1g")
    assert len(gaps) == 6, gaps
    assert round(max(gaps)) == link_down_seconds() == 3
    assert min(gaps) > 1.5


def test_the_words_and_the_option() -> None:
    assert consent_text() == (
        "Also apply changes that briefly drop the network link (about 3 s; applied under the "
        "guard, which puts everything back if the Pi stops answering)"
    )
    assert "--" not in consent_text()
    assert plan_options(True) == {"allow_link_restart": True} and plan_options(False) == {}


def test_what_is_held_back_is_a_sentence_in_the_number_of_its_tweaks() -> None:
    one = held_text(["NIC rings to the hardware maximum"])
    assert one == (
        "Held back: NIC rings to the hardware maximum. It would briefly drop the link this app "
        "reaches the Pi through."
    )
    two = held_text(["NIC rings to the hardware maximum", "Energy-Efficient Ethernet off"])
    assert two.startswith("Held back: NIC rings to the hardware maximum, Energy-Efficient")
    assert two.endswith(". They would briefly drop the link this app reaches the Pi through.")
