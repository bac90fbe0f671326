"""Every shipped lab profile serves the /proc/cpuinfo its board really prints (walk 25).

Session 24 left pi4-*, cm4-* and pi1b-smsc95xx serving an empty /proc/cpuinfo, so `sbctune
inspect` of those labs warned "the processor's description (/proc/cpuinfo): the Pi gave
nothing" (as if the user's Pi were broken) and showed the model and SoC as unknown. Each now
serves a real capture of a board of its own kind (tests/captures/cpuinfo, a .source.md beside
each: never another kind of board's), and the no-capture behaviour keeps its own fixture
(`tests.lab_support.without_board`).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sbctune.advice.inspect import inspect_bundle
from sbctune.inventory.bundle import read_bundle
from sbctune.inventory.report import render
from sbctune.lab import overlay
from sbctune.lab.board import board_words
from sbctune.lab.profile import find_profile, shipped_profiles

CAPTURES = Path(__file__).resolve().parents[1] / "captures" / "cpuinfo"

# the board each profile stands for (its SOURCE.md's seed), as its Model line must name it
BOARD_OF = {
    "pi1b-": ("Raspberry Pi Model B Rev ", "BCM2835", 1),
    "pi3bplus-": ("Raspberry Pi 3 Model B Plus ", "BCM2837B0", 4),
    "pi4-": ("Raspberry Pi 4 Model B ", "BCM2711", 4),
    "pi5-": ("Raspberry Pi 5 Model B ", "BCM2712", 4),
    "cm4-": ("Raspberry Pi Compute Module 4 ", "BCM2711", 4),
}


def _board_of(name: str) -> tuple[str, str, int]:
    return next(board for prefix, board in BOARD_OF.items() if name.startswith(prefix))


@pytest.mark.posix_only("builds the lab's overlay (pwd)")
@pytest.mark.parametrize("name", shipped_profiles())
def test_each_lab_shows_its_own_board_from_a_real_capture(tmp_path: Path, name: str) -> None:
    folder = find_profile(name)
    bundle = read_bundle(folder)
    plan = overlay.build(bundle, tmp_path / "lab")
    served = dict((target, Path(source)) for source, target in plan.file_binds)
    text = served["/proc/cpuinfo"].read_text(encoding="utf-8")
    # a real capture, kept with its source, never written for the lab
    same = [c for c in CAPTURES.glob("*.txt") if c.read_text(encoding="utf-8") == text]
    assert same, f"{name}: its /proc/cpuinfo is none of tests/captures/cpuinfo"
    assert all(c.with_suffix(".source.md").is_file() for c in same)
    assert board_words(bundle).startswith("from the profile's captured ")
    model, soc, cores = _board_of(name)
    inventory = inspect_bundle(folder)
    board = inventory.board
    assert board.model is not None and board.model.startswith(model), (name, board.model)
    assert (board.soc, board.cpu_cores) == (soc, cores), name
    # what the user reads: the board, and no word that the Pi's cpuinfo was empty
    assert f"  model:   {board.model}" in render(inventory).splitlines()
    assert not [w for w in inventory.warnings if "cpuinfo" in w], inventory.warnings
