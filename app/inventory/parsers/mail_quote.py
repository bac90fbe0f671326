"""Pastes quoted in a mail or forum reply (issue 24: "any log wrapper").

A reply quotes what it answers with `>` marks, one per level (`> `, `> > > > `, `>> `), and
the mail client of each level may wrap the quoted text again, narrower each time: a kernel line
comes back in two or three quoted pieces (`> > kern  :err   : [  242.2] e1000e 0000:00:19.0
eth0:` / `> > Hardware` / `> > Error`), and a client that reflows paragraphs (Outlook) runs
whole syslog lines together before it wraps them (`... NIC Link is Down Jan  5 18:31:21 host
` / `> kernel: e1000: eth0: ...`).

unquote() takes the marks off a text whose lines are (nearly) all quoted, so that every
command's parser reads the output itself; for a kernel log, join_quoted_log() then puts each
kernel line back together: a piece without a log head of its own continues the line before
it, and a syslog head inside a line starts a new one. Both are one pass over the text, and a
text that does not start with a quote mark costs one anchored match.
"""

from __future__ import annotations

import re

_STARTS_QUOTED = re.compile(r"[ \t]*>")
_MARKS = re.compile(r"^[ \t]*(?:>[ \t]?)+", re.MULTILINE)
QUOTED_SHARE = 0.8  # of the non-blank lines: a reply quoting an output, not a '>' in one

# A line that starts a kernel log record: a syslog/journal head, `dmesg -x`'s facility and
# level ("kern  :warn  : [", lkp's "kern :warn : ["), the kernel's clock, a /dev/kmsg level.
_SYSLOG_HEAD = r"[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d \S+ kernel(?:\[\d+\])?:"
_HEAD = re.compile(
    rf"^(?:{_SYSLOG_HEAD}|[a-z]{{2,8}} *:[a-z]{{3,6}} *: \[|\[\s*\d+\.\d+\]|<\d>|"
    r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d)"
)
# a syslog head inside a line that a reflowing client ran together with the one before
_INNER_SYSLOG = re.compile(rf" (?={_SYSLOG_HEAD} )")
# a piece that cannot continue a kernel line: a prompt, an elision, a fence, a blank
_NOT_A_PIECE = re.compile(r"^(?:\S*[$#]\s|\S*[$#]$|\.\.\.|```|\s*$)")


def unquote(text: str) -> tuple[str, bool]:
    """The text without its quote marks, and whether it was quoted."""
    if not _STARTS_QUOTED.match(text):
        return text, False
    lines = [ln for ln in text.split("\n") if ln.strip()]
    quoted = sum(1 for ln in lines if _STARTS_QUOTED.match(ln))
    if not lines or quoted < QUOTED_SHARE * len(lines):
        return text, False
    return _MARKS.sub("", text), True


def join_quoted_log(text: str) -> str:
    """Kernel log lines that mail clients wrapped or ran together, one per line again. A line
    keeps its place (a joined piece leaves an empty line), so later lines keep their numbers."""
    out: list[str] = []
    record = -1  # index in out of the line the next piece continues
    for line in text.split("\n"):
        if _HEAD.match(line):
            record = len(out)
            out.append(line.rstrip())
        elif record >= 0 and not _NOT_A_PIECE.match(line) and not line[:1].isspace():
            out[record] = f"{out[record]} {line.strip()}"
            out.append("")
        else:
            record = -1
            out.append(line)
    return "\n".join(_INNER_SYSLOG.sub("\n", ln) if " kernel" in ln else ln for ln in out)
