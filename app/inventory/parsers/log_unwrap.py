"""Kernel log lines that a mail client or a forum wrapped: in a syslog/journal log
(``Jan 05 00:30:34 host kernel: usb 2-8: new high-speed USB device number 6`` / ``using
ehci-pci``) a line with no log prefix of its own, right after a long prefixed line, is the
rest of that line (a mail client wraps at about 72-80 columns). Such a log's lines are joined
back before they are read; a log whose every line has its prefix is returned as it is, after
one whole-text search (no per-line pass over a long log that has no wrapped line)."""

from __future__ import annotations

import re

# the month as the locale writes it: "Jul", or journalctl's "jul" under some locales
_SYSLOG_HEAD = re.compile(r"^[A-Za-z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d \S+ kernel: ")
# a line (not the first) that does not start with a syslog clock: a candidate continuation
_NO_HEAD = re.compile(r"\n(?![A-Za-z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d )[^\s\[]", re.MULTILINE)
# a wrapped line's rest is a fragment: words, "key=value", addresses, commas; never a message
# of its own ("driver: text"), a prompt, a fence, an elision or a log prefix ("<6>", "[")
_FRAGMENT = re.compile(r"[\w.=,:/ -]*[A-Za-z0-9=][\w.=,:/ -]*")
WRAP_MIN = 60  # a line shorter than this was not wrapped by a mail client
CONT_MAX = 80  # nor is a longer "continuation" one: it is a line of its own


def _rest_of(head: str, rest: str) -> bool:
    """A fragment continues the line before it; so does any text that is no log line of its
    own after a line wrapped right after its function's "name:" ("brcmfmac:
    brcmf_sdio_hostmail: " / "Unknown mailbox data content: 0x40012"): its message is next."""
    if head.rstrip().endswith(":") and rest[:1] not in "<[`#$>|":
        return _SYSLOG_HEAD.match(rest) is None
    return ": " not in rest and not rest.endswith((":", "...")) and bool(_FRAGMENT.fullmatch(rest))


def join_mail_wrapped(text: str) -> str:
    start = text[:400].lstrip()  # not the whole text: a long log is not copied to test it
    if not _SYSLOG_HEAD.match(start) or _NO_HEAD.search(text) is None:
        return text
    out: list[str] = []
    joined_last = False
    head_at = -1  # the last line that had the log prefix (the one a rest is joined to)
    for line in text.split("\n"):
        rest = line.strip()
        if (
            rest
            and not line[0].isspace()
            and len(line) <= CONT_MAX
            and not joined_last
            and head_at >= 0
            and head_at == len(out) - 1
            and len(out[head_at].rstrip()) >= WRAP_MIN
            and _rest_of(out[head_at], rest)
        ):
            out[head_at] = out[head_at].rstrip() + " " + rest
            out.append("")  # the line's place is kept: later lines keep their numbers
            joined_last = True
            continue
        joined_last = False
        if _SYSLOG_HEAD.match(line):
            head_at = len(out)
        out.append(line)
    return "\n".join(out)
