"""The dmesg loop tests a line for "@" and ":~" (a prompt the wrappers read) after the clock
regex, and only when the log holds "@" or "~" at all (issue 24, speed: two substring scans
of every line of a 100 000-line log saved): every reading equals the plain loop's, which
tested each line first (dmesg_reference.py, main before session 26)."""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sbctune.inventory.parsers import dmesg
from tests.unit.dmesg_reference import reference_parse

_CLOCKS = st.sampled_from(
    [
        "[    1.234567] ",
        "[   10.296079@1]d ",
        "[    0.597144@3]- ",
        "[12.5] ",
        "[ 9.346320][  T187] ",
        "[ 3839.716141] [1: kworker/1:3: 9974] ",
        "[ 1755.845627] [c0] ",
        # a caller's task name holding a mark: the line goes to the wrappers even when its
        # message came before under a plain clock (the marks are the line's, not the message's)
        "[ 3839.716141] [1: user@x: 9974] ",
        "[ 3839.716141] [1: a:~b: 9974] ",
        "[    0.000000]",
    ]
)
_MESSAGES = st.sampled_from(
    [
        "r8152 2-1:1.0 eth1: carrier on",
        "usb 1-1: new high-speed USB device number 2 using xhci_hcd",
        "bcmgenet fd580000.ethernet eth0: Link is Up - 1Gbps/Full - flow control rx/tx",
        "systemd[1]: Started user@1000.service",
        "pi@raspberrypi:~$ dmesg",
        "root@host:~# dmesg | grep eth",
        "mail me at someone@example.org",
        "home is ~ here",
        "eth0: renamed from end0",
        "smsc95xx 1-1.1:1.0 eth0: link up [31048.667617] cdc_ether 3-13:1.0 eth1: register 'x'",
    ]
)
_OTHER = st.sampled_from(
    [
        "",
        "...",
        "[pi@raspberrypi ~]$ dmesg",
        "[root@host:~]# dmesg",
        "Oct 13 10:00:00 host kernel: [ 12.3] r8152 2-1:1.0 eth1: carrier off",
        "Sun Oct 13 10:00:00 2024 kern.warn kernel: [ 12.3] usb 1-1: reset",
        "$ dmesg | tail",
        "  [    2.000000] lan78xx 1-1.1.1:1.0 eth0: link up, 1000Mbps, full-duplex",
        "[Mar23 13:30] r8169 0000:01:00.0 enp1s0: Link is Down",
    ]
)
_LINE = st.one_of(st.builds(lambda c, m: c + m, _CLOCKS, _MESSAGES), _OTHER, _MESSAGES)


def _plain(text: str) -> tuple[object, ...]:
    res, first_head = reference_parse(text)
    mid = res.starts_mid_log
    if (
        not res.timestamps
        and first_head is not None
        and not first_head[1].startswith(dmesg._BOOT_BANNERS)
        and dmesg._wall_clock_head(first_head[0])
    ):
        mid = True  # the step after the loop, as _parse_dmesg has it
    return _shape(res, mid)


_WORD = re.compile(r"[\w-]*[^\W\d_][\w-]*")


def _shape(res: dmesg.DmesgResult, mid: bool) -> tuple[object, ...]:
    events = [(e.kind, e.line, e.timestamp, e.text, e.fields) for e in res.events]
    counts = (res.lines, res.kernel_lines, res.timestamps, res.timestamp_jumps, res.elided)
    # bodies vouch for the log's words (template_names: a template of word characters and
    # "-", two of them letters, is searched in the text only if they hold it): which words,
    # not which lines; a repeat under a new clock adds none
    words = None if res.bodies is None else frozenset(_WORD.findall("\n".join(res.bodies)))
    return events, counts, mid, words


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines=st.lists(_LINE, max_size=25))
def test_the_marks_after_the_clock_read_as_the_plain_loop(lines: list[str]) -> None:
    text = "\n".join(lines)
    res, _warnings = dmesg._parse_dmesg(text)
    assert _shape(res, res.starts_mid_log) == _plain(text)


def test_a_message_read_before_is_left_to_the_wrappers_under_a_marked_clock() -> None:
    """The clocked memo skips the two scans for a message read before under a plain clock:
    the same message after an "@<cpu>" clock or a caller holding a mark still goes to the
    wrappers, as the plain loop sends it."""
    message = "r8152 2-1:1.0 eth1: carrier on"
    for clock in (
        "[   10.296079@1]d ",
        "[ 3839.716141] [1: user@x: 9974] ",
        "[ 9.1] [1: a:~b: 7] ",
    ):
        text = f"[  6.000000] {message}\n{clock}{message}\nmail user@example.org"
        res, _ = dmesg._parse_dmesg(text)
        assert _shape(res, res.starts_mid_log) == _plain(text)


def test_a_prompt_in_a_clock_line_is_still_read_by_the_wrappers() -> None:
    """A console's clock before a prompt: left to the wrappers (the log holds "@"), and a log
    without "@" nor "~" reads its clock lines without the two scans, the same events."""
    with_prompt = (
        "[  5.000000] pi@raspberrypi:~$ dmesg\n[  6.000000] r8152 2-1:1.0 eth1: carrier on"
    )
    res, _ = dmesg._parse_dmesg(with_prompt)
    assert _shape(res, res.starts_mid_log) == _plain(with_prompt)
    plain = "[  6.000000] r8152 2-1:1.0 eth1: carrier on"
    res, _ = dmesg._parse_dmesg(plain)
    assert [e.kind for e in res.events] == [e.kind for e in reference_parse(plain)[0].events]
    assert res.events
