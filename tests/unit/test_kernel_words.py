"""The Pi's kernel in plain words (sbctune.kernel_words): `uname` prints "unknown" for a field
it does not know (the lab's pi5-macb, whose kernel nobody published), and the connect screen
read "Linux unknown unknown". Now: "kernel version not known", and the machine only where known.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sbctune.inventory.model import Board, Inventory
from sbctune.inventory.report import render
from sbctune.kernel_words import FIELD_NOT_KNOWN, NOT_KNOWN, release_words, uname_words
from tests.unit.test_lab_uname import lab_bin, run

# A real `uname -a` of a Raspberry Pi 3 B+, from tests/unit/test_lab_uname.py's PASTED
# (https://github.com/raspberrypi/linux/issues/7436, comment by nbuchwitz): its -srm fields.
KNOWN = "Linux 6.12.47+rpt-rpi-v8 aarch64\n"


def test_known_fields_read_as_uname_printed_them() -> None:
    assert uname_words(KNOWN) == "Linux 6.12.47+rpt-rpi-v8 aarch64"
    assert release_words("6.12.47+rpt-rpi-v8\n") == "6.12.47+rpt-rpi-v8"


@pytest.mark.parametrize(
    ("printed", "shown"),
    [
        ("Linux unknown unknown\n", NOT_KNOWN),
        ("Linux unknown aarch64\n", NOT_KNOWN + " (aarch64)"),
        ("Linux 6.1.0-rpi7-rpi-v8 unknown\n", "Linux 6.1.0-rpi7-rpi-v8"),
        ("", NOT_KNOWN),
        ("\n", NOT_KNOWN),
    ],
)
def test_an_unknown_field_reads_in_plain_words(printed: str, shown: str) -> None:
    assert uname_words(printed) == shown


def test_an_unknown_release_reads_in_plain_words() -> None:
    assert release_words("unknown\n") == NOT_KNOWN
    assert release_words(None) == NOT_KNOWN
    assert release_words("", FIELD_NOT_KNOWN) == "version not known"


@pytest.mark.posix_only("runs the lab's uname, a POSIX shell script")
def test_the_labs_own_uname_of_a_profile_without_a_kernel(tmp_path: Path) -> None:
    """pi5-macb captured no uname and names no kernel: its lab prints "Linux unknown unknown"
    for `uname -srm` (what `connect` asks), and the user reads "kernel version not known"."""
    bin_dir = lab_bin(tmp_path, "pi5-macb")
    printed = run(bin_dir, "-srm").stdout
    assert printed == "Linux unknown unknown\n"  # GNU uname's way: the lab is right to print it
    assert uname_words(printed) == NOT_KNOWN
    assert release_words(run(bin_dir, "-r").stdout) == NOT_KNOWN


def test_inspects_report_says_the_kernel_version_is_not_known() -> None:
    text = render(Inventory(board=Board(kernel=None)))
    line = next(ln for ln in text.splitlines() if "kernel:" in ln)
    assert line.endswith("kernel: version not known"), line
    assert "kernel: unknown" not in text


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_any_text_from_the_pi_reads_bounded_and_never_unknown_unknown(text: str) -> None:
    shown = uname_words(text)
    assert shown and "unknown unknown" not in shown.lower()
    assert len(shown) <= 3 * 80 + 2 and "\n" not in shown and "\x1b" not in shown
    assert release_words(text)
