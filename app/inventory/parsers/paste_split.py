"""One pasted text that holds several outputs: a report tool's run (raspinfo, armbianmonitor,
inxi/hwinfo dumps, DietPi's bug report), a chained command line (``lsusb; rfkill list; iw
dev``), or one output with the next commands' prompts and outputs pasted after it.

The text is cut into parts at what starts another output, whatever tool wrote it:

- a shell prompt with a command (``root@pi:~# lsusb``, ``$ ip a``, ``❯ lshw``, a Markdown-escaped
  ``\\# lsusb``), or a line
  that is only a command this inventory reads (``smart_sudo ip link list``, ``ifconfig``);
- a section header: a title underlined with ``---``/``===`` (raspinfo), ``### name:``
  (armbianmonitor), ``=== name ===``, a lone ``---`` separator;
- the first line of an output whose format is known by its own shape (``Bus 001 Device 002:
  ID``, ``driver: X`` of ``ethtool -i``, ``phy#0`` of ``iw dev``, ``Inter-| sta-|`` of
  /proc/net/wireless, a ``[ 12.3]`` kernel line ...).

Each part is then read by the parser its command names or, lacking one, by its shape. A text
stored under a command this inventory reads is cut only when one whole-text search finds a
prompt or a header in it (no per-line pass over a long log that has none).
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator

from .dispatch import resolve_command
from .lazy_pattern import later

MAX_PARTS = 200

_PROMPT = later(
    r"^\s*(?:[\w.-]+@[\w.-]+(?::\S*)?\s*[#$]|[\w.-]*:[~/]\S*\s*[#$]|\\?[$#❯»]|\S*@\S*\s*~?\s*[$#%])\s+(?P<cmd>\S.*)$"
)
# A line that starts another output (checked only on the lines a cheap substring search finds)
_BREAK_LINE = later(
    r"^(?:[ \t]*[\w.-]+@[\w.-]+\S*[ \t]*[#$] +\S|[ \t]*\\?[$#❯] +[a-z]|-{3,}[ \t]*$|={3,}|#{3} \S"
    r"|> +[a-z][^\n;]*(?:;|&&)|(?:```|'''|~~~)\w*[ \t]*$)"
)
# A code fence (Markdown's ``` or ~~~, or ''' typed for one) around a pasted output: a break in
# a stored command's text, where the next command or output shape may start (not in
# split_paste, where a fence would drop the headless lines after it)
_FENCE = later(r"^\s*(?:```|'''|~~~)\w*\s*$")
# A chained command line quoted in Markdown (`> sudo uname -a; lsusb; iw dev`) over its outputs:
# a prompt only when it chains commands (a quoted line of prose or of a log is no command)
_QUOTED_CHAIN = later(r"^> +(?P<cmd>[a-z][^\n]*?(?:;|&&)[^\n]*)$")
# A line that _BREAK_LINE (or a title's "---" underline) may match starts with neither "[" nor
# "<": a log whose every line starts with one (a kernel log's clock or priority) has no break,
# told by one regex scan (a 100 000-line log: ~12 ms, where the marker searches take ~60 ms)
_NO_BREAK_START = later(r"\n[^\[<\n]")
_NO_BREAK_FIRST = later(r"[^\[<\n]")
_TITLE = later(r"^[A-Z][\w /()-]{2,40}$")
# A user@host prompt with nothing after it: the command it ran was wrapped onto the next line
# (`root@rock-5b:/home/shulker# ` over `lspci | grep -i net`, corpus m2_59_rock5b_armbian473_*)
_BARE_PROMPT = later(r"^[ \t]*[\w.-]+@[\w.-]+\S*[ \t]*[#$][ \t]*$")
_MARKERS = ("$ ", "# ", "❯ ", "\n---", "\n===", "\n###", "> ", "\n```", "\n'''", "\n~~~")
LONG_TEXT = 1 << 20  # characters
MAX_CHECKS = 2000  # per marker: a long log with many "# " in its lines stops looking early
_CHANGES = later(r"\s(?:set|add|del|delete|flush|change|replace)\b")
_UNDERLINE = later(r"^\s*[-=]{4,}\s*$")
_HASH_HEADER = later(r"^#{2,} ?(?P<title>[^#].{0,60}?):?\s*#*\s*$")
_EQ_HEADER = later(r"^={3,} ?(?P<title>\S.{0,60}?) ?={3,}\s*$")
_SEPARATOR = later(r"^\s*(?:-{3,}|={3,}|\*{3,})\s*$")

# The first line of an output, by its shape: (pattern, command whose parser reads it).
_STARTS: tuple[tuple[re.Pattern[str], str], ...] = (
    (later(r"^Bus \d{3} Device \d{3}: ID [\da-fA-F*]{4}"), "lsusb"),
    (later(r"^/: +Bus \d+\.Port \d+: Dev"), "lsusb -t"),
    (later(r"^T: +Bus=\d+ Lev="), "usb-devices"),
    (later(r"^\d+: [\w.:@-]+: <[A-Z_,-]*>"), "ip a"),
    (later(r"^[\w.:@-]{1,15}:? +(?:Link encap:|flags=-?\d+<)"), "ifconfig"),
    (later(r"^[\w.:@-]{1,15} +(?:IEEE 802\.11|no wireless extensions)"), "iwconfig"),
    (later(r"^\s*\*-network"), "lshw"),
    (
        later(r"^\d{1,4}: [A-Za-z][\w ]{0,15}? ?(?:[\da-f]{2,4}\.[\da-f]{1,2})?: [\da-f]{4} "),
        "hwinfo",
    ),
    (later(r"^\s*[●*○↻×] \d+: [\w.:@-]{1,15}\s*$"), "networkctl status"),
    (later(r"^\s*IDX\s+LINK\s+TYPE\s+OPERATIONAL\b"), "networkctl"),
    (later(r"^Network:\s+(?:Device|Card)-\d+:"), "inxi"),
    (later(r"^driver: \S+$"), "ethtool -i"),
    (later(r"^Settings for [\w.:@-]+:$"), "ethtool"),
    (later(r"^NIC statistics:$"), "ethtool -S"),
    (later(r"^phy#\d+$"), "iw dev"),
    (later(r"^Inter-\| sta-\|"), "cat /proc/net/wireless"),
    (later(r"^Inter-\|\s+Receive\s+\|"), "cat /proc/net/dev"),
    (later(r"^\s+CPU0(?:\s+CPU\d+)*\s*$"), "cat /proc/interrupts"),
    (later(r"^Linux \S+ \d+\.\d+\S* #\d+"), "uname -a"),
    (later(r"^PRETTY_NAME="), "cat /etc/os-release"),
    (later(r"^(?:processor|Hardware|Revision)\s*:"), "cat /proc/cpuinfo"),
    (
        later(r"^(?:Raspberry Pi|Orange Pi|Banana Pi|NanoPi|ODROID|Rock|Radxa|Khadas)\b.{0,60}$"),
        "cat /proc/device-tree/model",
    ),
    (
        # a printk clock first, or after a syslog/logread/journal prefix's "kernel:" tag
        later(r"^\s*\[\s*\d+\.\d+\]|^[^\[\n]{0,64}\bkernel(?:\[\d+\])?: +\[ *\d+\.\d+\]|^<\d>\["),
        "dmesg",
    ),
    (later(r"^\d+: \w+: (?:Bluetooth|Wireless LAN|WWAN)\b"), ""),  # rfkill list: not read
    # dkms status
    (later(r"^[\w-]+(?:/[\w.-]+)?, [\w.-]+, [\w.-]+, \w+: (?:installed|built)"), ""),
    (later(r"^\[sudo\] password for "), ""),
)
# Outputs whose lines may look like other things (a log, block listings): only a strong
# shape (another output's first line) ends them, not a _WEAK one.
_STICKY = {"dmesg", "ifconfig", "ethtool -S", "hwinfo", "lshw", "ip a", "usb-devices"}
_WEAK = {"", "cat /proc/device-tree/model", "cat /proc/cpuinfo", "uname -a"}


def _same_parser(a: str, b: str) -> bool:
    return a == b or (resolve_command(a)[0] or a) == (resolve_command(b)[0] or b)


def _command_of(line: str) -> str | None:
    """The command a prompt line or a bare command line names, if the inventory reads it."""
    m = _PROMPT.match(line)
    cmd = m.group("cmd") if m else line.strip()
    if m and _shape(cmd) not in (None, ""):
        return None  # a prompt the console printed an output's line after: that line, no break
    if not m and (len(cmd) > 80 or not re.fullmatch(r"[a-z_][\w./-]*(?: [\w./:=@,-]+){0,6}", cmd)):
        return None
    for part in re.split(r"\s*(?:;|&&)\s*", cmd):
        try:
            toks = shlex.split(part)
        except ValueError:
            toks = part.split()
        if toks and toks[0] == "ip" and _CHANGES.search(part):
            continue  # `ip link set dev eth0 down` changes things and prints nothing
        if toks and toks[0].rsplit("/", 1)[-1] == "ifconfig" and len(toks) > 2:
            continue  # `ifconfig eth1 up`, `ifconfig eth0 mtu 9000`: the same
        if toks and resolve_command(part)[0] is not None:
            return part.strip()
    return "" if m else None  # a prompt with a command not read: a break, nothing to parse


def _chain_of(line: str) -> bool:
    """Whether a prompt line (or a Markdown-quoted command line) runs several commands chained
    with ``;``/``&&``, one of them a command this inventory reads: their outputs follow run
    together, told apart by their shapes as a chained stored command's are."""
    m = _PROMPT.match(line) or _QUOTED_CHAIN.match(line)
    if m is None:
        return False
    cmds = [c for c in re.split(r"\s*(?:;|&&)\s*", m.group("cmd")) if c.strip()]
    return len(cmds) > 1 and any(_command_of(c) for c in cmds)


def _shape(line: str) -> str | None:
    for pattern, kind in _STARTS:
        if pattern.search(line):
            return kind
    return None


def _break_offsets(text: str) -> list[int]:
    """Where the lines that may start another output begin (a prompt, a separator, a header;
    for a title underlined with ``---`` its title line), found by substring searches and a
    check of the lines they hit: no per-line pass over a long log."""
    if _NO_BREAK_START.search(text) is None and _NO_BREAK_FIRST.match(text) is None:
        return []  # every line starts with "[" or "<": a kernel log's, never a break's
    return _marker_offsets(text)


def _marker_offsets(text: str) -> list[int]:
    """_break_offsets() without its first test: each marker searched for."""
    found: set[int] = set()
    # A long text (a 100 000-line log) is searched for prompts only: each search is a pass
    # over it, and separators and section titles are a report tool's, in short texts.
    for marker in _MARKERS if len(text) < LONG_TEXT else _MARKERS[:3]:
        checks = 0
        for at in _occurrences(text, marker):
            if checks >= MAX_CHECKS or len(found) >= MAX_PARTS:
                break
            checks += 1
            begin = at + 1 if marker[0] == "\n" else text.rfind("\n", 0, at) + 1
            stop = text.find("\n", begin)
            line = text[begin : stop if stop != -1 else len(text)]
            if line.startswith("---") and begin > 1:
                title_begin = text.rfind("\n", 0, begin - 1) + 1
                if _TITLE.match(text[title_begin : begin - 1].strip()):
                    found.add(title_begin)
                    continue
            if _BREAK_LINE.match(line) or _wrapped_command(line, text, stop):
                found.add(begin)
    return sorted(found)


def _wrapped_command(line: str, text: str, stop: int) -> str | None:
    """The command a bare prompt ran on the line after it (the console or the paste wrapped
    it), when the inventory reads it: the two lines read as one prompt line."""
    if stop == -1 or not _BARE_PROMPT.match(line):
        return None
    end = text.find("\n", stop + 1)
    after = text[stop + 1 : end if end != -1 else min(len(text), stop + 201)].strip()
    return _command_of(f"{line.rstrip()} {after}") if after else None


_PROMPT_MARKERS = frozenset(_MARKERS[:3])
_MISSES = 4 * MAX_CHECKS  # first characters without the marker's rest, then the plain search


def _occurrences(text: str, marker: str) -> Iterator[int]:
    """Where ``marker`` occurs in ``text``, in order, as ``text.find(marker, at + 1)`` gives
    them one after the other. A prompt marker's first character ("$", "#", "❯": rare in a
    log) is searched alone and the rest compared in place: a one-character search is the C
    library's wmemchr/memchr, a two-character one a slower loop (a 100 000-line log holding
    one emoji is stored 4 bytes a character: 20 ms per marker, 4 ms this way). A text full
    of that character falls back to the plain search after _MISSES misses."""
    if marker not in _PROMPT_MARKERS:
        at = text.find(marker)
        while at != -1:
            yield at
            at = text.find(marker, at + 1)
        return
    head, rest = marker[0], marker[1:]
    misses = 0
    at = text.find(head)
    while at != -1:
        if text.startswith(rest, at + 1):
            yield at
        else:
            misses += 1
            if misses > _MISSES:
                at = text.find(marker, at + 1)
                while at != -1:
                    yield at
                    at = text.find(marker, at + 1)
                return
        at = text.find(head, at + 1)


def needs_split(cmdline_has_parser: bool, text: str) -> bool:
    """Whether a stored text may hold more than one output: always for a command no parser
    reads (a report tool, a chained line); else only when a prompt, separator or section
    header is in it."""
    return not cmdline_has_parser or bool(_break_offsets(text))


def _part_start(lines: list[str]) -> tuple[str | None, int]:
    """The command a part after a break is the output of, and where its output starts: the
    break's prompt command, or (after a separator or a title) the first line that is a command
    or an output's first line."""
    if (m := _PROMPT.match(lines[0])) and not _SEPARATOR.match(lines[0]):
        cmd = _command_of(lines[0]) if m else None
        return (cmd or None), 1
    wrapped = len(lines) > 1 and _BARE_PROMPT.match(lines[0])
    if wrapped and (cmd := _command_of(f"{lines[0].rstrip()} {lines[1].strip()}")):
        return cmd, 2
    for i, line in enumerate(lines[:8]):
        if not line.strip() or _SEPARATOR.match(line) or _UNDERLINE.match(line):
            continue
        if _FENCE.match(line):
            continue
        if i == 0 and lines[1:2] and _UNDERLINE.match(lines[1]):
            continue  # the title itself
        if (cmd := _command_of(line)) is not None:
            return (cmd or None), i + 1
        kind = _shape(line)
        return (kind or None), i
    return None, 0


def split_known(text: str, first: str) -> list[tuple[str, str]]:
    """A text stored under a command the inventory reads, cut only at the breaks
    _break_offsets() finds; a break that names no other reader (a prompt of a command not
    read, a separator before nothing known, the same command again) stays in its part."""
    offsets = _break_offsets(text)
    if not offsets:
        return _console_lines([(first, text)])
    parts: list[tuple[str, str]] = []
    kind, body_start = first, 0
    for at, end in zip(offsets, [*offsets[1:], len(text)], strict=True):
        seg = text[at : min(end, at + 4000)].split("\n", 10)  # its first lines are enough
        if _chain_of(seg[0]):  # `# uname -a; lsusb; iw dev`: its outputs run together
            parts.append((kind, text[body_start:at]))
            kind, body_start = _CHAINED, at + len(seg[0]) + 1
            continue
        if kind == _CHAINED and not _PROMPT.match(seg[0]):
            continue  # a chain's outputs run to the next prompt, fences and rules included
        cmd, skip = _part_start(seg)
        if cmd is None or _same_parser(cmd, kind):
            continue  # stays in the current part
        parts.append((kind, text[body_start:at]))
        kind = cmd
        body_start = at + sum(len(x) + 1 for x in seg[:skip])
    parts.append((kind, text[body_start:]))
    # isspace() stops at the first other character (strip() would copy a long log)
    kept: list[tuple[str, str]] = []
    for k, b in parts:
        if not b or b.isspace():
            continue
        if k == _CHAINED:
            kept += split_paste(b, None)  # each output by its first line's shape
        else:
            kept.append((k, b if b.endswith("\n") else b + "\n"))
    return _join_logs(kept)


_CHAINED = "\0chained"  # a part after a chained command line, cut by shapes (no command)


def split_paste(text: str, first: str | None) -> list[tuple[str, str]]:
    """(command, output) parts of ``text``; ``first`` reads the lines before any break (the
    command the text was stored under, or None to tell them by their shape)."""
    lines = text.split("\n")
    parts: list[tuple[str, list[str]]] = []
    cur_kind: str | None = first
    cur: list[str] = []

    def flush() -> None:
        if cur and any(x.strip() for x in cur) and cur_kind:
            parts.append((cur_kind, list(cur)))

    for i, line in enumerate(lines):
        if cur_kind == "dmesg" and line.startswith("[") and "@" not in line:
            cur.append(line)  # a report tool's kernel log: its lines are read by one test
            continue
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        stripped = line.strip()
        header: str | None = None
        is_break = False
        if _SEPARATOR.match(line) or (_UNDERLINE.match(line) and i > 0):
            is_break = True
        elif stripped and _UNDERLINE.match(nxt) and not stripped.startswith(("[", "-")):
            is_break = True  # "USB Information" over "---------------": the next part's title
        elif (m := _HASH_HEADER.match(stripped)) or (m := _EQ_HEADER.match(stripped)):
            is_break = True
            header = _command_of(m.group("title"))
        elif (
            (cmd := _command_of(line)) is not None
            and (cur_kind != "dmesg" or _PROMPT.match(line))
            # Under a known command, only another reader's command starts another output: a
            # prompt of a command not read (or of the same one) stays in, as the parsers'
            # noise, with what the console printed after it.
            and (first is None or (cmd and not _same_parser(cmd, first)))
        ):
            is_break, header = True, cmd
        if is_break:
            flush()
            cur, cur_kind = [], header or None
            if len(parts) >= MAX_PARTS:
                break
            continue
        kind = _shape(line)
        if kind is not None and cur_kind is not None and _same_parser(kind, cur_kind):
            kind = None  # more of the same output
        if kind in _WEAK and cur_kind in _STICKY:
            kind = None  # a model-like or noise line inside a log or a block listing
        if kind is not None:
            flush()
            cur, cur_kind = [], kind
        cur.append(line)
    flush()
    return _join_logs([(kind, "\n".join(body) + "\n") for kind, body in parts[:MAX_PARTS]])


# A kernel line a serial console printed among another command's output or right after a
# prompt (`# [   32.24] smsc95xx 1-1.1:1.0 eth0: link up, 100Mbps, ...`): a printk clock first
_CONSOLE_LINE = later(r"^(?:[#$] ?)?(\[ *\d+\.\d+\] \S.*)$", re.M)


def _console_lines(parts: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Each kernel line inside another output's part moves to a kernel log part of its own
    (the console interleaves printk with what a shell prints); the other output keeps the rest.
    Only parts holding "] " are searched: a log's own parts are not."""
    out: list[tuple[str, str]] = []
    for cmd, body in parts:
        if "] " not in body or resolve_command(cmd)[0] == "dmesg":
            out.append((cmd, body))
            continue
        found = [m.group(1) for m in _CONSOLE_LINE.finditer(body)]
        if not found:
            out.append((cmd, body))
            continue
        rest = _CONSOLE_LINE.sub("", body)
        if rest.strip():
            out.append((cmd, rest))
        out.append(("dmesg", "\n".join(found) + "\n"))
    return out


def _join_logs(parts: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The kernel log's pieces that prompts or other outputs cut apart are one log again (in
    their order): the inventory keeps one log per stored text."""
    parts = _console_lines(parts)
    out: list[tuple[str, str]] = []
    log_at: int | None = None
    log_bodies: list[str] = []
    for cmd, body in parts:
        if resolve_command(cmd)[0] == "dmesg":
            log_bodies.append(body)
            if log_at is not None:
                continue
            log_at = len(out)
        out.append((cmd, body))
    if log_at is not None and len(log_bodies) > 1:
        out[log_at] = (out[log_at][0], "".join(log_bodies))  # once: no copy per piece
    return out
