"""Walk 22: in an 80-column terminal the CLI's human text is broken between words with its
indent, never run to 132 columns (`inspect`'s chip line) and cut mid-word by the terminal;
sent to a pipe or a file (no width known) its lines stay whole, as scripts grep them."""

from __future__ import annotations

from pathlib import Path

import pytest

from sbctune.cli import fit as fit_module
from sbctune.cli.fit import fit
from tests.lab_support import cli_run

BUNDLE = Path(__file__).resolve().parents[1] / "captures/walk22/cm4-eth1-set-down"
CHIP = ("a chip of the igb driver's family (the kernel's Kconfig: “Intel(R) 82575/82576 "
        "PCI-Express Gigabit Ethernet support”)")  # fmt: skip


def _a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Standard output and error are an 80-column terminal (capsys's are not)."""
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setattr(fit_module, "_is_terminal", lambda stream: True)


def test_inspect_fits_an_80_column_terminal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _a_terminal(monkeypatch)
    code, out, _err = cli_run(["inspect", str(BUNDLE)], capsys)
    assert code == 0
    lines = out.splitlines()
    assert max(len(line) for line in lines) < 80, [line for line in lines if len(line) >= 80]
    at = next(i for i, line in enumerate(lines) if line.startswith("  chip:    a chip of the igb"))
    assert lines[at + 1].startswith("    ") and not lines[at + 1].startswith("     ")
    assert " ".join(w for line in lines[at : at + 2] for w in line.split()) == f"chip: {CHIP}"


def test_with_no_width_known_lines_stay_whole(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("COLUMNS", raising=False)
    code, out, _err = cli_run(["inspect", str(BUNDLE)], capsys)
    assert code == 0 and f"  chip:    {CHIP}" in out.splitlines()


def test_a_word_longer_than_the_line_is_never_cut() -> None:
    path = "/sys/devices/system/cpu/cpufreq/policy0/scaling_governor"
    text = fit(f"  {path}: ondemand -> performance and more words here", 40)
    assert path in text.split("\n")[0] and all(len(x) < 40 for x in text.split("\n")[1:])


def test_the_live_line_of_four_nics_fits(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from sbctune.cli.progress import say

    # `measure --all-nics` on the lab cm4-i340-igb printed this second as one 141-column line
    line = ("      2.0 s  Pi → PC  eth0  771.0  eth1  773.0  eth2  774.0  eth3  760.0  total  "
            "3078.0 Mbit/s   lab host busiest: cpu0 100% (irq+softirq 4%)")  # fmt: skip
    _a_terminal(monkeypatch)
    say(line)
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2 and all(len(x) < 80 for x in lines)
    assert lines[1].startswith("        ") and " ".join(" ".join(lines).split()) == " ".join(
        line.split()
    )


def test_a_pipe_keeps_whole_lines_even_with_columns_set(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """pytest-xdist sets COLUMNS=80 in its workers and their children, as a shell may: output
    to a pipe or a file is still not a terminal's, and scripts grep its whole lines."""
    monkeypatch.setenv("COLUMNS", "80")
    code, out, _err = cli_run(["inspect", str(BUNDLE)], capsys)
    assert code == 0 and f"  chip:    {CHIP}" in out.splitlines()


def test_a_table_too_wide_takes_a_block_per_row() -> None:
    from sbctune.cli.fit import table_fit
    from sbctune.export.tables import text

    # `compare 1 2` on the pi5-macb lab (walk s23): 117 columns at 80
    header = ["Direction", "Mode", "run 1", "run 2", "run 2 vs run 1"]
    rows = [["Pi → PC", "One way", "931 Mbit/s", "926 Mbit/s",
             "−5 Mbit/s (−0.5 %), no interval: fewer than 2 trials"]]  # fmt: skip
    drawn = text((header, rows))
    assert max(len(line) for line in drawn.splitlines()) > 80
    assert table_fit((header, rows), drawn, 80).splitlines() == [
        "Pi → PC · One way", "    run 1: 931 Mbit/s", "    run 2: 926 Mbit/s",
        "    run 2 vs run 1: −5 Mbit/s (−0.5 %), no interval: fewer than 2 trials",
    ]  # fmt: skip
    assert table_fit((header, rows), drawn, None) == drawn  # a pipe: the table
    assert table_fit((header, rows), drawn, 200) == drawn  # a wide terminal: the table


def test_a_url_too_long_for_its_indent_stands_at_the_left_margin() -> None:
    """Walk 26: `advise` printed a 129-column URL after an 8-space indent at 80 columns; the
    terminal cut it at column 80 and went on at column 0, tearing the indented block. The URL
    now stands alone at the left margin, whole, and every other line fits."""
    url = (
        "https://github.com/raspberrypi/documentation/blob/develop/documentation/asciidoc/"
        "computers/raspberry-pi/usb-bus-on-raspberry-pi.adoc"
    )
    lines = fit(f"      source: USB on Raspberry Pi: one root port at 480 Mbit/s — {url}", 80)
    shown = lines.split("\n")
    assert url in shown  # whole, on a line of its own, from the left margin
    assert all(len(line) < 80 for line in shown if line != url), shown
    assert shown[0].startswith("      source: USB on Raspberry Pi")
