"""The sampler's power line: the firmware's throttle flags, SoC temperature and CPU clock.

Formats: get_throttled is `sprintf(buf, "%x\\n", value)` in raspberrypi/linux
drivers/firmware/raspberrypi.c (so "50005", no 0x); thermal_zone0/temp is millidegrees; cpufreq
scaling_cur_freq is kHz. 0x50005 (under-voltage and throttled, now and occurred) and 0x80008
(soft temperature limit) are values the Raspberry Pi documentation's get_throttled table gives.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from sbctune.inventory.parsers.vcgencmd import throttle_events
from sbctune.measure.sampler import (
    CpuLoad,
    PiSample,
    PowerReading,
    parse_block,
    parse_power,
    summarize,
)

BLOCK = [
    "@@sbctune-sample 3 1234.56",
    "@@sbctune-stat",
    "cpu  100 0 50 800 0 5 20 0 0 0",
    "cpu0 100 0 50 800 0 5 20 0 0 0",
    "@@sbctune-softirqs",
    "                    CPU0",
    "      NET_TX:          3",
    "      NET_RX:        900",
    "@@sbctune-interrupts",
    "           CPU0",
    "@@sbctune-net 1000 2000",
]


def test_power_line_in_the_kernels_formats() -> None:
    reading, warnings = parse_power(["50005", "83224", "600000"])
    assert reading == PowerReading(throttled=0x50005, temp_c=83.224, cpu_mhz=600.0)
    assert warnings == []
    assert parse_power(["0", "-12500", "1500000"])[0] == PowerReading(0, -12.5, 1500.0)


def test_files_the_kernel_lacks_read_as_none_without_a_warning() -> None:
    assert parse_power(["-", "-", "-"]) == (PowerReading(), [])
    assert parse_power(["-", "48312", "-"]) == (PowerReading(None, 48.312, None), [])


def test_garbled_fields_are_dropped_with_a_warning() -> None:
    reading, warnings = parse_power(["zz", "4x", "0"])
    assert reading == PowerReading()
    assert len(warnings) == 3


def test_block_carries_the_power_reading() -> None:
    raw, warnings = parse_block([*BLOCK, "@@sbctune-power 50005 62500 1500000"], "eth0")
    assert raw is not None and warnings == []
    assert raw.power == PowerReading(0x50005, 62.5, 1500.0)
    old, _ = parse_block(BLOCK, "eth0")  # a Pi that printed no power line: nothing known
    assert old is not None and old.power == PowerReading()


def test_throttle_events_follow_the_documented_bits() -> None:
    assert throttle_events(0x50005) == ["under-voltage", "throttled"]
    assert throttle_events(0x80008) == ["soft temperature limit"]
    assert throttle_events(0x20000) == ["arm frequency capped"]  # occurred only
    assert throttle_events(0) == []


def _sample(t: float, power: PowerReading) -> PiSample:
    idle = CpuLoad(0, 0, 0, 0, 0, 0, 0, 0, 100.0, 0)
    return PiSample(t, 0.5, t, [idle], [0.0], [0.0], [], None, None, power)


def test_summary_reports_what_was_seen_when_and_how_hot() -> None:
    samples = [
        _sample(10.0, PowerReading(0, 55.0, 1500.0)),
        _sample(10.5, PowerReading(0, 61.0, 1500.0)),
        _sample(11.0, PowerReading(0x50005, 83.5, 600.0)),
        _sample(11.5, PowerReading(0x50000, 80.1, 1000.0)),
        _sample(20.0, PowerReading(0x80008, 90.0, 300.0)),  # after the window
    ]
    power = summarize(samples, start=9.5, end=12.0).power
    assert power is not None
    assert power.events == ["under-voltage", "throttled"]
    assert power.throttled_any == 0x50005 and power.first_flags == 0x50005
    assert power.first_event_s == 1.5 and power.flagged_samples == 2 and power.samples == 4
    assert power.max_temp_c == 83.5
    assert (power.min_cpu_mhz, power.max_cpu_mhz) == (600.0, 1500.0)
    assert summarize(samples, start=9.5, end=12.0).to_json()["power"]["events"] == power.events


def test_summary_of_a_healthy_pi_and_of_one_without_readings() -> None:
    healthy = summarize([_sample(1.0, PowerReading(0, 50.0, 1500.0))]).power
    assert healthy is not None and healthy.events == [] and healthy.first_event_s is None
    assert summarize([_sample(1.0, PowerReading())]).power is None


_WORD = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=20).filter(
    lambda w: w.strip() == w and w != "" and " " not in w
)


@given(st.lists(st.text(max_size=30), max_size=6))
def test_power_fields_survive_garbage(fields: list[str]) -> None:
    reading, _ = parse_power(fields)
    assert reading.throttled is None or 0 <= reading.throttled <= 0xFFFFFFFF


@given(st.lists(_WORD | st.sampled_from(["-", "0x50005", "ffffffff", "-0", "99999999999"])))
def test_block_with_garbage_power_line_never_raises(words: list[str]) -> None:
    raw, _ = parse_block([*BLOCK, "@@sbctune-power " + " ".join(words)], "eth0")
    assert raw is not None  # the CPU figures still count
