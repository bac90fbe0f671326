"""The first inspect's fast paths (issue 24, speed) hold what the plain code they replaced
gives: the kernel message table's literal pre-test never refuses a line its regex matches,
and a remembered answer is the answer; the dmesg patterns compiled on first use match as
compiled ones; the collector pause leaves the collector as it found it."""

from __future__ import annotations

import gc
import re
import threading
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sbctune.advice.evidence import lines_matching, lines_with, needs_line_edges, quote
from sbctune.advice.static_board import _OVER_CURRENT
from sbctune.catalog import kernel_messages as km
from sbctune.catalog.kernel_drivers import KernelDrivers
from sbctune.inventory import graph
from sbctune.inventory.gc_pause import gc_paused
from sbctune.inventory.parsers import dmesg, dmesg_classify, dmesg_wrappers
from sbctune.inventory.parsers.dmesg import parse_dmesg
from sbctune.inventory.parsers.dmesg_patterns import _NEEDLES, _PATTERNS
from sbctune.inventory.sightings import Fact

_CAPTURES = Path(__file__).resolve().parents[1] / "captures" / "dmesg"


def _formats() -> list[str]:
    table = km.load_messages()
    return sorted({row.split("\t", 3)[3] for rows in table._by_word.values() for row in rows})


_FORMATS = _formats()
_FILL = st.text(alphabet="abc019:-_ .[]()\t%", max_size=12)


def _instance(fmt: str, fills: list[str]) -> str:
    parts = km._SPEC_RE.split(fmt)  # literal, conversion, literal ...
    out = []
    for i, part in enumerate(parts):
        out.append(part if i % 2 == 0 else fills[(i // 2) % len(fills)])
    return "".join(out)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(_FORMATS),
    st.lists(st.sampled_from(["0", "12", "-110", "eth0", "ab cd", "x", "1-1.2:1.0"]), min_size=1),
    _FILL,
    _FILL,
)
def test_the_literal_pretest_never_refuses_a_line_the_format_matches(
    fmt: str, fills: list[str], before: str, after: str
) -> None:
    literals = km._SPEC_RE.split(fmt)[::2]
    for line in (_instance(fmt, fills), before + _instance(fmt, fills) + after, before + after):
        if km._to_regex(fmt).search(line):
            assert km._may_match(literals, line), (fmt, line)


def test_the_pretest_refuses_lines_without_the_literals_in_order() -> None:
    fmt = "Direct firmware load for %s failed with error %d"
    literals = km._SPEC_RE.split(fmt)[::2]
    assert km._may_match(literals, "Direct firmware load for x.bin failed with error -2")
    assert not km._may_match(literals, "failed with error -2 Direct firmware load for x.bin")
    ends = km._SPEC_RE.split("%s: Link is Down")[::2]  # the line must end with the format
    assert km._may_match(ends, "r8169 0000:01:00.0 eth0: Link is Down  ")
    assert not km._may_match(ends, "eth0: Link is Down (again)")


def _capture_lines() -> list[str]:
    lines = {
        line
        for path in sorted(_CAPTURES.glob("*.txt"))
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines()
        if line.strip()
    }
    return sorted(lines)


def test_every_capture_line_gets_the_message_it_got_without_the_pretest_and_memo(
    monkeypatch,
) -> None:
    lines = _capture_lines()
    table = km.load_messages()
    # two fresh tables over the loaded rows, made by the constructor (so that every memo a
    # later version adds starts empty), with the loaded errno names
    fast, plain = (km.MessageTable("", {}, table._packed) for _ in range(2))
    fast._errno = plain._errno = table._errno
    got = [fast.match(line) for line in lines]
    again = [fast.match(line) for line in lines]  # remembered
    monkeypatch.setattr(km, "_may_match", lambda literals, head: True)
    want = [plain._match(line[:400]) for line in lines]
    assert got == want == again
    assert sum(m is not None for m in got) > 100  # the captures have kernel messages
    assert len(fast._regex) < len(plain._regex)  # fewer formats compiled


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=120))
def test_lazy_dmesg_patterns_match_as_compiled_ones(text: str) -> None:
    for _kind, lazy in _PATTERNS:
        m, want = lazy.search(text), re.compile(lazy.pattern).search(text)
        assert (m and m.groupdict()) == (want and want.groupdict())


def test_the_collector_pause_restores_the_state_it_found() -> None:
    assert gc.isenabled()
    with gc_paused():
        assert not gc.isenabled()
        with gc_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the outer pause still holds
    assert gc.isenabled()
    gc.disable()
    try:
        with gc_paused():
            pass
        assert not gc.isenabled()  # disabled by someone else: left disabled
    finally:
        gc.enable()


def test_two_threads_pausing_leave_the_collector_enabled() -> None:
    inside = threading.Barrier(2, timeout=10)

    def work() -> None:
        with gc_paused():
            inside.wait()
            assert not gc.isenabled()
            inside.wait()

    threads = [threading.Thread(target=work) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert gc.isenabled()


_EVIDENCE_PATTERNS = [
    r"usb \S+: reset \S+ USB device",
    r"[Uu]nder-?voltage",
    r"usb \S+: not running at top speed",
    r"^\[",  # anchored: tried line by line
    r"eth0(?!:)",
    _OVER_CURRENT,  # groups, plain and named: searched in the whole text
    r"(?P<d>\S+): reset (?P=d)",
    r"(?i)under",  # an inline flag: tried line by line
]


def _plain_lines_matching(text: str, pattern: str, limit: int) -> list[str]:
    rx = re.compile(pattern)
    return [quote(line) for line in text.splitlines() if rx.search(line)][:limit]


_EVIDENCE_LINES = [
    "[ 1.0] usb 1-1: reset high-speed USB device number 2 using xhci_hcd",
    "usb 1-1.2: not running at top speed; connect to a high speed hub",
    "Under-voltage detected! (0x00050005)",
    "eth0: link up",
    "usb 1-1: reset",
    " USB device",
    "",
    "\x0c",
    "\r",
    "eth0: register 'x'",
    "usb usb1-port2: over-current condition",
    "hub 1-0:1.0: over-current change on port 1",
    "x: reset x",
]
_LINE_ENDS = ["\n", "\r\n", "\r", "\x0c", " ", "\x85", "\u2028", "\x1c", "\x0b"]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(_EVIDENCE_LINES), max_size=12),
    st.sampled_from(_LINE_ENDS),
    st.sampled_from(_EVIDENCE_PATTERNS),
    st.integers(min_value=1, max_value=4),
)
def test_evidence_lines_are_the_lines_a_plain_scan_finds(
    parts: list[str], sep: str, pattern: str, limit: int
) -> None:
    text = sep.join(parts)
    assert lines_matching(text, pattern, limit) == _plain_lines_matching(text, pattern, limit)


# Patterns with plain words each of their matches holds (as static_board passes them).
_NEEDLED = [
    (_OVER_CURRENT, ": over-current "),
    (r"usb \S+: reset \S+ USB device", ": reset "),
    (r"[Uu]nder-?voltage", "voltage"),
    (r"^\[", "["),
]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(_EVIDENCE_LINES), max_size=12),
    st.sampled_from(_LINE_ENDS),
    st.sampled_from(_NEEDLED),
    st.integers(min_value=1, max_value=4),
)
def test_lines_tried_only_where_the_needle_stands_are_the_lines_a_plain_scan_finds(
    parts: list[str], sep: str, needled: tuple[str, str], limit: int
) -> None:
    """A pattern given its literal words (an over-current pattern opens with an alternation,
    tried at every place of a long log's text): the lines found are the plain scan's."""
    pattern, needle = needled
    text = sep.join(parts)
    want = _plain_lines_matching(text, pattern, limit)
    assert lines_matching(text, pattern, limit, needle) == want


def test_a_pattern_of_plain_and_named_groups_is_searched_in_the_whole_text() -> None:
    """Groups (?:...), (?P<name>...) and (?P=name) match the same text wherever it stands, so
    such a pattern (the over-current one) is not tried on each of a long log's lines; what
    may look past a match (anchors, boundaries, lookarounds, flags, conditionals) still is."""
    assert not needs_line_edges(_OVER_CURRENT)
    assert not needs_line_edges(r"(?P<d>\S+): reset (?P=d)")
    for edged in (r"^\[", r"a$", r"\bx", r"x\Z", r"eth0(?!:)", r"(?<=a)b", r"(?i)x", r"(?(1)a)"):
        assert needs_line_edges(edged), edged


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(_EVIDENCE_LINES), max_size=12),
    st.lists(st.sampled_from(_LINE_ENDS), min_size=1, max_size=3),
    st.sampled_from(["eth0: ", "reset", "", "\r", "\n", "1: r", "USB device\n", "x"]),
    st.integers(min_value=-1, max_value=4),
)
def test_lines_with_a_needle_are_the_lines_a_plain_scan_finds(
    parts: list[str], ends: list[str], needle: str, limit: int
) -> None:
    """The lines holding a plain needle (a Pi's own text, never a regex), however the text's
    lines end; the same text asked twice (its split kept) and another text between."""
    text = "".join(part + ends[i % len(ends)] for i, part in enumerate(parts))
    want = [line.rstrip() for line in text.splitlines() if needle in line][:limit]
    assert lines_with(text, needle, limit) == want
    assert (
        lines_with(text + "\neth0: x", needle, limit)
        == [line.rstrip() for line in (text + "\neth0: x").splitlines() if needle in line][:limit]
    )
    assert lines_with(text, needle, limit) == want


def test_a_long_log_without_the_pattern_gives_no_evidence_and_one_with_it_does() -> None:
    lines = _capture_lines()
    text = "\n".join(lines)
    assert lines_matching(text, r"no such kernel message \S+") == []
    found = lines_matching(text, r"usb \S+: reset \S+ USB device", 2)
    assert len(found) == 2 and all("reset" in line for line in found)


def test_a_repeated_log_reads_as_its_lines_read_one_by_one() -> None:
    """The dmesg parser's memos (a message's first reading, a wrapped line's unwrapping) give
    each repeat what reading that line alone gives."""
    lines = _capture_lines()
    text = "\n".join(lines * 3)
    whole, _ = parse_dmesg(text)
    by_line = [parse_dmesg(line)[0].events for line in lines]
    want = [(e.kind, e.text, e.timestamp, e.fields) for events in by_line for e in events]
    got = [(e.kind, e.text, e.timestamp, e.fields) for e in whole.events]
    assert got == want * 3
    assert len(want) > 300  # the captures have many NIC lines


_FACTS = st.lists(
    st.builds(
        Fact,
        st.just("link"),
        st.one_of(st.booleans(), st.integers(0, 3), st.sampled_from(["a", "b", "Up"])),
        st.sampled_from(["dmesg", "ethtool", "sysfs", "ip"]),
        st.just("line"),
        st.integers(0, 4),
    ),
    min_size=1,
    max_size=12,
)


@settings(max_examples=400, deadline=None)
@given(_FACTS)
def test_a_devices_facts_come_in_the_order_and_winner_of_the_plain_sort(facts: list[Fact]) -> None:
    """graph's sort and pick skip repr(value) unless the source and position tie: the same
    order and the same winner as sorting and picking by the full key."""
    order = ("dmesg", "ethtool", "sysfs")
    plain = sorted(facts, key=lambda f: (f.source, f.order, repr(f.value)))
    assert graph._in_order(facts) == plain
    assert [id(f) for f in graph._in_order(facts)] == [id(f) for f in plain]
    ranked = [f for f in facts if f.source in order]
    want = min(ranked, key=lambda f: (order.index(f.source), -f.order, repr(f.value)), default=None)
    assert graph._best_of(facts, {s: i for i, s in enumerate(order)}) is want


def _plain_classify(msg: str) -> tuple[str, dict[str, str]] | None:
    """dmesg._classify as it was: each kind's needles tested in turn, pattern by pattern,
    after a network daemon's line (parsers/daemon_lines.py, which dmesg._classify tries first),
    linuxptp's port line (parsers/linuxptp_lines.py) and a boot firmware's network line
    (parsers/boot_firmware_lines.py, tried next)."""
    if (daemon := dmesg_classify.daemon_line(msg)) is not None:
        return daemon
    if (ptp := dmesg_classify.linuxptp_line(msg)) is not None:
        return ptp
    if (boot := dmesg_classify.boot_firmware_line(msg)) is not None:
        return boot
    candidates = _PATTERNS if dmesg_classify._NEEDLE_RE.search(msg) else _PATTERNS[-1:]
    for kind, rx in candidates:
        if not any(n in msg for n in _NEEDLES[kind]):
            continue
        m = rx.search(msg)
        if m:
            fields = {k.rstrip("23"): v for k, v in m.groupdict().items() if v is not None}
            old_shape = kind == "device" and m.groupdict().get("iface2") is not None
            if fields.get("device", "").endswith(":"):
                fields["device"] = fields["device"].rstrip(":")
                old_shape = kind == "device" and "iface" in fields
            if old_shape and not dmesg_classify._speaks_of_netdev(fields):
                del fields["iface"]  # a class driver's char device (corpus32's usblp0)
            if (
                kind == "device"
                and "iface" not in fields
                and "driver" in fields
                and (named := dmesg_classify.iface_named(msg[m.end() :])) is not None
            ):
                fields["iface"] = named  # "added PHC on eth2" (corpus41's igb/ixgbe lines)
            return kind, fields
    return (
        dmesg_classify.old_format_line(msg)
        or dmesg_classify.mii_phy_line(msg)  # r8169's PHY by its MDIO bus (corpus22's copy)
        or dmesg_classify._node_named(msg)
        or dmesg_classify._driver_message(msg)
        or dmesg_classify.bare_wiphy(msg)
        # a modem's usb-serial port gone ("option1 ttyUSB0: GSM modem (1-port) converter now
        # disconnected from ttyUSB0": can76's Quectel is the first capture copy holding one)
        or dmesg_classify.usb_serial_gone(msg)
        # corpus43's "RTW: func(wlp3s0) ..." (Realtek's FUNC_NDEV_FMT)
        or dmesg_classify.func_ndev_line(msg, dmesg_classify._is_netdev_name)
        # corpus49's bcmdhd "dhd_conf_set_hw_oob_intr: ..." (a function-keyed vendor row)
        or _vendor_function(msg)
        # corpus56's bcmdhd "[dhd] [wlan0] dhd_open : ..." (its prefix or name spaces)
        or dmesg_classify.bcmdhd_line(msg)
        # corpus56's "unisoc_wifi unisoc_wifi wlan0: ..." (a platform device named alone)
        or dmesg_classify.named_alone_netdev(msg, dmesg_classify._is_netdev_name)
        # gaps29's "nuc970-emac0 nuc970-emac0: eth0 is OPENED" (a vendor row's interface)
        or dmesg_classify.named_alone_device(msg, dmesg_classify._vendor_iface)
        # corpus49's "ethernet eth0: stmmac_open: ..." (a netdev line's prefix cut to one word)
        or dmesg_classify.cut_netdev_line(msg, dmesg_classify._is_netdev_name)
    )


def _vendor_function(msg: str) -> tuple[str, dict[str, str]] | None:
    found = dmesg_classify.vendor_function_line(msg)
    if found is None:
        return None
    row, fields = found
    name = row.function or row.prefix or ""  # corpus66: a "prefix" row names its driver
    return "vendor_function", {**fields, "function": name, "format": row.format}


_ALL_NEEDLES = sorted({n for ns in _NEEDLES.values() for n in ns})
_WORDS = ["r8152 2-1:1.0 eth0", "usb 1-1.2", "brcmfmac", "0000:01:00.0", ": ", " ", "x", "100"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_ALL_NEEDLES + _WORDS), max_size=6))
def test_a_message_gets_the_kind_the_plain_needle_test_gives(words: list[str]) -> None:
    """The needles tested once each (a message's kinds by _KINDS_BY_NEEDLE) pick the same
    first pattern as each kind's needles tested in turn."""
    msg = "".join(words)
    assert dmesg._classify(msg) == _plain_classify(msg)


def test_every_capture_line_gets_the_kind_the_plain_needle_test_gives() -> None:
    messages = [dmesg_wrappers.strip_prefix(line)[0] for line in _capture_lines()]  # clocks cut off
    got = [dmesg._classify(message) for message in messages]
    assert got == [_plain_classify(message) for message in messages]
    assert sum(g is not None for g in got) > 300  # the captures have many NIC lines


def test_a_drivers_record_is_made_once_and_unknown_names_are_not_kept() -> None:
    """A long log asks the table for its drivers ~20 000 times: each record is made once (the
    same frozen record every time, equal to the table's data), and a name the table lacks
    (a log's own text) is not kept, so the memo stays as small as the table."""
    data = {"drivers": {"ks8851": {"buses": ["platform", "spi"], "file": "drivers/net/x.c"}}}
    table = KernelDrivers(data)
    first = table.get("ks8851")
    assert first is not None and first.buses == ("platform",) and first.spi
    assert table.get("ks8851") is first
    for _ in range(3):
        assert table.get("no-such-driver") is None
    assert list(table._made) == ["ks8851"]
