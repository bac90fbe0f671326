"""Profiles made for a test from a shipped one.

`without_board`: a shipped profile with its captured board files (/proc/cpuinfo, the
device-tree model) left out of its manifest: the fixture of the "no capture, no board" tests
since every shipped profile serves a real /proc/cpuinfo (walk 25). Its lab serves an empty
/proc/cpuinfo (not the host's) and keeps the model and SoC unknown, as a profile made from a
bundle that never printed them does."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from sbctune.lab.board import CPUINFO, MODEL_FILES
from sbctune.lab.profile import find_profile

BOARD_FILES = (*MODEL_FILES, CPUINFO)


def without_board(name: str, folder: Path) -> Path:
    """A copy of the shipped profile `name` in `folder` whose manifest names no board file."""
    shutil.copytree(find_profile(name), folder)
    manifest_path = folder / "manifest.json"
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    for path in BOARD_FILES:
        relative = manifest["files"].pop(path, None)
        if relative is not None:
            (folder / relative).unlink()
    manifest_path.write_text(json.dumps(manifest, indent=2), encoding="utf-8")
    return folder
