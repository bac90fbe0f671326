"""`sbctune history` in an 80-column terminal (walk s23, after one quick run on the pi5-macb lab):
the runs' table was 170 columns wide ("Custom, from Quick (1 trial × 3 s per direction, 4
streams, 1 s omitted)" alone is 72) and the tuning session's line 400, every row cut by the
terminal. Where the table does not fit, each run takes a few lines of its own; a pipe, a file or
a wide terminal keep the table."""

from __future__ import annotations

from sbctune.cli.history_cmd import runs_lines

HEADER = ["Run", "Started", "Plan", "NIC", "Pi→PC", "PC→Pi", "Both ways Pi→PC/PC→Pi", "Tuning"]
PLAN = "Custom, from Quick (1 trial × 3 s per direction, 4 streams, 1 s omitted)"
ROWS = [
    ["2", "2026-11-30 15:25", PLAN, "eth0", "941", "939", "930/905",
     "tuned (read back); 5 tweaks in force"],
    ["1", "2026-11-30 15:20", PLAN, "eth0", "931", "938", "", "untuned"],
]  # fmt: skip


def test_runs_too_wide_for_the_terminal_take_lines_of_their_own() -> None:
    lines = runs_lines((HEADER, ROWS), 80)
    assert max(len(line) for line in lines) < 80, lines
    assert lines[:3] == [
        "  Run 2  2026-11-30 15:25  NIC eth0  tuned (read back); 5 tweaks in force",
        f"    {PLAN}",
        "    Pi→PC 941  PC→Pi 939  Both ways Pi→PC/PC→Pi 930/905",
    ]
    assert lines[3:] == ["  Run 1  2026-11-30 15:20  NIC eth0  untuned", f"    {PLAN}",
                         "    Pi→PC 931  PC→Pi 938"]  # fmt: skip


def test_a_pipe_or_a_wide_terminal_keeps_the_table() -> None:
    for width in (None, 200):
        lines = runs_lines((HEADER, ROWS), width)
        assert lines[0].split() == ["Run", "Started", "Plan", "NIC", "Pi→PC", "PC→Pi", "Both",
                                    "ways", "Pi→PC/PC→Pi", "Tuning"]  # fmt: skip
        assert len(lines) == 4
