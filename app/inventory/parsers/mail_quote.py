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

A mail copied from a list archive's raw message is quoted-printable (RFC 2045 6.7): `=`
written `=3D`, and a line longer than 76 characters cut by a soft line break, `=` at its end,
even inside a word (`... 6c:3c:8c:2c:bd:=` / `de, XID 541`). from_quoted_printable() decodes a
text only when every `=` in it is such an escape and it holds a `=3D` or a soft break: a log's
own `key=value` (`vga=794`) is left alone.
"""

from __future__ import annotations

import quopri
import re

_STARTS_QUOTED = re.compile(r"[ \t]*>")
_MARKS = re.compile(r"^[ \t]*(?:>[ \t]?)+", re.MULTILINE)
QUOTED_SHARE = 0.8  # of the non-blank lines: a reply quoting an output, not a '>' in one
# the replier's own elision marks between quoted pieces ("[snip]", "[...]") are no lines of it
_ELISION = re.compile(r"^\s*(?:\.\.\.|…|\[(?:\.\.\.|…|snip(?:ped)?)\]|<snip>|\(\.\.\.\))\s*$", re.I)

# A line that starts a kernel log record: a syslog/journal head, `dmesg -x`'s facility and
# level ("kern  :warn  : [", lkp's "kern :warn : ["), the kernel's clock, a /dev/kmsg level.
_SYSLOG_HEAD = r"[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d \S+ kernel(?:\[\d+\])?:"
_HEAD = re.compile(
    rf"^\|?(?:{_SYSLOG_HEAD}|[a-z]{{2,8}} *:[a-z]{{3,6}} *: \[|\[\s*\d+\.\d+\]|<\d>|"
    r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d|"
    r"\[\S{1,4} \S{1,4} [ \d]?\d \d\d:\d\d:\d\d \d{4}\])"  # dmesg -T, any locale
)
# a syslog head inside a line that a reflowing client ran together with the one before
_INNER_SYSLOG = re.compile(rf" (?={_SYSLOG_HEAD} )")
# a piece that cannot continue a kernel line: a prompt ("~ # dmesg", "root@pi:~$ "), a line a
# console marks as its own ("|..."), an elision, a fence, a blank
_NOT_A_PIECE = re.compile(r"^(?:\S*\s?[$#](?:\s|$)|\||\.\.\.|```|\s*$)")


# every "=" an escape (=XX in upper-case hex) or a soft break; a "=3D" or a soft break present
_QP_BAD = re.compile(r"=(?![0-9A-F]{2}|\r?\n)")
_QP_SIGN = re.compile(r"=3D|=\r?\n")


def from_quoted_printable(text: str) -> tuple[str, bool]:
    """The text decoded, and whether it was quoted-printable."""
    # a log's own "key=value" usually comes early: the test for it first (it ends there)
    if "=" not in text or _QP_BAD.search(text) or not _QP_SIGN.search(text):
        return text, False
    try:
        return quopri.decodestring(text.encode("utf-8")).decode("utf-8", "replace"), True
    except ValueError:  # pragma: no cover - quopri decodes what the test above lets through
        return text, False


def unquote(text: str) -> tuple[str, bool]:
    """The text without its quote marks (and its quoted-printable escapes), and whether it was
    a mail's: quoted or quoted-printable, either of which a mail client may have wrapped."""
    text, encoded = from_quoted_printable(text)
    if not _STARTS_QUOTED.match(text):
        return text, encoded
    lines = [ln for ln in text.split("\n") if ln.strip() and not _ELISION.match(ln)]
    quoted = sum(1 for ln in lines if _STARTS_QUOTED.match(ln))
    if not lines or quoted < QUOTED_SHARE * len(lines):
        return text, encoded
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
