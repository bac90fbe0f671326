"""The kernel's own log messages (``resources/kernel_source/``, generated from Debian's
linux-source-6.1 and 6.12 by ``scripts/regen_kernel_source.py``): which format string a
log line was printed from, at what level, by which source file; and errno values decoded
the kernel's way (a log's "-110" is ETIMEDOUT whatever the machine reading it numbers it).

A line is matched against the formats that contain one of its words (an index by each
format's longest literal word), so a long log costs a dictionary look-up per word, and a
format becomes a regex only when first tried. Each row carries its needle (its format's
longest literal, made when the index is built and kept in the cache): a row is split and
its literals derived only when a line holds its needle, not for every row of every word a
line has (issue 24, speed: the 100 000-line bench log's 2 449 distinct lines lead to 8 442
rows, of which 345 hold their needle). Formats are constants from the kernel's source; no
text from a Pi is made a regex.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from itertools import repeat
from operator import contains
from typing import Any

# "%pad", "%pM", "%pI4", "%pS": the kernel's pointer conversions, letters and all, are one
# (Documentation/core-api/printk-formats.rst); "swiotlb addr %pad+%zu overflow" (swiotlb.c)
_SPEC_RE = re.compile(
    r"%[-+ #0]*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|z|t|j|L)?(p[A-Za-z][A-Za-z0-9]*|[a-zA-Z%])"
)
# split() with the group: literal, conversion, literal ... ([::2] are the literals)
_WORD_RE = re.compile(r"[A-Za-z][A-Za-z_]{3,}")
_CONVERSION = {  # what each printf conversion prints
    "d": r"-?\d+", "i": r"-?\d+", "u": r"\d+", "x": r"[0-9a-fA-F]+", "X": r"[0-9a-fA-F]+",
    "c": ".", "p": r"\S+", "%": "%", "s": ".*?",
}  # fmt: skip
_LEVELS_ERROR = {"emerg", "alert", "crit", "err"}
_MAX_TRIED = 40  # candidate formats tried per line at most (bounded work on any line)
_SEEN_LIMIT = 20_000  # distinct lines whose answer is kept (a long log repeats its lines)


@dataclass(frozen=True)
class KernelMessage:
    format: str
    level: str  # "err", "warn", "crit" ...
    files: tuple[str, ...]
    series: tuple[str, ...]  # the kernel series whose source has it: ("6.1", "6.12")

    @property
    def is_error(self) -> bool:
        return self.level in _LEVELS_ERROR

    @property
    def level_word(self) -> str:
        """What a finding calls a line printed at this level ("error", "warning", "info-level")."""
        return "error" if self.is_error else "warning" if self.level == "warn" else "info-level"

    @property
    def source(self) -> str:
        more = f" (+{len(self.files) - 1} more)" if len(self.files) > 1 else ""
        return f"{self.files[0]}{more}"


@dataclass(frozen=True)
class Errno:
    value: int
    name: str
    meaning: str
    source: str


# What the pointer extensions print (Documentation/core-api/printk-formats.rst, lib/vsprintf.c);
# the rest (%pS symbols, %pR resources, %pV nested formats ...) may hold spaces: any text.
# %pe: an ERR_PTR as its errno's name ("-ETIMEDOUT", errname()) or, without
# CONFIG_SYMBOLIC_ERRNAME, its number ("-110"); anything else as a plain pointer.
_POINTER = (
    ("pe", r"(?:-E[A-Z0-9]+|-\d+|[0-9a-f]{8,16}|\(____ptrval____\)|\(null\))"),
    ("pM", r"[0-9a-fA-F]{2}(?:[:-][0-9a-fA-F]{2}){5}"),  # %pM, %pMR, %pMF: a MAC address
    ("pm", r"[0-9a-fA-F]{12}"),  # %pm, %pmR: the same without separators
    ("pI4", r"\d{1,3}(?:\.\d{1,3}){3}"),
    ("pi4", r"\d{3}(?:\.\d{3}){3}"),
)


def _conversion(spec: str, alternate: bool = False) -> str:
    if alternate and spec in ("x", "X"):
        return r"(?:0[xX][0-9a-fA-F]+|0)"  # "%#x": C's alternate form, "0x242" (0 stays "0")
    if not spec.startswith("p") or spec == "p":
        return _CONVERSION.get(spec, ".*?")
    for prefix, rx in _POINTER:
        if spec.startswith(prefix):
            return rx
    return ".*?"


def _to_regex(fmt: str) -> re.Pattern[str]:
    """A format string as a regex: each conversion matches a run of text, literals match
    themselves; the line must end with the format (its device/driver prefix comes first)."""
    out: list[str] = []
    pos = 0
    for m in _SPEC_RE.finditer(fmt):
        out.append(re.escape(fmt[pos : m.start()]))
        out.append(_conversion(m.group(1), alternate="#" in m.group(0).split(".")[0]))
        pos = m.end()
    out.append(re.escape(fmt[pos:]))
    return re.compile(r"(?:^|(?<=[\s:\]]))" + "".join(out) + r"\s*$")


def _may_match(literals: list[str], head: str) -> bool:
    """Whether `_to_regex`'s regex of a format could match: its literal parts appear in
    order, and the line (trailing blanks aside) ends with the last one. A necessary
    condition only, tested without a regex, so that a format is compiled only for the few
    lines that pass it."""
    pos = 0
    for lit in literals:
        if lit:
            pos = head.find(lit, pos)
            if pos < 0:
                return False
            pos += len(lit)
    last = literals[-1].rstrip()
    return not last or head.rstrip().endswith(last)


def index_rows(text: str) -> dict[str, list[str]]:
    """The table's rows by key. One line per format: key, level, series, files, format
    (tab-separated). The key is the format's rarest literal word (chosen by the generator),
    so a log line is tried only against the formats of its own words; a row is split when
    first tried."""
    by_word: dict[str, list[str]] = {}
    for line in text.split("\n"):
        if line and not line.startswith("#"):
            key, _tab, rest = line.partition("\t")
            by_word.setdefault(key, []).append(rest)
    return by_word


# Between a row's needle and the row in the packed index: C format strings hold no NUL
_NEEDLE_END = "\x00"


def _needle_of(row: str) -> str:
    """The needle packed before a row: its format's longest literal, or "" (then derived
    when the row is first tried, as before) for a row that is not four fields or whose
    needle would hold the separator."""
    parts = row.split("\t", 3)
    if len(parts) != 4:
        return ""
    needle = max(_SPEC_RE.split(parts[3])[::2], key=len)
    return "" if _NEEDLE_END in needle else needle


def packed_rows(text: str) -> dict[str, str]:
    """index_rows() with each row after its needle and NUL, and each key's rows joined by
    "\\n" (no row holds one): what the cache keeps, as ~8 000 strings rather than ~25 000
    strings in lists (half the time to read back and to check); a key's rows are split when
    a log line first has its word, and a row itself only when the line holds its needle."""
    return {
        key: "\n".join(f"{_needle_of(row)}{_NEEDLE_END}{row}" for row in rows)
        for key, rows in index_rows(text).items()
    }


def is_packed(value: object) -> bool:
    """A cached index has the shape packed_rows() gives: key → its rows (one text, each row
    after its needle). Read in C (each table's ~8 000 keys at every load: a generator over
    them cost ~2.4x): every key and value exactly a str, then a NUL in every value."""
    if not isinstance(value, dict):
        return False
    rows = value.values()
    return (
        _STR.issuperset(map(type, value))
        and _STR.issuperset(map(type, rows))
        and all(map(contains, rows, repeat(_NEEDLE_END)))
    )


_STR = frozenset((str,))


# a row of the table as _match reads it: level, series, files, format, its longest literal
# (the needle a line must hold) and its literals (split once per format)
_Row = tuple[str, str, str, str, str, list[str]]


class MessageTable:
    def __init__(
        self,
        text: str,
        errno: dict[str, dict[str, str]],
        index: dict[str, str] | None = None,
    ) -> None:
        # `index`: packed_rows(text), made beforehand (load_messages() keeps it in the cache)
        self._packed: dict[str, str] = packed_rows(text) if index is None else index
        self._errno = {
            int(v): Errno(int(v), e["name"], e["meaning"], e["source"]) for v, e in errno.items()
        }
        self._regex: dict[str, re.Pattern[str]] = {}
        self._needle: dict[str, str] = {}
        self._lits: dict[str, list[str]] = {}
        # a format → whether it is too bare to try (_bare: a regex over its literals, once
        # per format, not at every line whose words lead to it)
        self._is_bare: dict[str, bool] = {}
        # a word → its rows as [needle, row] (split when a line first has the word); a row →
        # the row split (when a line first holds its needle)
        self._rows: dict[str, list[list[str]]] = {}
        self._split: dict[str, _Row] = {}
        self._seen: dict[str, KernelMessage | None] = {}
        self._count = -1  # counted when first asked (an inspect never asks: ~8 ms saved)

    def __len__(self) -> int:
        if self._count < 0:
            self._count = sum(rows.count("\n") + 1 for rows in self._packed.values())
        return self._count

    @property
    def _by_word(self) -> dict[str, list[str]]:
        """The index as index_rows() gives it (its rows split, without their needles)."""
        return {
            key: [row.split(_NEEDLE_END, 1)[1] for row in rows.split("\n")]
            for key, rows in self._packed.items()
        }

    def _row(self, row: str) -> _Row:
        """A row of the table split, with its format's literals and the longest of them (read
        once per word a log line has; most of the table's rows are never read)."""
        level, series, files, fmt = row.split("\t", 3)
        literals = self._literals(fmt)
        needle = self._needle.get(fmt)
        if needle is None:
            needle = self._needle[fmt] = max(literals, key=len)
        return level, series, files, fmt, needle, literals

    def _split_row(self, row: str) -> _Row:
        split = self._split.get(row)
        if split is None:
            split = self._split[row] = self._row(row)
        return split

    def _literals(self, fmt: str) -> list[str]:
        lits = self._lits.get(fmt)
        if lits is None:
            lits = self._lits[fmt] = _SPEC_RE.split(fmt)[::2]
        return lits

    def match(self, text: str) -> KernelMessage | None:
        """The kernel message this log line was printed from, if the table has it."""
        head = text[:400]  # the answer depends on these only: a repeated line is looked up
        if head in self._seen:
            return self._seen[head]
        found = self._match(head)
        if len(self._seen) < _SEEN_LIMIT:
            self._seen[head] = found
        return found

    def _match(self, head: str) -> KernelMessage | None:
        # The most specific format that matches wins (most literal text): a bare "Failed to
        # %s %s" of one driver must not take stmmac's "Failed to reset the dma".
        found = self.candidates(head)
        return found[0] if found else None

    def candidates(self, text: str) -> list[KernelMessage]:
        """Every format this line matches, the most specific first (most literal text; in the
        order met where equal): a caller that knows the line's driver may prefer its own file's
        (r8152's "Tx status %d" over rtl8150's longer "%s: Tx status %d")."""
        head = text[:400]
        tried = 0
        best: list[tuple[int, str, str, str, str]] = []
        for word in dict.fromkeys(_WORD_RE.findall(head)):
            rows = self._rows.get(word)
            if rows is None:
                packed = self._packed.get(word)
                if packed is None:
                    continue
                rows = self._rows[word] = [r.split(_NEEDLE_END, 1) for r in packed.split("\n")]
            for needle, row in rows:
                if not needle:  # none packed (see _needle_of): the row's own, as before
                    needle = self._split_row(row)[4]
                if needle not in head:
                    continue  # a substring test first: most candidates fail it
                level, series, files, fmt, needle, literals = self._split_row(row)
                tried += 1
                if tried > _MAX_TRIED:
                    break
                bare = self._is_bare.get(fmt)
                if bare is None:
                    bare = self._is_bare[fmt] = _bare(fmt, literals)
                if bare or not _may_match(literals, head):
                    continue  # too bare to be one source's, or its regex could not match
                rx = self._regex.get(fmt)
                if rx is None:
                    rx = self._regex[fmt] = _to_regex(fmt)
                if rx.search(head):
                    best.append((len(_SPEC_RE.sub("", fmt)), fmt, level, files, series))
            if tried > _MAX_TRIED:
                break
        order = sorted(range(len(best)), key=lambda i: (-best[i][0], i))
        return [
            KernelMessage(fmt, level, tuple(files.split(",")), tuple(series.split(",")))
            for _w, fmt, level, files, series in (best[i] for i in order)
        ]

    def errno(self, value: int | str | None) -> Errno | None:
        """-110, "110", "-ETIMEDOUT"... → ETIMEDOUT (Connection timed out)."""
        if value is None:
            return None
        try:
            return self._errno.get(abs(int(value)))
        except ValueError:
            return None


def _read(name: str) -> Any:
    from sbctune.resources import resource_root

    text = resource_root().joinpath("kernel_source", name).read_text(encoding="utf-8")
    return json.loads(text)


def _text(raw: bytes) -> str:
    """The file's text as read_text() gives it (universal newlines)."""
    return raw.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")


def _bare(fmt: str, literals: list[str]) -> bool:
    """A format of fewer than two words of its own ("%s failed", "%s: error %d") matches any
    line that ends so: sparx5's "%s failed" is no source of ixp4xx's "eth0: MII read failed".
    An errno pointer ("%s failed %pe": "-ETIMEDOUT") is as telling as a word."""
    words = len(re.findall(r"[A-Za-z]{2,}", " ".join(literals))) + fmt.count("%pe")
    return words < 2


def _packed_source(raw: bytes) -> dict[str, str]:
    """packed_rows() of a table file's bytes (what the cache keeps of it)."""
    return packed_rows(_text(raw))


@functools.cache
def load_messages() -> MessageTable:
    """The shipped table (cached). Missing files give an empty table: nothing recognised."""
    try:
        from sbctune.catalog.table_cache import cached_file
        from sbctune.resources import resource_root

        path = resource_root().joinpath("kernel_source", "messages.tsv")
        index = cached_file("kernel-messages-packed", path, _packed_source, is_packed)
        return MessageTable("", _read("errno.json"), index)
    except (OSError, ValueError, KeyError, TypeError):
        return MessageTable("", {})


@functools.cache
def load_format_table(name: str) -> MessageTable:
    """Another table of kernel_source/ in messages.tsv's row shape (of_node_formats.tsv,
    netdev_info_formats.tsv), read by the same reader, with no errno names (cached). Missing
    or unreadable: an empty table."""
    from sbctune.catalog.table_cache import cached_file
    from sbctune.resources import resource_root

    try:
        path = resource_root().joinpath("kernel_source", name)
        # its index kept as messages.tsv's is (each row's needle made once, not per run)
        index = cached_file(f"kernel-formats-{name}", path, _packed_source, is_packed)
        return MessageTable("", {}, index)
    except (OSError, ValueError):
        return MessageTable("", {})


# A line that says its driver failed to do something ("eth0: Failed to read register index
# 0x00000114", 3.x smsc95xx): a complaint at any level (inventory.log_complaints).
FAILED_TO = re.compile(r": (?:[Ff]ailed|[Uu]nable) to [a-z]")
_ERRNO_IN_TEXT = re.compile(
    r"(?:error|err|status|ret|rc|returned|result|fail(?:ed)?)[\s:=]*(-\d{1,4})\b|\((-\d{1,4})\)$"
)


def errno_in(text: str) -> int | None:
    """The errno a log line reports ("failed with error -110", "status: -71", "(-2)")."""
    m = _ERRNO_IN_TEXT.search(text[:400])
    if m is None:
        return None
    return int(m.group(1) or m.group(2))


@dataclass(frozen=True)
class Explanation:
    source: str  # the kernel source file and function that prints the message
    text: str


@functools.cache
def _explanations() -> dict[str, Any]:
    try:
        data = _read("explanations.json")
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


def explain(kind: str) -> Explanation | None:
    """The hand-written explanation of a message kind ("tx_timeout", "probe_failed" ...)."""
    item = _explanations().get("messages", {}).get(kind)
    return Explanation(item["source"], item["text"]) if item else None


def explain_format(fmt: str) -> Explanation | None:
    """The hand-written explanation of one message by its format ("hw csum failure")."""
    item = _explanations().get("formats", {}).get(fmt)
    return Explanation(item["source"], item["text"]) if item else None


def errno_bare(value: int | None) -> str | None:
    """Why a value (-1) says only that a call failed: drivers return it bare more often than
    as the errno of that number (explanations.json ``errno_bare``, counted in drivers/net)."""
    if value is None:
        return None
    words = _explanations().get("errno_bare", {}).get(str(-abs(value)))
    return words if isinstance(words, str) else None


def errno_hint(value: int | None) -> str | None:
    """What an errno in a NIC driver's complaint usually means, and what to do."""
    if value is None:
        return None
    hint = _explanations().get("errno", {}).get(str(-abs(value)))
    return hint if isinstance(hint, str) else None
