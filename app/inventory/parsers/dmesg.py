"""NIC-related kernel log lines from ``dmesg`` (whole logs, grep'ed or mid-log excerpts).

How a new rule stays cheap on a 100 000-line log (issue 24; `tests/bench/bench_inventory.py
--big-dmesg --distinct` measures it):

* A line shape (dmesg_patterns._PATTERNS) comes with its needles: literal words every line it
  matches holds, as rare as possible. A message is tried only against the shapes whose needle
  it holds (dmesg_classify._kinds_of: one scan of the message by a trie of all needles,
  needle_trie.longest_of, finds every needle it holds; a message holding none goes to the
  generic device shape alone); a pattern is compiled when first tried. A shape without a
  needle would be tried on every distinct message.
* A rule reads the message only, never its clock or line number: each distinct message is
  classified once (the `seen` memo), so a rule costs per distinct message, not per line; a
  whole line that comes again (clock included: a log pasted twice) costs one lookup (`whole`),
  and so does a clock line whose message came before under another clock (`clocked`: a long
  log's every line has its own clock). A plain one ("[  12.345678] msg") is not even read as
  a line: the log is cut at such clocks in one re.split (dmesg_chunks), and what follows the
  clock is looked up (`plain`): its clock's float and its event are all it costs.
* A step over the whole log works on its lines, split once: a step that would rebuild the
  text (split_elided) rebuilds only the lines it changes (split_elided_lines); each copy of a
  100 000-line log costs ~15 ms, four times that when one character beyond U+FFFF makes
  Python keep the text at four bytes a character.
* What log_sightings makes of a line runs once per distinct (kind, message); a repeat only
  copies facts. A kind in its _COUNTED makes every repeat a fact: only for what is counted
  (link flaps, resets, errors). Its loop calls no method per line but the wiphy watcher's: a
  new watcher says which kinds it reads (as ProbeWatch.KINDS, trace_watch.KINDS) and the
  loop passes it only those.
* Evidence from the whole log (advice.evidence.lines_matching / lines_with): a pattern that
  needs no line edges (no ^, $, \\b, lookarounds) is searched in the text at once and only the
  lines where it matches are read; an anchored one is tried on every line.
* Tables load once (functools.cache, catalog.table_cache) and not at import; a module-level
  regex is compiled at every start of the program, a lazy one (dmesg_patterns._Lazy) only
  when used.
"""

from __future__ import annotations

from itertools import chain

from sbctune.wording import counted

from .common import ELLIPSIS as _ELLIPSIS
from .common import Parsed, ParseWarning, guarded
from .daemon_lines import KINDS as DAEMON_KINDS
from .dmesg_chunks import clock_chunks
from .dmesg_classify import classify as _classify
from .dmesg_event import DmesgEvent
from .dmesg_heads import message_head as _message_head
from .dmesg_nics import DmesgNic
from .dmesg_patterns import BUS_ID
from .dmesg_result import DmesgResult
from .dmesg_wrappers import BOOT_BANNERS as _BOOT_BANNERS
from .dmesg_wrappers import TS_END_CALLER_MSG_RE as _TS_MSG_RE
from .dmesg_wrappers import TS_RE as _TS_RE
from .dmesg_wrappers import outside_noise as _outside_noise
from .dmesg_wrappers import past_boot as _past_boot
from .dmesg_wrappers import wall_clock_head as _wall_clock_head
from .elided_join import split_elided
from .journal_records import plain_journal
from .lazy_pattern import later
from .linuxptp_lines import KINDS as LINUXPTP_KINDS
from .log_unwrap import join_mail_wrapped
from .other_programs import logger_tagged
from .terminal_wrap import join_terminal_wrapped

# the shapes have modules of their own (dmesg_event, dmesg_result, dmesg_nics); named here too,
# where the readers of the log import them from
__all__ = ["BUS_ID", "DmesgEvent", "DmesgNic", "DmesgResult", "parse_dmesg"]


def parse_dmesg(text: str) -> Parsed[DmesgResult]:
    """``dmesg``: driver registration, renames, link, versions, PCI/BAR and power lines."""
    return guarded("dmesg", _parse_dmesg, text, DmesgResult)


_KERNEL_MSG_RE = later(r"^[\w.@:\[\]/-]+(?: [\w.:@\[\]/()-]+){0,2}: \S")


def _is_trace(found: tuple[str, dict[str, str]] | None) -> bool:
    return found is not None and found[0] in ("trace_head", "trace_frame")


def _daemon(found: tuple[str, dict[str, str]] | None) -> bool:
    return found is not None and (found[0] in DAEMON_KINDS or found[0] in LINUXPTP_KINDS)


_ELLIPSIS_LEN = max(map(len, _ELLIPSIS))
_MEMO_LIMIT = 20_000  # distinct messages remembered (a long log repeats the same lines)
_WHOLE_LIMIT = 20_000  # whole lines remembered (0: none; the unit tests' plain path)
# ... and given up at once when the first this many came once each (every line its own clock:
# filling the memo to its limit would cost ~20 000 inserts for nothing)
_WHOLE_PROBE = 4_096


def _parse_dmesg(text: str) -> Parsed[DmesgResult]:
    res = DmesgResult()
    texts, said, nos, clocks = res.columns
    add_text, add_said, add_no, add_clock = texts.append, said.append, nos.append, clocks.append
    # message → the message (one string object for all its repeats: events share it, its
    # hash is computed once, and the repeat's own copy is freed at once), its kind and fields
    seen: dict[str, tuple[str, tuple[str, dict[str, str]] | None]] = {}
    # a line in another wrapper than "[  12.345678] msg" → what strip_prefix() made of it
    # (None: noise); a function of the line alone, remembered as a long log repeats them
    wrapped: dict[str, tuple[str, float | None, bool] | None] = {}
    # what follows a line's clock → its own message and the kernel lines joined after it
    # (_message_head(): a function of that text, which a long log repeats under new clocks)
    heads: dict[str, tuple[str, tuple[tuple[float, str], ...]]] = {}
    # ... and, where nothing is joined after the message, its reading: the message (the one
    # object `seen` keeps) and its kind and fields (a kernel line: counted as one)
    clocked: dict[str, tuple[str, tuple[str, dict[str, str]] | None]] = {}
    last_ts: float | None = None
    first_content = True
    first_head: tuple[str, str] | None = None
    lines = kernel_lines = jumps = others = 0
    timestamps = False
    ts_match, ts_msg_match = _TS_RE.match, _TS_MSG_RE.match
    later: list[tuple[float, str]] = []  # kernel lines joined after this one on its line
    # a whole line (clock included) → its message, clock, whether it is a kernel line, and
    # its reading: a log pasted or rotated twice repeats whole lines, and each repeat then
    # costs one lookup. Given up once full with fewer hits than entries (every line its own
    # clock: no line comes twice).
    whole: dict[str, tuple[str, float | None, bool, tuple[str, dict[str, str]] | None]] = {}
    whole_hits, use_whole = 0, _WHOLE_LIMIT > 0
    # whether `heads` and `wrapped` hold every line's text (a repeat of a whole line: its
    # first time did), see DmesgResult.bodies
    covered = True
    callers: set[str] = set()
    ts: float | None
    clock_key: str | None  # the text after a line's clock, as `clocked` keys it
    wrapped_key: str | None  # ... and a plain clock line's chunk that the wrappers read
    # split_lines() without its rstrip() of each line: the strip() below does it (one pass)
    body = text.replace("\x00", "") if "\x00" in text else text
    # split into lines first: the few that an elision run joined are split on their own;
    # cut at each plain clock (dmesg_chunks): a chunk read before as a plain clock line's
    # whole message (`plain`) is one dict hit; any other chunk is read line by line below
    # journalctl's json/verbose/export records and RFC 5424 lines made plain first
    body = plain_journal(body)
    parts = clock_chunks(split_elided(join_mail_wrapped(join_terminal_wrapped(body))))
    # a chunk (what follows a line's plain clock "[  12.345678] ", the line being that alone)
    # → its event's kind, message and fields, () for none. Such a line's reading is a
    # function of its chunk and its clock's value, whatever the chunk holds (a caller, blanks,
    # an "@" that sends the line to the wrappers: each reads the plain clock the same way):
    # filled by such a line read below with nothing joined after it, after which the log has
    # a clock (so `timestamps` is set, `last_ts` is a number) and its first line is read: a
    # hit needs only its line number, its clock and its event.
    plain: dict[str, tuple[str, tuple[str, dict[str, str]]] | tuple[()]] = {}
    no = slow = 0  # the lines read so far; of them, those read line by line (the rest: hits)
    pairs = iter(parts)
    for stamp, chunk in chain(((None, next(pairs)),), zip(pairs, pairs, strict=False)):
        if stamp is not None and (event := plain.get(chunk)) is not None:
            # the `quick` case below, without the strip, the clock regex and its groups (a
            # kernel line: counted in `lines` and `kernel_lines` after the loop)
            no += 1
            ts = float(stamp)
            if ts < last_ts:  # type: ignore[operator]  # a number: see `plain`
                jumps += 1
            last_ts = ts
            if event:
                add_text(event[0])
                add_said(event[1])
                add_no(no)
                add_clock(ts)
            continue
        if stamp is None:
            raws, plain_key = chunk.split("\n"), None
        elif "\n" in chunk:
            raws, plain_key = f"[{stamp}] {chunk}".split("\n"), None
        else:  # one line: its chunk is `plain`'s key if the line reads as a plain one
            raws, plain_key = [f"[{stamp}] {chunk}"], chunk
        slow += len(raws)
        for raw in raws:
            no += 1
            if use_whole and (again := whole.get(raw)) is not None:
                whole_hits += 1
                lines += 1
                msg, ts, is_kernel, found = again
                if ts is not None:
                    # the kernel's first clock, whatever came before
                    if not timestamps and _past_boot(ts, msg):
                        res.starts_mid_log = True
                    timestamps = True
                    if last_ts is not None and ts < last_ts:
                        jumps += 1
                    last_ts = ts
                first_content = False
                kernel_lines += is_kernel
                if not is_kernel:
                    others += logger_tagged(raw.strip())
                if found is not None:
                    add_text(msg)
                    add_said(found)
                    add_no(no)
                    add_clock(ts)
                continue
            # A long log is ~100 000 lines: one strip() per line, and the common "[  12.345678]
            # msg" form read here. Such a line cannot be noise: is_noise()'s fences and prompts
            # start with "`", "~", "$" or "#", or need an "@" or ":~".
            stripped = raw.strip()
            # None at once for a line not starting with "[" (never an elision mark, "[...]", nor
            # an empty line); a line holding "@" or ":~" is left to the wrappers, as a prompt
            # could be ("[pi@host ~]$"): tested only when the log holds one at all
            m0 = ts_msg_match(stripped)
            if m0 is not None:
                clock, end, caller, msg = m0.groups()
                quick = clocked.get(msg)
                # a message `clocked` holds came from a line without "@" and ":~", and a plain
                # clock "]" holds neither: only a new message, a caller or an "@<cpu>]" clock
                # needs the two scans of the line (no scan of the whole log for them: a long
                # log's repeats are `plain` hits that never come here)
                if (quick is None or caller or end != "]") and (
                    "@" in stripped or ":~" in stripped
                ):
                    m0 = None
            if m0 is not None:  # dmesg_wrappers.strip_prefix()'s first case
                lines += 1
                if caller and ":" in caller:  # a task's name ("[1: kbnepd bnep0: 97]"), not an
                    if len(callers) < _MEMO_LIMIT:  # id ("[T187]": one letter): its words too
                        callers.add(caller)
                    else:
                        covered = False
                ts, known = float(clock), True
                if quick is not None:
                    # a long log's common line: a message read before under another clock, with
                    # nothing joined after it; its reading whole, without the steps below
                    if plain_key is not None and len(plain) < _MEMO_LIMIT:
                        # the same line under another clock: a dict hit above (a caller, read
                        # here as it is at every repeat, is in `callers` already)
                        found = quick[1]
                        plain[plain_key] = () if found is None else (quick[0], found)
                    msg, found = quick
                    kernel_lines += 1
                    if not timestamps and _past_boot(ts, msg):
                        res.starts_mid_log = True
                    timestamps = True
                    if last_ts is not None and ts < last_ts:
                        jumps += 1
                    last_ts = ts
                    first_content = False
                    if found is not None:
                        add_text(msg)
                        add_said(found)
                        add_no(no)
                        add_clock(ts)
                    continue
                clock_key = msg
                if (head := heads.get(msg)) is not None:
                    msg, joined_parts = head
                else:
                    head_of = msg
                    msg, joined_parts = _message_head(msg, ts_match)
                    if len(heads) < _MEMO_LIMIT:
                        heads[head_of] = (msg, joined_parts)
                    else:
                        covered = False
                if joined_parts:
                    later += joined_parts
                    clock_key = None
                wrapped_key = None
            else:
                clock_key = wrapped_key = None
                # no hash of a long line
                if len(stripped) <= _ELLIPSIS_LEN and stripped in _ELLIPSIS:
                    res.elided = True
                    if first_content:
                        res.starts_mid_log = True
                    continue
                if not stripped:
                    continue
                if stripped in wrapped:
                    unwrapped = wrapped[stripped]
                else:
                    unwrapped = _outside_noise(stripped)
                    if len(wrapped) < _MEMO_LIMIT:
                        wrapped[stripped] = unwrapped
                    else:
                        covered = False
                if unwrapped is None:
                    continue
                lines += 1
                msg, ts, known = unwrapped
                # a plain clock line that the wrappers read ("@" or ":~" in its chunk): at every
                # repeat it comes here again, to the same reading of its clock
                if plain_key is not None and known and stamp is not None and ts == float(stamp):
                    wrapped_key = plain_key
            if ts is not None:
                # systemd's "[  OK  ]" lines before it: still mid-log
                if not timestamps and _past_boot(ts, msg):
                    res.starts_mid_log = True
                timestamps = True
                if last_ts is not None and ts < last_ts:
                    jumps += 1
                last_ts = ts
            if first_content:  # the log's first line: where it starts, if no kernel clock says
                first_head = (stripped, msg)
            first_content = False
            if (hit := seen.get(msg)) is not None:
                msg, found = hit
            else:
                found = _classify(msg)
                if len(seen) < _MEMO_LIMIT:
                    seen[msg] = (msg, found)
            if clock_key is not None and len(clocked) < _MEMO_LIMIT:
                clocked[clock_key] = (msg, found)
                if plain_key is not None:
                    # the same line under another clock: a dict hit above
                    plain[plain_key] = () if found is None else (msg, found)
            elif wrapped_key is not None and len(plain) < _MEMO_LIMIT:
                plain[wrapped_key] = () if found is None else (msg, found)
            # a trace's frame has no "driver: " head ("[<c000bfc5>] (unwind_backtrace) from ...")
            # ... or a network daemon's line about an interface (a journal of networkd alone)
            is_kernel = (
                known or _KERNEL_MSG_RE.match(msg) is not None or _is_trace(found) or _daemon(found)
            )
            kernel_lines += is_kernel
            if not is_kernel:  # another program's line (a logread, a journal) or one of no shape
                others += logger_tagged(stripped)
            if found is not None:
                add_text(msg)
                add_said(found)
                add_no(no)
                add_clock(ts)
            if use_whole and not later:  # a line with others joined to it is read in full again
                if len(whole) < _WHOLE_LIMIT and (whole_hits or len(whole) < _WHOLE_PROBE):
                    whole[raw] = (msg, ts, is_kernel, found)
                elif whole_hits < len(whole):
                    use_whole = False
                    whole.clear()
            if later:
                for ts_part, part in later:
                    kernel_lines, lines = kernel_lines + 1, lines + 1
                    last_ts = ts_part
                    if (hit := seen.get(part)) is not None:  # a joined part is a message too:
                        part, found = hit  # each distinct one classified once, as above
                    else:
                        found = _classify(part)
                        if len(seen) < _MEMO_LIMIT:
                            seen[part] = (part, found)
                    if found is not None:
                        add_text(part)
                        add_said(found)
                        add_no(no)
                        add_clock(ts_part)
                later.clear()
    lines, kernel_lines = lines + no - slow, kernel_lines + no - slow  # the hits' lines
    res.lines, res.kernel_lines, res.timestamp_jumps = lines, kernel_lines, jumps
    res.other_lines = others
    res.timestamps = timestamps
    if covered:  # the memos' keys: no copy of a line (an elision mark or a blank line: no words)
        res.bodies, res.read = (*heads, *wrapped, *callers), text
    if not timestamps and _wall_clock_excerpt(first_head):
        res.starts_mid_log = True
    return res, _warnings(res, text)


def _wall_clock_excerpt(first_head: tuple[str, str] | None) -> bool:
    """Whether a log with no kernel clock starts mid-log, by its first line (the line and its
    message)."""
    # wall clocks alone ("--time-format iso", "dmesg -T", syslog's date) do not say how long
    # after boot the first line came: unless it is the kernel's banner, the paste is an
    # excerpt, which can prove no missing driver (corpus/usbmg42_manjaro_*)
    return (
        first_head is not None
        and not first_head[1].startswith(_BOOT_BANNERS)
        and _wall_clock_head(first_head[0])
    )


def _warnings(res: DmesgResult, text: str) -> list[ParseWarning]:
    """What the parse says of the log as a whole: empty, unreadable, mostly garbled, joined."""
    warnings: list[ParseWarning] = []
    if not text or text.isspace():  # what `not text.strip()` says, without copying it
        warnings.append(ParseWarning("dmesg", "the output is empty"))
    elif res.kernel_lines == 0 and not res.columns.texts:
        # a line of no kernel shape may still hold a kernel message the table knows ("Realtek
        # Internal NBASE-T PHY r8169-2-100:00: attached PHY driver ..."): read, so not "nothing"
        warnings.append(
            ParseWarning("dmesg", "nothing could be read (no line looks like a kernel log line)")
        )
    elif res.kernel_lines + res.other_lines < res.lines:
        # another program's lines in a system log are what they say they are: only the lines
        # that look like nothing count here
        n = res.lines - res.kernel_lines - res.other_lines
        if n * 2 > res.lines:
            # n is 1 only for a one-line paste ("1 of 1 line do not look ..." read wrong)
            garbled = (
                f"{n} of {counted(res.lines, 'line')} do not look like kernel log lines"
                if n > 1
                else "its one line does not look like a kernel log line"
            )
            warnings.append(ParseWarning("dmesg", garbled))
    if res.timestamp_jumps:
        warnings.append(
            ParseWarning(
                "dmesg",
                "timestamps go backwards: this looks like several pastes (or boots) joined",
            )
        )
    return warnings
