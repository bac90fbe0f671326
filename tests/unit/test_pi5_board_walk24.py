"""A Pi 5's board as a real Pi 5 shows it (walk 24).

`sbctune inspect` of the pi5-macb lab said "/proc/cpuinfo: the Pi gave nothing" and showed the
model and SoC as unknown: the lab served an empty /proc/cpuinfo. A real Pi 5 on Raspberry Pi OS
prints four Cortex-A76 blocks, then Revision, Serial and Model, and no Hardware line
(raspberrypi/linux PR #5690 deleted it; tests/captures/cpuinfo/pi5_rev10_mobile_montgomery.txt,
weijiekoh/mobile_montgomery). The product reads the board from Model and Revision; the lab now
serves that capture; no warning about /proc/cpuinfo is left.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sbctune.advice.inspect import inspect_bundle
from sbctune.inventory.bundle import read_bundle
from sbctune.inventory.report import render
from sbctune.lab import overlay
from sbctune.lab.board import board_words
from sbctune.lab.profile import find_profile

CAPTURE = (
    Path(__file__).resolve().parents[1] / "captures" / "cpuinfo" / "pi5_rev10_mobile_montgomery.txt"
)


def _write_bundle(folder: Path, cpuinfo: str) -> Path:
    folder.mkdir()
    (folder / "cpuinfo.txt").write_text(cpuinfo, encoding="utf-8")
    (folder / "manifest.json").write_text(
        '{"format": "sbctune-bundle", "version": 1, "created": "2026-11-30T00:00:00Z", '
        '"host": "pi5", "commands": {}, "files": {"/proc/cpuinfo": "cpuinfo.txt"}, '
        '"exit_codes": {}}',
        encoding="utf-8",
    )
    return folder


def test_a_real_pi5_cpuinfo_without_hardware_names_the_board(tmp_path: Path) -> None:
    text = CAPTURE.read_text(encoding="utf-8")
    assert "Hardware" not in text  # the Pi 5's own format (PR #5690)
    inventory = inspect_bundle(_write_bundle(tmp_path / "b", text))
    board = inventory.board
    assert (board.model, board.soc, board.cpu_cores) == ("Raspberry Pi 5 Model B Rev 1.0",
                                                         "BCM2712", 4)  # fmt: skip
    assert not inventory.warnings
    lines = render(inventory).splitlines()
    assert "  model:   Raspberry Pi 5 Model B Rev 1.0" in lines
    assert "  SoC:     BCM2712   cores: 4" in lines


CPUINFO = CAPTURE.parent


@pytest.mark.posix_only("builds the lab's overlay (pwd)")
@pytest.mark.parametrize(
    ("profile", "capture", "model", "soc"),
    [
        ("pi5-macb", CAPTURE.name, "Raspberry Pi 5 Model B Rev 1.0", "BCM2712"),
        ("pi3bplus-lan78xx", "pi3bplus_rev13_hrw_29.txt", "Raspberry Pi 3 Model B Plus Rev 1.3",
         "BCM2837B0"),
    ],
)  # fmt: skip
def test_the_lab_serves_what_a_real_pi_prints(
    tmp_path: Path, profile: str, capture: str, model: str, soc: str
) -> None:
    """No real Pi prints an empty /proc/cpuinfo: the lab of a profile with none said
    "/proc/cpuinfo: the output is empty" in `sbctune inspect` (pi5-macb, pi3bplus-lan78xx)."""
    found = find_profile(profile)
    bundle = read_bundle(found)
    plan = overlay.build(bundle, tmp_path / "lab")
    served = dict((target, Path(source)) for source, target in plan.file_binds)
    text = (CPUINFO / capture).read_text(encoding="utf-8")
    assert served["/proc/cpuinfo"].read_text(encoding="utf-8") == text
    assert board_words(bundle) == "from the profile's captured /proc/cpuinfo"
    inventory = inspect_bundle(found)
    assert (inventory.board.model, inventory.board.soc) == (model, soc)
    assert not [w for w in inventory.warnings if "cpuinfo" in w]
