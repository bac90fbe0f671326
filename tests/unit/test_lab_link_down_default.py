"""The lab's link drop by default is the shortest real one, never instant (walk s23: `[lab]
link_down_seconds` defaulted to 0, so a lab link a driver restarts was back at once, kinder
than any kernel: apply's wait words never showed in a lab run, a read-back right after the
write always found the link up). The figure comes from the captures the product's "drops for
about 3 s" comes from (resources/tuning/link_restart.json)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sbctune.lab.errors import ProfileError
from sbctune.lab.profile_lab import default_link_down_seconds, link_down_seconds
from sbctune.resources import resource_root

CORPUS = Path(__file__).resolve().parents[1] / "captures" / "corpus"


def _drops(folder: str) -> list[float]:
    """Seconds from each 'Link is Down' to the next 'Link is Up' in a real dmesg capture."""
    seen, down = [], None
    for path in sorted((CORPUS / folder / "commands").iterdir()):
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.startswith("[") or "] " not in line:
                continue
            stamp = float(line[1 : line.index("]")])
            if line.endswith("Link is Down"):
                down = stamp
            elif "Link is Up" in line and down is not None:
                seen.append(stamp - down)
                down = None
    return seen


def test_the_table_says_what_the_captures_show() -> None:
    table = json.loads(
        resource_root().joinpath("tuning", "link_restart.json").read_text(encoding="utf-8")
    )
    drops = _drops("pi4_linux_4560_bcmgenet_flapping") + _drops("bb_ai_soem_441_cpsw_1g")
    assert len(drops) == 6
    assert table["seen_seconds"] == [round(min(drops), 1), round(max(drops), 1)] == [2.0, 3.1]


def test_a_profile_without_the_key_drops_the_link_for_the_shortest_real_drop() -> None:
    assert link_down_seconds({}, "lab.toml") == default_link_down_seconds() == 2.0  # before: 0


def test_a_profile_still_chooses_its_own() -> None:
    assert link_down_seconds({"link_down_seconds": 0}, "lab.toml") == 0.0
    assert link_down_seconds({"link_down_seconds": 6}, "lab.toml") == 6.0
    with pytest.raises(ProfileError):
        link_down_seconds({"link_down_seconds": 11}, "lab.toml")
