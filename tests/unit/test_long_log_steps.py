"""A long log's per-line steps (issue 24, speed: session 24) read exactly what the plain code read.

- parsers/dmesg.py splits the log into lines first and splits on their own the few lines an
  elision run joined (elided_join.split_elided_lines), instead of rebuilding the whole text
  (split_elided) and splitting that: the same lines, on texts built from the pieces that decide
  a split (runs of dots, blanks, kernel message heads, line ends).
- log_sightings.from_dmesg reads only its watched lines and each message's first ones (a
  watched line's watchers in one call, _Reading.watch); the loop as it was (method calls per
  line, kept below as the reference) gives the same sightings on logs built from real lines
  that the watchers and repeat rules read.
- advice/counter_totals builds a driver's capability record once, not twice per NIC.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from sbctune.inventory import log_sightings
from sbctune.inventory.parsers.dmesg import parse_dmesg
from sbctune.inventory.parsers.elided_join import split_elided, split_elided_lines
from sbctune.inventory.sightings import Sighting
from sbctune.inventory.usb_probe_watch import ProbeWatch
from tests.unit.repeat_reference import plain_again

# Pieces of the lines split_elided reads (corpus/wrap40_ubuntu1404_*, corpus/am62l_ti_e2e_*)
_PIECES = [
    "...", "....", "......", " ... ", "... ", " ...... ", "\t", " ", "\n", ":", ": ",
    "asix 3-1.4:1.0 eth5: ", "eth3: ", "r8152 2-1:1.0: ", "[ 6170.2] ", "link up, 100Mbps",
    "register 'asix' at usb-0000:00:1d.0-1.4, 00:24:9c:04:44:28", "x", "é", "\U0001f7e1",
]  # fmt: skip


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.lists(st.sampled_from(_PIECES), max_size=24).map("".join))
@example(text="asix 3-1.4:1.0 eth5: register ...... eth3: link up\nx ... eth3: y")
def test_split_elided_lines_splits_as_the_whole_text_split(text: str) -> None:
    lines = text.split("\n")
    assert split_elided_lines(lines) == split_elided(text).split("\n")
    # the lines holding a run found in the text (the parse's call) split the same
    assert split_elided_lines(lines, text) == split_elided(text).split("\n")


def test_split_elided_lines_finds_the_runs_in_the_text() -> None:
    """Given the text, the lines holding a run come from one find per run, not a test of
    each line: the same lines split, whatever line the runs are on."""
    joined = "asix 3-1.4:1.0 eth5: register ...... eth3: link up"
    text = f"{joined}\na ... eth3: x\n\nb\n{joined}\nlast ... eth0: z\n{joined}"
    lines = text.split("\n")
    expected = split_elided(text).split("\n")
    assert split_elided_lines(lines, text) == expected == split_elided_lines(lines)
    assert len(expected) == len(lines) + 3  # the three joined lines, each split in two


def test_split_elided_lines_returns_the_lines_when_nothing_is_split() -> None:
    lines = ["[ 1.0] r8152 2-1:1.0 eth1: carrier on", "no run ... here"]
    assert split_elided_lines(lines) is lines  # no copy of a long log without elisions


def _reference_from_dmesg(text: str) -> list[Sighting]:
    """from_dmesg before its loop was made inline: _Reading's watched() and again() per line,
    the wiphy watcher called on every line, a repeat's facts made by Fact.at one by one."""
    reading = log_sightings._Reading()

    def watched(event: log_sightings.DmesgEvent) -> bool:
        kind = event.kind
        if kind == "ip_config":
            if (configured := reading.ip_config.see(event)) is not None:
                reading.found.append(configured)
            return True
        probing = kind in ProbeWatch.KINDS or reading.probes.open
        if probing and (probed := reading.probes.see(event)) is not None:
            reading.found.append(probed)
        if kind in log_sightings.TRACE_KINDS and (traced := reading.traces.see(event)):
            reading.found.append(traced)
            reading.firsts.append(traced)
        if (wiphy := reading.wiphys.see(event)) is not None:
            reading.found.append(wiphy)
            reading.firsts.append(wiphy)
        return False

    def counted_again(key: tuple[str, str], event: log_sightings.DmesgEvent) -> None:
        if key not in reading.lean:
            reading.lean[key] = log_sightings._repeat(event)
            if (template := reading.lean[key]) is not None:
                reading.repeats[key] = Sighting(template.keys)
                reading.found.append(reading.repeats[key])
        if (template := reading.lean[key]) is not None:
            reading.repeats[key].facts += plain_again(template, event)

    def again(key: tuple[str, str], event: log_sightings.DmesgEvent) -> bool:
        if key not in reading.seen:
            return False
        if event.kind in log_sightings._COUNTED or (
            event.kind == "old_format" and log_sightings._old_link_change(event)
        ):
            counted_again(key, event)
        elif (complaint := reading.complaints.get(key)) is not None:
            complaint.facts += plain_again(complaint.template, event)
        return True

    dmesg, _warnings = parse_dmesg(text)
    for event in dmesg.events:
        kind = event.kind
        if watched(event) or kind in log_sightings._SKIP or kind in log_sightings._PCIE_LINK:
            continue
        key = (kind, event.text)
        if not again(key, event):
            reading.first(key, event)
    return reading.sightings()


# Real lines (tests/captures/dmesg, corpus) of every kind the loop treats apart: counted link
# and USB lines, a driver's error line (a complaint repeated: r8169's), a probe's reset (a reset
# right after enumeration, then mt7601u's own line: the probe watcher reads it while the reset
# is open), a wiphy chip after its device, a trace, an IP configuration line, a voltage line
# it skips
_LINES = [
    "usb 1-1.3: new high-speed USB device number 3 using xhci_hcd",
    "usb 1-1.3: New USB device found, idVendor=0bda, idProduct=8153, bcdDevice=30.00",
    "usb 1-1.3: reset high-speed USB device number 3 using xhci_hcd",
    "r8152 1-1.3:1.0 eth1: v1.12.13",
    "usbcore: registered new interface driver r8152",
    "r8152 1-1.3:1.0 eth1: carrier on",
    "r8152 1-1.3:1.0 eth1: carrier off",
    "r8152 1-1.3:1.0 eth1: Tx status -71",
    "bcmgenet fd580000.ethernet eth0: Link is Up - 1Gbps/Full - flow control rx/tx",
    "bcmgenet fd580000.ethernet eth0: Link is Down",
    "NETDEV WATCHDOG: eth0 (bcmgenet): transmit queue 0 timed out",
    "usb 1-1.4: new high-speed USB device number 4 using xhci_hcd",
    "usb 1-1.4: reset high-speed USB device number 4 using xhci_hcd",
    "mt7601u 1-1.4:1.0: ASIC revision: 76010001 MAC revision: 76010500",
    "r8169 0000:01:00.0 eth0: rtl_chipcmd_cond == 1 (loop: 100, delay: 100).",
    "ieee80211 phy0: rt2x00_set_rt: Info - RT chipset 3070, rev 0201 detected",
    "usb 1-1.4: USB disconnect, device number 4",
    "hwmon hwmon1: Undervoltage detected!",
    "IP-Config: Complete:",
    "[<c000bfc5>] (unwind_backtrace) from [<c0009b99>] (show_stack+0x11/0x14)",
    "Machine model: Raspberry Pi 4 Model B Rev 1.4",
]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    picks=st.lists(st.tuples(st.sampled_from(_LINES), st.integers(0, 3)), max_size=30),
    clock=st.booleans(),
)
def test_from_dmesg_inline_loop_gives_the_sightings_of_the_method_loop(
    picks: list[tuple[str, int]], clock: bool
) -> None:
    at, lines = 0.0, []
    for line, gap in picks:  # gaps of 0 to 3 s: inside and outside the watchers' windows
        at += gap
        lines.append(f"[{at:12.6f}] {line}" if clock else line)
    text = "\n".join(lines)
    dmesg, _warnings = parse_dmesg(text)
    assert log_sightings.from_dmesg(dmesg) == _reference_from_dmesg(text)  # keys, facts, order


def test_a_drivers_counter_facts_are_built_once_however_many_nics(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """counters.py asks drop_totals() twice per NIC: the driver's capability record (caps(),
    ~0.2 ms each) is built once per driver, and every NIC gets the same answer."""
    from sbctune.advice import counter_totals
    from sbctune.tuning import driver_caps

    built: list[str | None] = []
    plain = driver_caps.caps

    def counted(driver: str | None, *args: object) -> object:
        built.append(driver)
        return plain(driver, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(driver_caps, "caps", counted)
    memo = getattr(counter_totals, "_drop_total", None)
    if memo is not None:
        memo.cache_clear()
    answers = [counter_totals.drop_totals("bcmgenet") for _ in range(195)]
    assert built == ["bcmgenet"]
    assert answers[0]["rx_errors"].driver == "bcmgenet"  # bcmgenet_desc_rx's ring discards
    assert all(a == answers[0] for a in answers)
    if memo is not None:
        memo.cache_clear()  # later tests read the table as shipped
