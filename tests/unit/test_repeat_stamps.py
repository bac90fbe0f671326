"""from_dmesg's per-line shortcuts (issue 24, speed: session 25) give what the plain steps gave.

- A counted line's repeat (and a driver error's) copies its template's facts from stamps made
  once per line (log_sightings.stamps_of / again), not by Fact.at per fact: the same facts,
  field for field and in the same attribute order, as Fact.at makes them.
- The wiphy watcher is called only for its KINDS and for lines naming a device: any other line
  changes nothing in it and gives nothing, so the lines it is no longer passed are exactly
  those it ignored.
(tests/unit/test_long_log_steps.py compares the whole loop with the plain one on real lines.)
"""

from __future__ import annotations

from hypothesis import example, given
from hypothesis import strategies as st

from sbctune.inventory.log_sightings import again, stamps_of
from sbctune.inventory.parsers.dmesg import DmesgEvent
from sbctune.inventory.sightings import Fact, Sighting
from sbctune.inventory.wiphy_join import KINDS, WiphyWatch
from tests.unit.repeat_reference import plain_again

_CLOCKS = st.none() | st.floats(0, 1e6, allow_nan=False)


@st.composite
def _facts(draw: st.DrawFn) -> Fact:
    name = draw(
        st.sampled_from(
            ["link_event", "daemon_link_event", "enumeration", "link", "kernel_error",
             "usb_speed_mbps", "usb_reset"]
        )
    )  # fmt: skip
    if name in ("link_event", "daemon_link_event"):
        value: object = (draw(st.integers(1, 9)), draw(_CLOCKS), draw(st.booleans()))
    elif name == "enumeration":
        value = (draw(st.text(max_size=5)), draw(_CLOCKS))
    else:
        value = draw(st.one_of(st.booleans(), st.integers(), st.text(max_size=5)))
    return Fact(name, value, "dmesg", draw(st.text(max_size=8)), draw(st.integers(1, 9)))


@given(
    facts=st.lists(_facts(), max_size=6),
    repeats=st.lists(st.tuples(st.integers(10, 10**5), _CLOCKS), min_size=1, max_size=4),
)
def test_a_repeats_facts_from_stamps_are_fact_at_s(
    facts: list[Fact], repeats: list[tuple[int, float | None]]
) -> None:
    template = Sighting([("usb", "1-1")], facts)
    stamps = stamps_of(template)
    for no, clock in repeats:
        event = DmesgEvent("link_up", no, clock, "r8152 1-1:1.0 eth1: carrier on")
        made, plain = again(stamps, event), plain_again(template, event)
        assert made == plain
        assert [list(vars(f).items()) for f in made] == [list(vars(f).items()) for f in plain]
    assert template.facts == facts  # the template itself unchanged


_KIND = st.sampled_from(["wiphy", "usb_disconnect", "device", "driver_message", "link_up"])
_DEVICE = st.sampled_from(["", "1-1.4", "1-1.4:1.0", "0000:02:00.0", "10180000.wmac"])
_DRIVER = st.sampled_from(["", "usb", "rt2800usb", "ath9k", "r8169", "rt2800_wmac"])


@st.composite
def _events(draw: st.DrawFn) -> DmesgEvent:
    kind, device, driver = draw(_KIND), draw(_DEVICE), draw(_DRIVER)
    fields = {"device": device} if device else {}
    if driver:
        fields["driver"] = driver
    if kind == "wiphy":
        fields = {
            "device": "phy0",
            "message": "rt2x00_set_rt: Info - RT chipset 3070, rev 0201 detected",
        }
    return DmesgEvent(kind, draw(st.integers(1, 50)), draw(_CLOCKS), "a line", fields)


@given(before=st.lists(_events(), max_size=12), other=_events())
def test_the_wiphy_watcher_ignores_the_lines_it_is_not_passed(
    before: list[DmesgEvent], other: DmesgEvent
) -> None:
    watch = WiphyWatch()
    for event in before:
        watch.see(event)
    if other.kind in KINDS or other.fields.get("device"):
        return  # a line it reads
    last, by_driver = watch.last, dict(watch.by_driver)
    assert watch.see(other) is None
    assert watch.last is last and watch.by_driver == by_driver


# drivers past the watcher's cap of 64 kept, and lines it is never passed (ip_config's)
_MANY = st.integers(0, 80).map(lambda n: f"drv{n}")


@st.composite
def _log(draw: st.DrawFn) -> list[DmesgEvent]:
    events = draw(st.lists(_events(), max_size=40))
    for _ in range(draw(st.integers(0, 90))):  # runs of lines naming a device, many drivers
        at = draw(st.integers(0, len(events)))
        kind = draw(st.sampled_from(["device", "ip_config"]))
        fields = {"device": draw(_DEVICE) or "1-1", "driver": draw(_MANY | _DRIVER)}
        events.insert(at, DmesgEvent(kind, 7, draw(_CLOCKS), "a line", fields))
    return events


_WIPHY = DmesgEvent(
    "wiphy",
    99,
    None,
    "a line",
    {"device": "phy0", "message": "rt2x00_set_rt: Info - RT chipset 3070, rev 0201 detected"},
)


@given(events=_log())
@example(  # more drivers than the watcher keeps, then a wiphy line
    events=[
        DmesgEvent("device", n, None, "a line", {"device": "1-1", "driver": f"drv{n}"})
        for n in range(70)
    ]
    + [_WIPHY]
)
def test_the_wiphy_watchers_catch_up_gives_what_seeing_every_line_gave(
    events: list[DmesgEvent],
) -> None:
    """from_dmesg calls WiphyWatch.at on the watcher's KINDS only (a wiphy line, a USB
    disconnect): the lines naming a device before it are read then. Its chips, and what it
    keeps, are those of ``see`` on every line from_dmesg passed it (all but ip_config's)."""
    plain, caught_up = WiphyWatch(), WiphyWatch()
    seen, read = [], []
    for index, event in enumerate(events):
        if event.kind != "ip_config" and (event.kind in KINDS or event.fields.get("device")):
            seen.append(plain.see(event))
        if event.kind in KINDS:
            read.append(caught_up.at(events, index))
            assert caught_up.last is plain.last
            assert caught_up.by_driver == plain.by_driver
            assert list(caught_up.by_driver) == list(plain.by_driver)  # in the same order
    assert [s for s in seen if s is not None] == [s for s in read if s is not None]
