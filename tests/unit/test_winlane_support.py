"""The Windows lane's own logic (packaging/winlane): what it installs and how it patches numpy."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "packaging" / "winlane"))
import setup_lane  # noqa: E402
import wine  # noqa: E402


def test_requirements_are_windows_ones() -> None:
    cfg = setup_lane.config()
    names = [r.split(">")[0].split("<")[0].split("=")[0].strip().lower()
             for r in setup_lane.requirements(cfg)]  # fmt: skip
    # pywin32 is sbctune's own dependency on Windows only: pip on Linux would leave it out.
    assert "pywin32" in names
    assert "pyside6-essentials" in names
    # tomli is for Python < 3.11; the embeddable CPython is newer.
    assert "tomli" not in names
    assert "pytest" in names and "pyinstaller" in names
    assert all(";" not in r for r in setup_lane.requirements(cfg))


def test_crt_math_fix_implements_the_aborting_stubs_and_forwards_the_rest() -> None:
    text = setup_lane.crt_math_def({"crealf", "cabsf", "sqrt", "cabs"})
    lines = text.splitlines()
    assert lines[0] == "LIBRARY winlane-crtmath-fix-l1-1-0.dll"
    assert "    crealf" in lines and "    cabsf" in lines
    assert "    sqrt = ucrtbase.sqrt" in lines and "    cabs = ucrtbase.cabs" in lines
    # Patched in place: the new name must fit where the old one was.
    assert len(setup_lane.CRT_MATH_FIX) == len(setup_lane.CRT_MATH)


@pytest.mark.skipif(sys.platform == "win32", reason="the lane's driver runs on Linux")
def test_linux_paths_are_on_wines_drive_z() -> None:
    assert wine.windows_path(Path("/tmp")) == "Z:\\tmp"
    assert wine.windows_path(Path("/")) == "Z:\\"


def test_live_inspects_compare_without_the_packet_counters_their_own_ssh_moves() -> None:
    import checks

    def doc(tx: int, driver: str) -> dict[str, object]:
        nic = {
            "name": "eth0",
            "driver": driver,
            "counters": {"tx_packets": tx},
            "ethtool_stats": {},
        }
        return {"board": {"model": "Pi 4"}, "nics": [nic]}

    same = checks._without_live_counters
    assert same(doc(11, "ax88179_178a")) == same(doc(17, "ax88179_178a"))
    # Anything else still differs: a different driver is a real difference between the two runs.
    assert same(doc(11, "ax88179_178a")) != same(doc(11, "cdc_ncm"))
