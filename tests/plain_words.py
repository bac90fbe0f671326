"""What a user must not read (issue 22): internal ids, raw statuses, seed file names, shell
one-liners and Markdown backticks. Used by the scans of the app, the CLI's human output and
the exports; the words to look for come from the data itself (the tweak ids, the statuses)."""

from __future__ import annotations

import json
import re
from typing import get_args

from sbctune.resources import resource_root
from sbctune.tuning.model import LiveState, Status


def _tweak_ids() -> list[str]:
    data = json.loads((resource_root() / "tuning" / "tweaks.json").read_text(encoding="utf-8"))
    return [t["id"] for t in data["tweaks"] if "-" in t["id"]]  # "xps" is also a plain word


SESSION_ID = re.compile(r"\b\d{8}T\d{6}Z-[0-9a-z]+\b")
RAW_STATUSES = [s for s in (*get_args(Status), *get_args(LiveState)) if "_" in s]
PATTERNS = [
    (re.compile(r"\bseeds? ?\d{3}\b|\bseed-\d{3}\b", re.I), "a seed's number"),
    (re.compile(r"\bthe seeds?'?\b|\bseed method\b", re.I), "the seeds named to a user"),
    (re.compile(r"\b\d{3}_[0-9a-f]{16}\b"), "a seed file name"),
    (re.compile(r"`"), "a backtick"),
    (re.compile(r"\bsh -c\b|\| *tee\b|printf \""), "a shell one-liner"),
    (re.compile(r"\[user@\]host\[:port\]"), "a grammar of the address instead of words"),
    (re.compile(r"\[\d+(?:, \d+)*\]"), "a Python list of numbers"),
    (re.compile(r"/(?:proc|sys)/[^\s:;]+: [A-Z]"), "a kernel file's path before its error"),
    # A tuning session's id (scripts.new_session_id: UTC stamp and a random suffix) and where
    # the Pi keeps it: "tuning applied at 18:00", "kept on the Pi so it can be put back".
    (SESSION_ID, "a tuning session's id"),
    (re.compile(r"/var/lib/sbctune\b"), "a path on the Pi"),
    *((re.compile(rf"(?<![\w/.-]){re.escape(i)}(?![\w-])"), "a tweak id") for i in _tweak_ids()),
    *((re.compile(rf"\b{re.escape(s)}\b"), "a raw status") for s in RAW_STATUSES),
]


# Where the user must type a tweak's id, it is shown: right after the option that takes it.
TYPED = re.compile(r"--tweak[ =][\w-]+")


def jargon(text: str, *, cli: bool = False) -> list[str]:
    """What in `text` a user should not have to read, each with a little context. `cli`: the
    command line's tune commands name a session by its id, which `--session` takes."""
    text = TYPED.sub("--tweak NAME", text)
    if cli:
        text = SESSION_ID.sub("SESSION", text)
    found = []
    for pattern, what in PATTERNS:
        for match in pattern.finditer(text):
            start = max(0, match.start() - 30)
            found.append(f"{what}: …{text[start : match.end() + 30]!r}…")
    return found


# The words of a test's mode and of a rate (the s12 walk: the CLI's tables said "Half-duplex"
# and "Full-duplex" where the window says "One way" and "Both ways", and the one unit is
# "Mbit/s"). An evidence line (a finding's "> " line) is what the Pi printed, kept verbatim
# (ethtool's "Speed: 1000Mb/s"), and so is a recommendation's "source:" line (the title of a
# write-up as its author wrote it) and text in quotation marks.
STALE_TERMS = re.compile(
    r"\b(?:Half|Full)-duplex\b|\bFull \(PC throttled\)|\b[GMK]b/s\b|\b[GMK]bps\b", re.I
)
_EVIDENCE_LINE = re.compile(r"^\s*(?:> |source: )")
_QUOTED = re.compile(r"'[^'\n]*'|\"[^\"\n]*\"|“[^”\n]*”")


def stale_terms(text: str) -> list[str]:
    """The mode and unit words in `text` that the window does not use, with their line."""
    found = []
    for line in text.splitlines():
        if _EVIDENCE_LINE.match(line):
            continue
        for match in STALE_TERMS.finditer(_QUOTED.sub("", line)):
            found.append(f"{match.group()}: {line.strip()[:120]!r}")
    return found
