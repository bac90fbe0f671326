"""The long-log fast paths (issue 24, speed) read exactly what the plain code read.

The dmesg loop reads the common "[  12.345678] msg" line itself, and the device graph unites,
cuts and places each distinct key list once. Each is compared here with the plain
formulation it replaced (kept below as the reference), on lines and sightings built from
the pieces that decide the reading: clocks, prompts, fences, elisions, wrappers.
"""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from sbctune.inventory import graph
from sbctune.inventory.graph import Device, join, reused_names
from sbctune.inventory.parsers import paste_split
from sbctune.inventory.parsers.common import is_ellipsis, is_noise, split_lines
from sbctune.inventory.parsers.dmesg import DmesgEvent, DmesgResult, _classify, parse_dmesg
from sbctune.inventory.parsers.dmesg_wrappers import after_prompt, strip_prefix
from sbctune.inventory.sightings import Fact, Sighting

# Pieces of real lines (tests/captures/dmesg) and of the pastes around them.
_HEADS = [
    "", " ", "[    1.234567] ", "[13492.262308] ", "[6.679649@3] ", "[  +0.000004] ",
    "[Tue May 21 06:36:08 2024] ", "May 13 02:18:27 subject kernel: ", "<6>", "<4>",
    "root@orange-pi-zero2:~# ", "pi@raspberrypi:~ $ ", "$ ", "# ", "```", "~~~ ",
    "2024-03-01T10:00:00.123456+01:00 ", "kernel: ", "Sun Oct 13 10:00:00 2024 kern.warn kernel: ",
    "[   14.58] kernel: ", "[1.5]foo@bar $ ",
]  # fmt: skip
_BODIES = [
    "", "...", "…", "[...]", "(...)",
    "r8152 2-1:1.0 eth1: renamed from eth0",
    "mtk_soc_eth 1e100000.ethernet eth0: port 2 link up",
    "bcmgenet fd580000.ethernet eth0: Link is Up - 1Gbps/Full - flow control rx/tx",
    "bcmgenet fd580000.ethernet eth0: Link is Down",
    "usb 1-1.3: reset high-speed USB device number 3 using xhci_hcd",
    "rtl8723bs: probe of mmc1:0001:1 failed with error -16",
    "NETDEV WATCHDOG: eth0 (r8169): transmit queue 0 timed out",
    "hwmon hwmon1: Undervoltage detected!",
    "udhcpc: broadcasting discover",
    "Machine model: Raspberry Pi 4 Model B Rev 1.4",
    "user@host ~ $ dmesg", "a:~b # x", "@ :~",
]  # fmt: skip

_TAILS = ["", " ", "\t", "\x00", " kernel: x"]
_line = st.builds(
    lambda h, b, t: h + b + t,
    st.sampled_from(_HEADS),
    st.sampled_from(_BODIES),
    st.sampled_from(_TAILS),
)


def _reference_events(text: str) -> list[tuple[str, int, float | None, str]]:
    """The loop before issue 24's fast path: is_ellipsis, is_noise, strip_prefix per line;
    a noise line is read only for a kernel line glued to a prompt (the sixth unseen set)."""
    out = []
    for no, raw in enumerate(split_lines(text), start=1):
        if is_ellipsis(raw) or (is_noise(raw) and _glued(raw) is None):
            continue
        msg, ts, _known = strip_prefix(_glued(raw) or raw)
        found = _classify(msg)
        if found is not None:
            out.append((found[0], no, ts, msg))
    return out


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines=st.lists(_line, max_size=12))
def test_dmesg_fast_path_reads_every_line_as_the_plain_loop(lines: list[str]) -> None:
    text = "\n".join(lines)
    result, _warnings = parse_dmesg(text)
    got = [(e.kind, e.line, e.timestamp, e.text) for e in result.events]
    assert got == _reference_events(text)
    assert result.lines == sum(
        1
        for raw in split_lines(text)
        if not is_ellipsis(raw) and (not is_noise(raw) or _glued(raw) is not None)
    )


def _glued(raw: str) -> str | None:
    return after_prompt(raw.strip()) if is_noise(raw) else None


def _reference_join(sightings: list[Sighting]) -> list[Device]:
    """graph.join without its shortcut (no shared devices in these sightings): the same cut of
    reused and renamed-away names (graph._without_reused) and the same naming by address after
    (graph._name_by_address), but one union and one placement per sighting, not per distinct
    key list."""
    reused = reused_names(sightings)
    items = list(graph._without_reused(sightings, reused))
    uf = graph._UnionFind()
    for keys, _facts in items:
        for key in keys:
            uf.union(keys[0], key)
    groups: dict[tuple[str, str], Device] = {}
    for keys, facts in items:
        device = groups.setdefault(uf.find(keys[0]), Device())
        device.keys.update(keys)
        device.facts += facts
        for key in keys:
            device.key_sources.setdefault(key, set()).update(f.source for f in facts)
    if reused:
        graph._name_by_address(sightings, reused, uf, groups)
    return [groups[k] for k in sorted(groups)]


_KEYS = [("if", "eth0"), ("if", "eth1"), ("usb", "1-1:1.0"), ("mac", "aa"), ("pci", "0000:01:00.0")]
_keys = st.lists(
    st.sampled_from(_KEYS),
    min_size=0,
    max_size=3,
    unique=True,
)
_fact = st.builds(
    Fact,
    st.sampled_from(["link", "driver", "former_name", "seen"]),
    st.sampled_from(["eth0", "eth1", True, 1000]),
    st.sampled_from([graph.LOG_SOURCE, "ip", "ethtool"]),
    st.just("line"),
    st.integers(0, 5),
)
_sighting = st.builds(Sighting, _keys, st.lists(_fact, max_size=3))


_RENAMED = [
    Sighting([("if", "eth0"), ("if", "eth1"), ("usb", "1-1:1.0")], []),
    Sighting(
        [("if", "eth0"), ("if", "eth1"), ("usb", "1-1:1.0")],
        [Fact("former_name", "eth0", "dmesg", "line", 0)],
    ),
    Sighting([("pci", "0000:01:00.0")], [Fact("former_name", "eth0", "dmesg", "line", 0)]),
]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sightings=st.lists(_sighting, max_size=15))
@example(sightings=_RENAMED)  # found by hypothesis: a renamed-away name with a reused one
def test_join_of_each_distinct_key_list_once_makes_the_same_devices(
    sightings: list[Sighting],
) -> None:
    def shape(devices: list[Device]) -> list[tuple[object, ...]]:
        return [
            (sorted(d.keys), d.facts, sorted((k, sorted(v)) for k, v in d.key_sources.items()))
            for d in devices
        ]

    # Two ports of one PCI function would be "shared devices": that split is not changed here.
    if any(("pci", "0000:01:00.0") in s.keys and len(s.keys) > 1 for s in sightings):
        sightings = [s for s in sightings if ("pci", "0000:01:00.0") not in s.keys]
    assert shape(join(sightings)) == shape(_reference_join(sightings))


def _reading(text: str) -> tuple[object, ...]:
    result, warnings = parse_dmesg(text)
    events = [(e.kind, e.line, e.timestamp, e.text, e.fields) for e in result.events]
    counts = (result.lines, result.kernel_lines, result.timestamps, result.timestamp_jumps)
    return events, counts, result.starts_mid_log, result.elided, warnings


# two kernel lines a mail archive joined on one line: read in full each time, never memoised
_JOINED = (
    "[31048.490000] usb 3-13: new high-speed USB device number 4 using xhci_hcd "
    "[31048.667617] cdc_ether 3-13:1.0 eth1: register 'cdc_ether' at usb-0000:00:14.0-13"
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    pool=st.lists(_line | st.just(_JOINED), min_size=1, max_size=6),
    picks=st.lists(st.integers(0, 5), max_size=30),
)
def test_dmesg_whole_line_memo_reads_repeats_as_the_plain_loop(
    pool: list[str], picks: list[int]
) -> None:
    """A repeated whole line (a log pasted twice, or rotated) is read from the whole-line memo:
    the same events, counts, clock checks and warnings as when every line is read in full."""
    import sbctune.inventory.parsers.dmesg as dmesg

    text = "\n".join(pool[i % len(pool)] for i in picks)
    memo = _reading(text)
    saved = dmesg._WHOLE_LIMIT
    dmesg._WHOLE_LIMIT = 0  # the plain path: no line remembered
    try:
        plain = _reading(text)
    finally:
        dmesg._WHOLE_LIMIT = saved
    assert memo == plain


_TAIL_AFTER_CLOCK = [
    *_BODIES,
    "kernel: r8152 2-1:1.0 eth1: carrier on",
    "smsc95xx 1-1.1:1.0 eth0: link up [31048.667617] cdc_ether 3-13:1.0 eth1: register 'x'",
    "usb 3-13: new device [31048.1] not a clock [  12.000001] r8152 2-1:1.0 eth1: carrier off",
    "x kernel[12]: [ 1.000000] y",
]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    tails=st.lists(st.sampled_from(_TAIL_AFTER_CLOCK), min_size=1, max_size=5),
    picks=st.lists(st.tuples(st.integers(0, 4), st.integers(0, 10**7)), max_size=25),
)
def test_dmesg_message_memo_reads_repeats_under_new_clocks_as_the_plain_loop(
    tails: list[str], picks: list[tuple[int, int]]
) -> None:
    """The text after a clock that comes again under another clock (every line its own clock)
    is read from the message memo (dmesg_heads): the same messages, joined lines, events and
    counts as when every line is read in full (no memo at all)."""
    import sbctune.inventory.parsers.dmesg as dmesg

    text = "\n".join(f"[{n / 1000:12.6f}] {tails[i % len(tails)]}" for i, n in picks)
    memo = _reading(text)
    saved = dmesg._MEMO_LIMIT, dmesg._WHOLE_LIMIT
    dmesg._MEMO_LIMIT = dmesg._WHOLE_LIMIT = 0  # the plain path: nothing remembered
    try:
        plain = _reading(text)
    finally:
        dmesg._MEMO_LIMIT, dmesg._WHOLE_LIMIT = saved
    assert memo == plain


def test_dmesg_whole_line_memo_is_given_up_when_no_line_repeats() -> None:
    """Every line its own clock: the memo fills, finds no repeat, and is dropped; the reading
    stays the plain one (a small limit here, 20 000 in the product)."""
    import sbctune.inventory.parsers.dmesg as dmesg

    text = (
        "\n".join(f"[{n / 1000:12.6f}] r8152 2-1:1.0 eth1: renamed from eth0" for n in range(50))
        + "\n"
        + "\n".join(["[    1.000000] bcmgenet fd580000.ethernet eth0: Link is Down"] * 5)
    )
    saved = dmesg._WHOLE_LIMIT
    try:
        dmesg._WHOLE_LIMIT = 8
        small = _reading(text)
        dmesg._WHOLE_LIMIT = 0
        plain = _reading(text)
    finally:
        dmesg._WHOLE_LIMIT = saved
    assert small == plain
    assert len(small[0]) == 55


def _plain_occurrences(text: str, marker: str) -> list[int]:
    out, at = [], text.find(marker)
    while at != -1:
        out.append(at)
        at = text.find(marker, at + 1)
    return out


def _reference_marker_offsets(text: str) -> list[int]:
    """paste_split._marker_offsets before the one-character search: text.find per marker."""
    found: set[int] = set()
    markers = paste_split._MARKERS
    for marker in markers if len(text) < paste_split.LONG_TEXT else markers[:3]:
        at = text.find(marker)
        checks = 0
        while at != -1 and checks < paste_split.MAX_CHECKS and len(found) < paste_split.MAX_PARTS:
            checks += 1
            begin = at + 1 if marker[0] == "\n" else text.rfind("\n", 0, at) + 1
            stop = text.find("\n", begin)
            line = text[begin : stop if stop != -1 else len(text)]
            if line.startswith("---") and begin > 1:
                title_begin = text.rfind("\n", 0, begin - 1) + 1
                if paste_split._TITLE.match(text[title_begin : begin - 1].strip()):
                    found.add(title_begin)
                    at = text.find(marker, at + 1)
                    continue
            # a bare prompt whose command wrapped onto the next line breaks too (corpus59)
            if paste_split._BREAK_LINE.match(line) or paste_split._wrapped_command(
                line, text, stop
            ):
                found.add(begin)
            at = text.find(marker, at + 1)
    return sorted(found)


_PASTE_PIECES = [
    "$", "#", "❯", " ", "\n", "$ ", "# ", "❯ ", "\n---", "\n===", "\n### x", "---", "ip a",
    "pi@raspberrypi:~ $ ", "root@pi:~# lsusb", "[    1.234567] r8152 2-1:1.0 eth1: up", "USB Info",
    "#1 SMP", "x", "$$", "##",
]  # fmt: skip


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pieces=st.lists(st.sampled_from(_PASTE_PIECES), max_size=40), misses=st.integers(0, 3))
# found by hypothesis (the Windows lane): a bare prompt whose command wrapped onto the next line
@example(pieces=["pi@raspberrypi:~ $ ", "\n", "ip a"], misses=0)
def test_paste_marker_search_finds_what_the_plain_search_found(
    pieces: list[str], misses: int
) -> None:
    """The prompt markers' one-character search gives the plain search's occurrences, and the
    same breaks, also when it falls back to the plain search after a few misses (a text full
    of "#") and when the checks' cap stops it."""
    text = "".join(pieces)
    saved = paste_split._MISSES, paste_split.MAX_CHECKS
    try:
        paste_split._MISSES = misses
        for marker in paste_split._MARKERS:
            assert list(paste_split._occurrences(text, marker)) == _plain_occurrences(text, marker)
        assert paste_split._marker_offsets(text) == _reference_marker_offsets(text)
        paste_split.MAX_CHECKS = 2  # the cap reached: the same first occurrences checked
        assert paste_split._marker_offsets(text) == _reference_marker_offsets(text)
    finally:
        paste_split._MISSES, paste_split.MAX_CHECKS = saved


@settings(max_examples=200, deadline=None)
@given(
    kinds=st.lists(st.sampled_from(["device", "link_up", "dmi", "cpuinfo"]), max_size=20),
    more=st.lists(st.sampled_from(["device", "dmi", "kernel_version"]), max_size=5),
)
def test_dmesg_events_of_a_kind_from_the_index_are_the_plain_filter(
    kinds: list[str], more: list[str]
) -> None:
    """of_kind() answers from an index made at its first call: the events the plain filter
    gives, in order, also after more events came (the index is made again) and for a kind
    the log lacks; the list it gives is the caller's own."""
    result = DmesgResult(events=[DmesgEvent(k, n, None, f"m{n}") for n, k in enumerate(kinds)])
    every = ["device", "link_up", "dmi", "cpuinfo", "kernel_version", "none"]
    for kind in every:
        assert result.of_kind(kind) == [e for e in result.events if e.kind == kind]
    result.events += [DmesgEvent(k, 100 + n, None, "late") for n, k in enumerate(more)]
    for kind in every:
        got = result.of_kind(kind)
        assert got == [e for e in result.events if e.kind == kind]
        got.append(DmesgEvent(kind, -1, None, "x"))
        assert result.of_kind(kind) == [e for e in result.events if e.kind == kind]
