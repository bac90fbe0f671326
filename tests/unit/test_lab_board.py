"""The lab's board (model, SoC) comes only from a profile's real captures: a captured
device-tree model or /proc/cpuinfo is served as is; a profile without one keeps the board
unknown, and its SOURCE.md and `lab up` say why (sbctune.lab.board)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from sbctune.inventory.bundle import Bundle, read_bundle
from sbctune.lab import overlay
from sbctune.lab.board import board_sources, board_words
from sbctune.lab.profile import find_profile, shipped_profiles
from tests.profile_fixtures import without_board

CAPTURES = Path(__file__).parents[1] / "captures"
PI4_CPUINFO = CAPTURES / "cpuinfo" / "pi4_rev12_armv7_hrw_31.txt"  # hrw/arm-socs-table#31
ZERO2_MODEL = CAPTURES / "device_tree_model" / "pizero2w_pikvm_1262_brcmfmac.txt"  # pikvm#1262


@pytest.mark.parametrize("name", shipped_profiles())
def test_a_shipped_profile_without_a_captured_board_says_why(name: str) -> None:
    folder = find_profile(name)
    bundle = read_bundle(folder)
    if board_sources(bundle):  # a profile with a capture: served, and named
        assert board_words(bundle).startswith("from the profile's captured ")
        return
    words = board_words(bundle)
    assert words.startswith("unknown (model and SoC)") and "never printed them" in words
    source = (folder / "SOURCE.md").read_text(encoding="utf-8")
    board = source.split("## Board (model, SoC)", 1)
    assert len(board) == 2, f"{name}/SOURCE.md does not say why the board is unknown"
    assert "Unknown in the lab" in board[1] and "/proc/device-tree/model" in board[1]


def _bundle(files: dict[str, str]) -> Bundle:
    return Bundle(source=Path("."), host="raspberrypi", created="", files=files)


# the overlay hands its files to the lab user (pwd): the lab is Linux's, not Windows's
BUILDS_THE_OVERLAY = pytest.mark.posix_only("builds the lab's overlay (pwd)")


@BUILDS_THE_OVERLAY
def test_real_captures_of_the_board_are_served_as_is(tmp_path: Path) -> None:
    cpuinfo = PI4_CPUINFO.read_text(encoding="utf-8")
    model = ZERO2_MODEL.read_text(encoding="utf-8")
    bundle = _bundle({"/proc/cpuinfo": cpuinfo, "/proc/device-tree/model": model})
    assert board_sources(bundle) == ["/proc/device-tree/model", "/proc/cpuinfo"]
    assert board_words(bundle) == (
        "from the profile's captured /proc/device-tree/model and /proc/cpuinfo"
    )
    plan = overlay.build(bundle, tmp_path / "lab")
    assert plan.model == model  # the device tree's model, verbatim, over /sys/firmware
    served = dict((target, Path(source)) for source, target in plan.file_binds)
    assert served["/proc/cpuinfo"].read_text(encoding="utf-8") == cpuinfo


@BUILDS_THE_OVERLAY
def test_no_capture_no_board(tmp_path: Path) -> None:
    # every shipped profile serves a real /proc/cpuinfo now (walk 25): its own fixture
    profile = without_board("pi4-ax88179", tmp_path / "profile")
    bundle = read_bundle(profile)
    plan = overlay.build(bundle, tmp_path / "lab")
    assert plan.model is None
    # Not the host's /proc/cpuinfo either (its CPUs are not the Pi's): an empty file over it.
    served = dict((target, Path(source)) for source, target in plan.file_binds)
    assert served["/proc/cpuinfo"].read_text(encoding="utf-8") == ""
    assert board_words(bundle).startswith("unknown")


@pytest.mark.posix_only("runs the lab's fake commands with /bin/sh")
@pytest.mark.parametrize("program", sorted(overlay.HARDWARE_PROGRAMS))
def test_hardware_the_profile_did_not_capture_is_not_the_hosts(
    tmp_path: Path, program: str
) -> None:
    """pi5-macb captured no command and no hardware file but /proc/cmdline (audit 23),
    /proc/cpuinfo (walk 24) and /proc/interrupts (walk 26): its lab must not run this machine's
    lspci, lsusb or dmesg (the host VM's Virtio NIC showed as the Pi's), nor serve the host's
    modules or boot arguments."""
    bundle = read_bundle(find_profile("pi5-macb"))
    plan = overlay.build(bundle, tmp_path / "lab")
    served = dict((target, Path(source)) for source, target in plan.file_binds)
    missing = [path for path in overlay.HARDWARE_FILES if bundle.file(path) is None]
    assert missing == ["/proc/modules"]
    assert [served[path].read_text(encoding="utf-8") for path in missing] == [""] * len(missing)
    script = Path(plan.bin_dir) / program
    ran = subprocess.run(
        ["/bin/sh", str(script), "-v"], capture_output=True, text=True, timeout=10, check=False
    )
    assert (ran.returncode, ran.stdout) == (overlay.HARDWARE_PROGRAMS[program], "")
    said = f"{program}: not available in this lab: its profile has no capture of this\n"
    assert ran.stderr == said
