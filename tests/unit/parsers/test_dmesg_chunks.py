"""The dmesg loop cuts a log at its plain clocks (parsers/dmesg_chunks.py) and reads a line
whose message came before as a plain clock line's from a memo of what follows the clock,
without the clock regex (issue 24, speed: per distinct message, not per line). Every reading
equals the plain loop's (tests/unit/dmesg_reference.py, which reads every line in full),
whatever the clocks, blanks, callers and other lines around the repeats."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sbctune.inventory.parsers import dmesg
from sbctune.inventory.parsers.dmesg_chunks import clock_chunks
from tests.unit.dmesg_reference import reference_parse
from tests.unit.test_dmesg_line_guard import _plain, _shape

_CLOCKS = st.sampled_from(
    [
        "[    1.234567] ",
        "[    0.500000] ",
        "[12.5] ",
        "[   99.000001]  ",  # two blanks: the message starts after both
        "[\t3.000000] ",  # a tab: not a plain clock, its line read in full
        "[ 4.000000]\t",
        "[   10.296079@1]d ",
        "[ 9.346320][  T187] ",
        "[ 9.346320] [T187] ",
        "[ 3839.716141] [1: kworker/1:3: 9974] ",
        "  [    2.000000] ",  # blanks before the clock
        "[    0.000000]",
        "[ ١.٥] ",  # Arabic-Indic digits: the clock regex's \\d reads them, the cut does not
    ]
)
_MESSAGES = st.sampled_from(
    [
        "r8152 2-1:1.0 eth1: carrier on",
        "r8152 2-1:1.0 eth1: carrier on ",  # a blank after it
        "r8152 2-1:1.0 eth1: carrier on\r",
        "usb 1-1: new high-speed USB device number 2 using xhci_hcd",
        "[T187] usb 1-1: reset high-speed USB device number 2 using xhci_hcd",
        "bcmgenet fd580000.ethernet eth0: Link is Up - 1Gbps/Full - flow control rx/tx",
        "pi@raspberrypi:~$ dmesg",
        "eth0: renamed from end0",
        "kernel: lan78xx 1-1.1.1:1.0 eth0: link up, 1000Mbps, full-duplex",
        "smsc95xx 1-1.1:1.0 eth0: link up [31048.667617] cdc_ether 3-13:1.0 eth1: register 'x'",
        "asix 3-1.4:1.0 eth5: register 'asix' ...... eth3: link up, 100Mbps, full-duplex",
        "Booting Linux on physical CPU 0x0",
        "",
    ]
)
_OTHER = st.sampled_from(
    [
        "",
        "...",
        "[pi@raspberrypi ~]$ dmesg",
        "Oct 13 10:00:00 host kernel: [ 12.3] r8152 2-1:1.0 eth1: carrier off",
        "r8152 2-1:1.0 eth1: carrier on",
        "[Mar23 13:30] r8169 0000:01:00.0 enp1s0: Link is Down",
    ]
)
_LINE = st.one_of(
    st.builds(lambda c, m: c + m, _CLOCKS, _MESSAGES),
    st.builds(lambda c, m: c + m, _CLOCKS, _MESSAGES),
    _OTHER,
)


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines=st.lists(_LINE, max_size=30), end=st.sampled_from(["", "\n", "\n\n"]))
def test_a_log_cut_at_its_clocks_reads_as_the_plain_loop(lines: list[str], end: str) -> None:
    text = "\n".join(lines) + end
    res, _warnings = dmesg._parse_dmesg(text)
    assert _shape(res, res.starts_mid_log) == _plain(text)


@given(text=st.text(alphabet=st.sampled_from("[] 0123456789.\n\rab:"), max_size=80))
def test_the_cut_gives_the_text_back(text: str) -> None:
    parts = clock_chunks(text)
    again = parts[0] + "".join(
        f"\n[{clock}] {chunk}" for clock, chunk in zip(parts[1::2], parts[2::2], strict=True)
    )
    assert again == text


class _Counted:
    """The clock regex, counting the lines it reads."""

    def __init__(self, rx: object) -> None:
        self.rx, self.calls = rx, 0

    def match(self, line: str) -> object:
        self.calls += 1
        return self.rx.match(line)  # type: ignore[attr-defined]


def test_a_message_seen_before_under_a_plain_clock_costs_no_clock_regex(monkeypatch) -> None:
    """A 1 000-line log of 10 messages, each line its own clock: the clock regex reads each
    message's first line only, and the first repeat of the log's first line (the text's
    start is no chunk); the other 989 are memo hits, with the same events."""
    messages = [f"r8152 2-1:1.0 eth{n}: carrier on" for n in range(5)] + [
        f"usb 1-1.{n}: USB disconnect, device number {n}" for n in range(5)
    ]
    text = "\n".join(f"[{no // 1000:5d}.{no % 1000:06d}] {messages[no % 10]}" for no in range(1000))
    counted = _Counted(dmesg._TS_MSG_RE)
    monkeypatch.setattr(dmesg, "_TS_MSG_RE", counted)
    res, _ = dmesg._parse_dmesg(text)
    assert counted.calls == 11
    assert res.lines == res.kernel_lines == 1000
    assert [(e.kind, e.line, e.timestamp, e.text) for e in res.events] == [
        (e.kind, e.line, e.timestamp, e.text) for e in reference_parse(text)[0].events
    ]
    assert len(res.events) == 1000


def test_a_line_with_a_caller_blanks_or_an_at_sign_is_read_once_too(monkeypatch) -> None:
    """What follows a plain clock decides a line's reading whatever it holds: a printk caller
    ("[T187]", a task's name), a second blank, an "@" or ":~" (which send the line to the
    wrappers). A 1 000-line log of 10 such messages, each line its own clock, reads each
    message's line once (and the first repeat of the log's first line); the code before
    read all 1 000 (a log of a kernel with CONFIG_PRINTK_CALLER has a caller on every line)."""
    messages = [
        "[  T187] usb 1-1: reset high-speed USB device number 2 using xhci_hcd",
        "[T58] r8152 2-1:1.0 eth0: carrier on",
        "[1: kworker/1:3: 9974] usb 1-1.3: USB disconnect, device number 4",
        " bcmgenet fd580000.ethernet eth0: Link is Down",  # two blanks after the clock
        "brcmfmac: F1 signature read @0x18000000=0x15264345",
        "stmmaceth 1c50000.ethernet@1: probe of mdio@0 failed with error -5",
        "pi@raspberrypi:~$ dmesg",
        "[T187] mtk_soc_eth 1e100000.ethernet@x eth0: link up, 1000Mbps, full-duplex",
        "usb 1-1: new high-speed USB device number 2 using xhci_hcd",
        "eth0: renamed from end0",
    ]
    text = "\n".join(f"[{no // 1000:5d}.{no % 1000:06d}] {messages[no % 10]}" for no in range(1000))
    counted = _Counted(dmesg._TS_MSG_RE)
    monkeypatch.setattr(dmesg, "_TS_MSG_RE", counted)
    res, _ = dmesg._parse_dmesg(text)
    assert counted.calls == 11
    reference, _ = reference_parse(text)
    assert (res.lines, res.kernel_lines) == (reference.lines, reference.kernel_lines)
    assert res.lines == res.kernel_lines == 1000
    assert [(e.kind, e.line, e.timestamp, e.text, e.fields) for e in res.events] == [
        (e.kind, e.line, e.timestamp, e.text, e.fields) for e in reference.events
    ]
    assert len(res.events) > 500
