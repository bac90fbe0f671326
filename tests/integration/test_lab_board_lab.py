"""`inspect` of a lab shows the board where its profile captured it, over real SSH: a profile
with a real /proc/cpuinfo of a Pi 4 (hrw/arm-socs-table issue 31, tests/captures/cpuinfo) shows
its model and SoC; a profile whose source printed neither the device-tree model nor
/proc/cpuinfo keeps them unknown, and the lab says why (sbctune.lab.board)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from sbctune.advice.inspect import inspect_host
from sbctune.lab.model import LabInfo
from sbctune.lab.profile import find_profile
from tests.lab_support import connect_to_lab
from tests.profile_fixtures import without_board

pytestmark = [pytest.mark.lab]

PI4_CPUINFO = Path(__file__).parents[1] / "captures" / "cpuinfo" / "pi4_rev12_armv7_hrw_31.txt"


def _with_cpuinfo(tmp_path: Path) -> Path:
    """pi4-ax88179 plus a real /proc/cpuinfo of a Pi 4 (its source: the capture's .source.md)."""
    profile = tmp_path / "pi4-with-cpuinfo"
    shutil.copytree(find_profile("pi4-ax88179"), profile)
    shutil.copyfile(PI4_CPUINFO, profile / "files" / "001-proc_cpuinfo.txt")
    manifest = json.loads((profile / "manifest.json").read_text(encoding="utf-8"))
    manifest["files"]["/proc/cpuinfo"] = "files/001-proc_cpuinfo.txt"
    (profile / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return profile


async def test_inspect_of_a_lab_shows_the_captured_board_and_says_why_when_none(
    lab_factory: Callable[..., LabInfo], tmp_path: Path
) -> None:
    captured = lab_factory(_with_cpuinfo(tmp_path))
    # the board named first (walk 26), then where it comes from
    assert captured.board.startswith("Raspberry Pi 4 Model B"), captured.board
    assert captured.board.endswith(" (from the profile's captured /proc/cpuinfo)")
    async with await connect_to_lab(captured, tmp_path) as session:
        inventory, _ = await inspect_host(session)
    board = inventory.board
    assert board.model is not None and board.model.startswith("Raspberry Pi 4 Model B"), board
    assert board.soc == "BCM2711" and board.cpu_cores == 4, board

    # a profile whose source printed no board (every shipped one serves a real capture since
    # walk 25): the shipped pi4-ax88179 without its /proc/cpuinfo
    shipped = lab_factory(without_board("pi4-ax88179", tmp_path / "no-board"))
    assert shipped.board.startswith("unknown (model and SoC)"), shipped.board
    assert "never printed them" in shipped.board
    (tmp_path / "second").mkdir()
    async with await connect_to_lab(shipped, tmp_path / "second") as session:
        inventory, _ = await inspect_host(session)
    assert inventory.board.model is None and inventory.board.soc is None, inventory.board
