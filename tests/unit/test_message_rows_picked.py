"""The kernel message table picks a line's candidate rows in C (issue 24, speed: session 26):
for each word of the line, the rows whose needle the line holds come from
``compress(rows, map(head.__contains__, needles))``, not from a Python test per row. The plain
loop (kept below as the reference: every row's needle tested in turn) gives the same message,
format for format, on the real kernel log lines of tests/captures/dmesg and on lines made of
the table's own words, with rows that have a packed needle and rows that have none."""

from __future__ import annotations

from pathlib import Path

from hypothesis import example, given, settings
from hypothesis import strategies as st

from sbctune.catalog import kernel_messages as km

CAPTURES = Path(__file__).resolve().parents[1] / "captures" / "dmesg"


def _plain_match(table: km.MessageTable, head: str) -> km.KernelMessage | None:
    """MessageTable._match as it was: each row under each of the line's words in turn."""
    tried = 0
    best: tuple[int, str, str, str, str] | None = None
    for word in dict.fromkeys(km._WORD_RE.findall(head)):
        packed = table._packed.get(word)
        if packed is None:
            continue
        for needle, row in (r.split(km._NEEDLE_END, 1) for r in packed.split("\n")):
            if not needle:
                needle = table._split_row(row)[4]
            if needle not in head:
                continue
            level, series, files, fmt, needle, literals = table._split_row(row)
            tried += 1
            if tried > km._MAX_TRIED:
                break
            if km._bare(fmt, literals) or not km._may_match(literals, head):
                continue
            if km._to_regex(fmt).search(head):
                weight = len(km._SPEC_RE.sub("", fmt))
                if best is None or weight > best[0]:
                    best = (weight, fmt, level, files, series)
        if tried > km._MAX_TRIED:
            break
    if best is None:
        return None
    _weight, fmt, level, files, series = best
    return km.KernelMessage(fmt, level, tuple(files.split(",")), tuple(series.split(",")))


def _real_lines() -> list[str]:
    lines: dict[str, None] = {}
    for path in sorted(CAPTURES.glob("*.txt")):
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            # the message after the clock, as the log reader asks the table
            lines[line.partition("] ")[2] or line] = None
    return list(lines)[:6000]


def test_the_real_lines_get_the_plain_loops_message() -> None:
    table, plain = km.load_messages(), km.load_messages()
    lines = _real_lines()
    assert len(lines) > 1000
    found = [table._match(line[:400]) for line in lines]
    assert found == [_plain_match(plain, line[:400]) for line in lines]
    assert sum(message is not None for message in found) > 100  # the table knows many


# a small table (key, level, series, files, format): rows with a packed needle, rows whose
# needle is empty (made when tried)
_ROWS = [
    ("dma", "err\t6.1\tdrivers/a.c\tfailed to reset the dma"),
    ("firmware", "err\t6.1\tdrivers/b.c\t%s: failed to load firmware %s (%d)"),
    ("failed", "warn\t6.12\tdrivers/c.c\tfailed to %s the %s"),
    ("failed", "err\t6.1\tdrivers/e.c\tlink failed: reset the phy"),
    ("link", "info\t6.1\tdrivers/d.c\tlink is up at %d Mbps"),
    ("reset", "err\t6.1\tdrivers/f.c\tfailed to reset the %s dma"),
]
_TABLE = "\n".join(f"{key}\t{row}" for key, row in _ROWS)
_WORDS = ["failed", "to", "reset", "the", "dma", "load", "firmware", "link", "is", "up", "at",
          "Mbps", "phy", "eth0:", "(-2)", "100", "x.bin", "reset:", "failed:"]  # fmt: skip


@settings(max_examples=300, deadline=None)
@example(words=["eth0:", "failed", "to", "load", "firmware", "x.bin", "(-2)"], unpacked={1})
@example(words=["failed", "to", "reset", "the", "dma"], unpacked=set())
@given(
    words=st.lists(st.sampled_from(_WORDS), max_size=12),
    unpacked=st.sets(st.integers(0, len(_ROWS) - 1)),
)
def test_made_lines_get_the_plain_loops_message(words: list[str], unpacked: set[int]) -> None:
    index = km.packed_rows(_TABLE)
    # some rows without their packed needle (as a row whose needle holds NUL is kept)
    bare = {_ROWS[i][1] for i in unpacked}
    for key, packed in index.items():
        index[key] = "\n".join(
            f"{km._NEEDLE_END}{row}" if row in bare else f"{needle}{km._NEEDLE_END}{row}"
            for needle, row in (r.split(km._NEEDLE_END, 1) for r in packed.split("\n"))
        )
    head = " ".join(words)
    table, plain = km.MessageTable("", {}, dict(index)), km.MessageTable("", {}, dict(index))
    assert table._match(head) == _plain_match(plain, head)
