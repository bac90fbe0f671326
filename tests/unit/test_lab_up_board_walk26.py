"""`sbctune lab up` names the board the lab imitates, and where its interrupt lines come from
(walk 26).

Before, `lab up` printed "board: from the profile's captured /proc/cpuinfo": a new user had to
inspect the lab to learn it was a Pi 1 Model B or a Compute Module 4, and nothing said that a
lab without a captured /proc/interrupts would make `inspect` warn "the Pi gave nothing".
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sbctune.cli.lab_cmd import _print_info
from sbctune.lab.manager import _lab_info
from sbctune.lab.profile import load_profile, shipped_profiles

# the model each shipped profile's captured /proc/cpuinfo names (tests/captures/cpuinfo)
MODELS = {
    "cm4-": "Raspberry Pi Compute Module 4 Rev 1.1",
    "pi1b-": "Raspberry Pi Model B Rev 2",
    "pi3bplus-": "Raspberry Pi 3 Model B Plus Rev 1.3",
    "pi4-": "Raspberry Pi 4 Model B Rev 1.4",
    "pi5-": "Raspberry Pi 5 Model B Rev 1.0",
}


def _shown(name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, str]:
    _print_info(_lab_info("walk26t", load_profile(name), 0, tmp_path))
    lines = capsys.readouterr().out.splitlines()
    return {
        ln.split(":", 1)[0].strip(): ln.split(":", 1)[1].strip() for ln in lines[1:] if ":" in ln
    }


@pytest.mark.parametrize("name", shipped_profiles())
def test_lab_up_names_the_board(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    model = next(m for prefix, m in MODELS.items() if name.startswith(prefix))
    shown = _shown(name, tmp_path, capsys)
    assert shown["board"] == f"{model} (from the profile's captured /proc/cpuinfo)"


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("pi1b-smsc95xx", "from the profile's captured /proc/interrupts"),
        ("pi5-macb", "from the profile's captured /proc/interrupts"),
        ("cm4-rtl8125b-r8169", "only the NICs' lines, modelled from the kernel's source"),
        ("cm4-i340-nodriver", "none captured: the lab's /proc/interrupts is empty, so inspect"),
    ],
)
def test_lab_up_says_where_the_interrupt_lines_come_from(
    name: str, words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _shown(name, tmp_path, capsys)["IRQs"].startswith(words)


def test_a_cpuinfo_without_a_model_line_names_the_board_by_its_revision() -> None:
    """An older kernel's /proc/cpuinfo has no Model line (hrw/arm-socs-table issue 31: a Pi 4
    on a 32-bit kernel): the board is the one its Revision code names, as inspect reads it."""
    from sbctune.inventory.bundle import Bundle
    from sbctune.lab.board import board_line

    cpuinfo = Path(__file__).parents[1] / "captures" / "cpuinfo" / "pi4_rev12_armv7_hrw_31.txt"
    files = {"/proc/cpuinfo": cpuinfo.read_text(encoding="utf-8")}
    bundle = Bundle(source=Path("."), host="", created="", files=files)
    assert (
        board_line(bundle) == "Raspberry Pi 4 Model B (from the profile's captured /proc/cpuinfo)"
    )
