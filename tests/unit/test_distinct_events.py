"""The kernel log's events as columns, read per distinct message (issue 24's speed goal):
the parse makes no object per line, from_dmesg reads each distinct message once (a counted
one twice) plus what its watchers read, and gives the sightings the per-line loop gave."""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sbctune.inventory.log_sightings import from_dmesg
from sbctune.inventory.parsers import dmesg
from sbctune.inventory.parsers.dmesg import DmesgEvent, parse_dmesg
from tests.captured_dmesg import captured_logs
from tests.unit.log_sightings_reference import reference_from_dmesg

_CAPTURES = Path(__file__).resolve().parents[1] / "captures"
# real logs with USB resets a probe explains, wiphy lines, traces, flapping links, errors
_SOURCES = [
    _CAPTURES
    / "corpus"
    / "usbmg42_ds224p_bbqq_501_r8152_eth2_drops_and_returns"
    / "commands"
    / "001-dmesg.txt",
    *(
        _CAPTURES / "dmesg" / f"{name}.txt"
        for name in (
            "ds220_bbqq_177_rtl8156b_resets_not_top_speed",
            "pc_mt7601u_64_usb_wifi_eproto_probe_etimedout",
            "c201_prawnos_38_ath9k_htc_mac_rev_unsupported",
            "mt7620_openwrt_modemband_4_cdc_mbim_rt2800_wmac",
            "bsp56_opizero2w_dietpi_6827_sprdwl_ng_reload_ip_l_trace_wlan0_gone",
            "ac2100_openwrt_guide_6_mtk_flapping",
            "nanopi_r2s_jayanta_12_r8152_reset_high_speed_ehci_platform_gmac_up",
        )
    ),
]
_CLOCK = re.compile(r"^\s*\[\s*\d+\.\d+\]\s?")
_POOL = sorted(
    {
        _CLOCK.sub("", line)
        for path in _SOURCES
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines()
        if line.strip()
    }
)


class _Counted:
    """Counts the events made (DmesgEvent.__init__) while it is entered."""

    def __enter__(self) -> _Counted:
        self.made = 0
        self._init = DmesgEvent.__init__
        outer = self

        def counting(event: DmesgEvent, *args: object, **kwargs: object) -> None:
            outer.made += 1
            outer._init(event, *args, **kwargs)  # type: ignore[arg-type]

        DmesgEvent.__init__ = counting  # type: ignore[method-assign]
        return self

    def __exit__(self, *exc: object) -> None:
        DmesgEvent.__init__ = self._init  # type: ignore[method-assign]


def test_a_long_log_makes_no_event_per_line() -> None:
    """2 000 lines of two messages, one of them counted (link up): the parse and the sightings
    make a few events, not one per line; every line is still an event to a reader that asks
    (``events``), and the counted line still has a fact per line it was said on."""
    text = "".join(
        f"[{n:6d}.000000] r8152 2-1:1.0 eth1: "
        + ("carrier on\n" if n % 2 else "Using pass-thru MAC addr 00:e0:4c:68:00:01\n")
        for n in range(1, 2001)
    )
    with _Counted() as counted:
        result, _ = parse_dmesg(text)
        sightings = from_dmesg(result)
    assert counted.made < 10
    assert len(result.events) == 2000
    links = [f for s in sightings for f in s.facts if f.field == "link_event"]
    assert [f.order for f in links] == list(range(1, 2001, 2))
    assert sightings == reference_from_dmesg(result)


def test_a_probe_line_said_before_ends_the_log_and_explains_the_reset() -> None:
    """corpus usbmg42_ds224p_bbqq_501: the r8152 line after the second reset repeats one said
    before, as the log's last line; the probe watch still reads it (its reset is the probe's)."""
    result, _ = parse_dmesg(_SOURCES[0].read_text(encoding="utf-8"))
    sightings = from_dmesg(result)
    probed = [f for s in sightings for f in s.facts if "rtl8152_probe_once" in f.line]
    assert [f.line.split(" (")[0] for f in probed][-1].endswith("device number 5 using xhci_hcd")
    assert sightings == reference_from_dmesg(result)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    picks=st.lists(st.integers(min_value=0, max_value=len(_POOL) - 1), max_size=60),
    clocks=st.sampled_from(["own", "none", "backwards"]),
)
def test_the_sightings_are_the_per_line_loops(picks: list[int], clocks: str) -> None:
    """Real lines in any order and repetition (with clocks, without, or going backwards):
    from_dmesg's reading per distinct message gives the per-line loop's sightings."""
    lines = [_POOL[i] for i in picks]
    if clocks == "own":
        lines = [f"[{n * 0.5:12.6f}] {line}" for n, line in enumerate(lines, start=1)]
    elif clocks == "backwards":
        lines = [f"[{(n % 7) * 0.7:12.6f}] {line}" for n, line in enumerate(lines, start=1)]
    result, _ = dmesg._parse_dmesg("\n".join(lines))
    assert from_dmesg(result) == reference_from_dmesg(result)


def test_every_captured_log_reads_as_the_per_line_loop() -> None:
    """Every real log of tests/captures/dmesg: the same sightings."""
    for name, result in captured_logs():
        assert from_dmesg(result) == reference_from_dmesg(result), name


def test_events_a_caller_gave_are_read_by_kind_and_message() -> None:
    """A caller's events (not the parse's) may give one message two kinds: each (kind,
    message) is read as its own line, as the per-line loop read it."""
    text = "r8152 2-1:1.0 eth1: carrier on"
    fields = {"driver": "r8152", "device": "2-1:1.0", "iface": "eth1"}
    events = [
        DmesgEvent(kind, n, float(n), text, fields)
        for n, kind in enumerate(["link_up", "device", "link_up", "device", "link_up"], 1)
    ]
    result = dmesg.DmesgResult(events)
    assert not result.one_kind_a_text()
    assert from_dmesg(result) == reference_from_dmesg(dmesg.DmesgResult(list(events)))


_WIPHY_LINE = "ieee80211 phy0: rt2x00_set_rt: Info - RT chipset 6352, rev 0500 detected"


def test_the_wiphy_watcher_makes_only_the_events_it_reads() -> None:
    """A wiphy line (mt7620_openwrt_modemband_4's) after lines of many drivers' devices (the
    captures' own), 50 times over: the watcher keeps each driver's last line by its place in
    the columns and makes its event only when a wiphy line reads it; on the code before it
    made one per driver kept at every catch-up (~50 x the drivers). The same sightings."""
    per_driver: dict[str, str] = {}
    for _name, log in captured_logs(200):
        for event in log.events:
            if event.kind == "device" and event.device and event.driver not in (None, "usb"):
                per_driver.setdefault(event.driver, event.text)
    lines = [*sorted(per_driver.values())[:30], _WIPHY_LINE] * 50
    text = "".join(f"[{n * 0.01:12.6f}] {line}\n" for n, line in enumerate(lines, start=1))
    result, _ = parse_dmesg(text)
    with _Counted() as counted:
        sightings = from_dmesg(result)
    assert len(per_driver) >= 30
    assert counted.made < 400
    assert sightings == reference_from_dmesg(result)
