"""Kernel lines inside the journal's structured output modes and RFC 5424 syslog, made into
the plain lines the dmesg parser reads (issue 24's class 1: any wrapper).

journalctl's `-o json`, `json-seq`, `json-sse` and `json-pretty` print each record as one
JSON object (systemd 252 src/shared/logs-show.c output_json(): json_variant_dump(), with
"\\x1e" before it for json-seq, "data: " for json-sse, one field per line for json-pretty);
`-o verbose` prints its fields indented by four blanks (output_verbose(): "    %s=") and
`-o export` one "KEY=value" per line (output_export()). A record's MESSAGE is the line: a kernel
record (_TRANSPORT=kernel or SYSLOG_IDENTIFIER=kernel) gets the kernel's own clock from
_SOURCE_MONOTONIC_TIMESTAMP (journald-kmsg.c keeps the printk record's microseconds there),
"[%5d.%06d] MESSAGE", or "kernel: MESSAGE" without it; any other gets "IDENT[PID]: MESSAGE", the
short mode's head, which the daemons' readers find. RFC 5424's "<PRI>1 TIME HOST APP PROCID
MSGID SD MSG" (RFC 5424 section 6: rsyslog's RFC5424 template, systemd-journal-upload's
netlogd) becomes "APP[PROCID]: MSG" the same way.

The text keeps its line count (a multi-line record's line stands where its MESSAGE was, its
other lines blank), so every line number is still the pasted one. A record's text is untrusted:
each is bounded in size, parsed by json.loads or split on fixed separators, never made a regex.
"""

from __future__ import annotations

import json
import re

_MAX_RECORD = 65_536  # characters of one JSON record read (a longer one is left as it is)
_MAX_PRETTY = 400  # lines of one json-pretty object
_FIELD = re.compile(r"^( {4})?([A-Z_][A-Z0-9_]{0,63})=(.*)$")
# the fields that make a run of KEY=value lines a journal record (systemd.journal-fields(7))
_JOURNAL_KEYS = frozenset(
    {"_TRANSPORT", "SYSLOG_IDENTIFIER", "PRIORITY", "_BOOT_ID", "__CURSOR", "_PID",
     "__REALTIME_TIMESTAMP", "_SOURCE_MONOTONIC_TIMESTAMP", "SYSLOG_FACILITY", "_HOSTNAME"}
)  # fmt: skip
_RFC5424 = re.compile(r"^<\d{1,3}>1 \S+ \S+ (\S+) (\S+) \S+ ")
_PRI_VERSION = re.compile(r"<\d{1,3}>1 ")
# a paste is in one format: so many "<" lines of another shape (a /dev/kmsg log's "<6>[ ...")
# before any RFC 5424 line end the search, which would otherwise walk the whole text
_GIVE_UP = 64


def _clock(micros: object) -> str:
    text = str(micros) if isinstance(micros, (str, int)) else ""
    if not (text.isascii() and text.isdigit()) or len(text) > 18:
        return ""
    seconds, us = divmod(int(text), 1_000_000)
    return f"[{seconds:5d}.{us:06d}] "


def record_line(fields: dict[str, object]) -> str | None:
    """The short mode's line of one record's fields; None without a text MESSAGE."""
    message = fields.get("MESSAGE")
    if not isinstance(message, str):
        return None  # journald's byte array (not UTF-8) or null (too long)
    message = message.split("\n", 1)[0]  # a record of several lines: its head names the device
    ident = fields.get("SYSLOG_IDENTIFIER")
    if fields.get("_TRANSPORT") == "kernel" or ident == "kernel":
        clock = _clock(fields.get("_SOURCE_MONOTONIC_TIMESTAMP"))
        return f"{clock}{message}" if clock else f"kernel: {message}"
    if not isinstance(ident, str) or not ident:
        ident = fields.get("_COMM") if isinstance(fields.get("_COMM"), str) else None
    if not ident:
        return message
    pid = fields.get("SYSLOG_PID") or fields.get("_PID")
    return (
        f"{ident}[{pid}]: {message}"
        if isinstance(pid, str) and pid.isascii() and pid.isdigit()
        else (f"{ident}: {message}")
    )


def _json_record(text: str) -> str | None:
    if len(text) > _MAX_RECORD:
        return None
    try:
        fields = json.loads(text)
    except ValueError:
        return None
    return record_line(fields) if isinstance(fields, dict) else None


def _rfc5424(line: str) -> str | None:
    """ "<6>1 2024-10-13T10:00:00+02:00 host kernel - - - msg" -> "kernel: msg"."""
    head = _RFC5424.match(line)
    if head is None:
        return None
    app, procid = head.group(1), head.group(2)
    rest = line[head.end() :]
    if rest.startswith("-"):
        rest = rest[1:]
    else:  # structured data: one or more [id param="value" ...], "]" escaped as "\]"
        at = 0
        while at < len(rest) and rest[at] == "[":
            at += 1
            while at < len(rest) and rest[at] != "]":
                at += 2 if rest[at] == "\\" else 1
            at += 1
        rest = rest[at:]
    message = rest.removeprefix(" ").removeprefix("\ufeff")
    if app == "-":
        return message
    return (
        f"{app}[{procid}]: {message}"
        if procid.isascii() and procid.isdigit()
        else f"{app}: {message}"
    )


def _key(line: str) -> str:
    found = _FIELD.match(line)
    return found.group(2) if found else ""


def _fields_run(lines: list[str], start: int) -> tuple[int, dict[str, object]]:
    """The end of the run of KEY=value lines from `start` and its fields (first of each)."""
    fields: dict[str, object] = {}
    end = start
    while end < len(lines) and (m := _FIELD.match(lines[end])) is not None:
        fields.setdefault(m.group(2), m.group(3))
        end += 1
    return end, fields


def _syslog_lines(text: str) -> str:
    """The text with each RFC 5424 line made plain: only the lines that start with "<" are
    looked at, found by str.find (most logs have none; a /dev/kmsg-style log's are given up
    after _GIVE_UP of them)."""
    pieces: list[str] = []
    kept = 0  # text[kept:] is not copied yet
    at: int | None = 0 if text.startswith("<") else None
    if at is None and (found := text.find("\n<")) != -1:
        at = found + 1
    misses = 0  # "<" lines of another shape before the first RFC 5424 one
    while at is not None and (pieces or misses < _GIVE_UP):
        end = at + 1
        misses += 1
        if _PRI_VERSION.match(text, at):  # "<6>1 ": not a /dev/kmsg "<6>[" line
            end = text.find("\n", at)
            end = len(text) if end == -1 else end
            made = _rfc5424(text[at:end]) if end - at <= _MAX_RECORD else None
            if made is not None:
                pieces += [text[kept:at], made]
                kept = end
        found = text.find("\n<", end)
        at = found + 1 if found != -1 else None
    return "".join([*pieces, text[kept:]]) if pieces else text


def plain_journal(text: str) -> str:
    """The text with each structured journal record or RFC 5424 line made a plain line."""
    if text.startswith("<") or "\n<" in text:
        text = _syslog_lines(text)
    if "MESSAGE" not in text:
        return text  # most logs: one C search
    lines = text.split("\n")
    out = list(lines)
    i = 0
    while i < len(lines):
        line = lines[i]
        first = line[:1]
        if '"MESSAGE"' in line and line.lstrip().startswith(("\x1e{", "data: {", "{")):
            made = _json_record(line.lstrip().lstrip("\x1e").removeprefix("data: "))
            if made is not None:
                out[i] = made
        elif line.strip() == "{":  # json-pretty: the object's lines up to its closing brace
            end = next(
                (j for j in range(i + 1, min(len(lines), i + _MAX_PRETTY)) if lines[j].strip()
                 == "}"),
                None,
            )  # fmt: skip
            if end is not None and (made := _json_record("\n".join(lines[i : end + 1]))):
                out[i : end + 1] = [made] + [""] * (end - i)
                i = end
        elif (first.isupper() or first in "_ ") and "=" in line and _FIELD.match(line):
            end, fields = _fields_run(lines, i)  # -o verbose / -o export: KEY=value lines
            made = record_line(fields) if "MESSAGE" in fields else None
            if made is not None and _JOURNAL_KEYS.intersection(fields):
                keys = [_key(lines[j]) for j in range(i, end)]
                out[i:end] = [""] * (end - i)
                out[i + keys.index("MESSAGE")] = made
            i = end - 1
        i += 1
    return "\n".join(out)
