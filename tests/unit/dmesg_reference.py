"""dmesg._parse_dmesg's line loop as it was before session 26 (main at e27d4bd9): every line's
"@" and ":~" tested before the clock regex. The plain reference the product's loop (the regex
first, the marks tested only when the log holds "@" or "~") must read the same as; the steps
after the loop (warnings, the wall-clock start) are the product's, shared by both."""

from __future__ import annotations

import re

from sbctune.inventory.parsers.dmesg import (
    _ELLIPSIS,
    _ELLIPSIS_LEN,
    _KERNEL_MSG_RE,
    _MEMO_LIMIT,
    _TS_RE,
    _WHOLE_LIMIT,
    _WHOLE_PROBE,
    DmesgEvent,
    DmesgResult,
    _classify,
    _daemon,
    _is_trace,
    _message_head,
    _outside_noise,
    join_mail_wrapped,
)
from sbctune.inventory.parsers.dmesg_wrappers import _CALLER, _CPU_END, past_boot
from sbctune.inventory.parsers.elided_join import split_elided_lines

# the clock regex of that loop: the clock, the caller and the message as groups
_TS_MSG_RE = re.compile(rf"^\[\s*(\d+\.\d+){_CPU_END}({_CALLER})\s*(.*)", re.S)


def reference_parse(text: str) -> tuple[DmesgResult, tuple[str, str] | None]:
    res = DmesgResult()
    events = res.events
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
    lines = kernel_lines = jumps = 0
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
    # split_lines() without its rstrip() of each line: the strip() below does it (one pass)
    body = text.replace("\x00", "") if "\x00" in text else text
    # split into lines first: the few that an elision run joined are split on their own
    for no, raw in enumerate(split_elided_lines(join_mail_wrapped(body).split("\n")), start=1):
        if use_whole and (again := whole.get(raw)) is not None:
            whole_hits += 1
            lines += 1
            msg, ts, is_kernel, found = again
            if ts is not None:
                if not timestamps and past_boot(
                    ts, msg
                ):  # the kernel's first clock, whatever came before
                    res.starts_mid_log = True
                timestamps = True
                if last_ts is not None and ts < last_ts:
                    jumps += 1
                last_ts = ts
            first_content = False
            kernel_lines += is_kernel
            if found is not None:
                events.append(DmesgEvent(found[0], no, ts, msg, found[1]))
            continue
        # A long log is ~100 000 lines: one strip() per line, and the common "[  12.345678]
        # msg" form read here. Such a line cannot be noise: is_noise()'s fences and prompts
        # start with "`", "~", "$" or "#", or need an "@" or ":~".
        stripped = raw.strip()
        m0 = None
        if stripped[:1] == "[" and "@" not in stripped and ":~" not in stripped:
            m0 = ts_msg_match(stripped)  # never an elision mark ("[...]") nor an empty line
        if m0 is not None:  # dmesg_wrappers.strip_prefix()'s first case
            lines += 1
            clock, caller, msg = m0.groups()
            if caller and ":" in caller:  # a task's name ("[1: kbnepd bnep0: 97]"), not an
                if len(callers) < _MEMO_LIMIT:  # id ("[T187]": one letter): its words too
                    callers.add(caller)
                else:
                    covered = False
            ts, known = float(clock), True
            if (quick := clocked.get(msg)) is not None:
                # a long log's common line: a message read before under another clock, with
                # nothing joined after it; its reading whole, without the steps below
                msg, found = quick
                kernel_lines += 1
                if not timestamps and past_boot(ts, msg):
                    res.starts_mid_log = True
                timestamps = True
                if last_ts is not None and ts < last_ts:
                    jumps += 1
                last_ts = ts
                first_content = False
                if found is not None:
                    events.append(DmesgEvent(found[0], no, ts, msg, found[1]))
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
        else:
            clock_key = None
            if len(stripped) <= _ELLIPSIS_LEN and stripped in _ELLIPSIS:  # no hash of a long line
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
        if ts is not None:
            if not timestamps and past_boot(
                ts, msg
            ):  # systemd's "[  OK  ]" lines before it: still mid-log
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
        # a trace's frame has no "driver: " head ("[<c000bfc5>] (unwind_backtrace) from ...")
        # ... or a network daemon's line about an interface (a journal of networkd alone)
        is_kernel = (
            known or _KERNEL_MSG_RE.match(msg) is not None or _is_trace(found) or _daemon(found)
        )
        kernel_lines += is_kernel
        if found is not None:
            events.append(DmesgEvent(found[0], no, ts, msg, found[1]))  # shared, read-only
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
                    events.append(DmesgEvent(found[0], no, ts_part, part, found[1]))
            later.clear()
    res.lines, res.kernel_lines, res.timestamp_jumps = lines, kernel_lines, jumps
    res.timestamps = timestamps
    if covered:
        res.bodies, res.read = (*heads, *wrapped, *callers), text
    return res, first_head
