"""The Pi sampler without a Pi: framing, parsing and the delta math on real captures.

Two-sample deltas are built from one real capture plus the same capture with some counters
increased by the test (the `bump_*` helpers below): a capture is a single reading, and the
increases are chosen so the expected rates are easy to check by hand.
"""

from __future__ import annotations

import math
import re
import subprocess
import sys
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sbctune.inventory.parsers.procfs import CpuTimes
from sbctune.measure.sampler import (
    SCRIPT,
    CpuLoad,
    PiSample,
    PiSampler,
    SampleFramer,
    SamplerError,
    cpu_load,
    delta,
    interrupts_pattern,
    parse_block,
    summarize,
)

CAPTURES = Path(__file__).resolve().parents[1] / "captures"
STAT = (CAPTURES / "dev_vm" / "proc_stat.txt").read_text(encoding="utf-8")  # 2 CPUs
SOFTIRQS = (CAPTURES / "dev_vm" / "proc_softirqs.txt").read_text(encoding="utf-8")  # 2 CPUs
INTERRUPTS = (CAPTURES / "proc_interrupts" / "seed000_pi4_alpine.txt").read_text(
    encoding="utf-8"
)  # 4 CPUs


# --------------------------------------------------------------------------- helpers


def bump_stat(text: str, cpu: int, **ticks: int) -> str:
    """The capture with cpuN's fields (user, nice, system, idle, ...) increased."""
    order = ["user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal"]
    out = []
    for line in text.splitlines():
        parts = line.split()
        if parts and parts[0] == f"cpu{cpu}":
            nums = [int(x) for x in parts[1:]]
            for name, add in ticks.items():
                nums[order.index(name)] += add
            line = " ".join([parts[0], *map(str, nums)])
        out.append(line)
    return "\n".join(out)


def bump_row(text: str, key: str, adds: Sequence[int]) -> str:
    """The capture with the per-CPU counts of row `key` ("NET_RX", "46") increased."""
    out = []
    for line in text.splitlines():
        m = re.match(r"^(\s*)(\S+):(.*)$", line)
        if m and m.group(2) == key:
            tokens = m.group(3).split()
            for i, add in enumerate(adds):
                tokens[i] = str(int(tokens[i]) + add)
            line = f"{m.group(1)}{key}: " + " ".join(tokens)
        out.append(line)
    return "\n".join(out)


def block(
    seq: int,
    uptime: float,
    stat: str = STAT,
    softirqs: str = SOFTIRQS,
    interrupts: str = INTERRUPTS,
    rx: int | None = 1000,
    tx: int | None = 2000,
) -> list[str]:
    """Lines framed as the sampler's sh loop prints them (between the sample and end marks)."""
    net = " ".join(str(n) for n in (rx, tx) if n is not None)
    return [
        f"@@sbctune-sample {seq} {uptime}",
        "@@sbctune-stat",
        *stat.splitlines(),
        "@@sbctune-softirqs",
        *softirqs.splitlines(),
        "@@sbctune-interrupts",
        *interrupts.splitlines(),
        f"@@sbctune-net {net}",
    ]


def sample(t: float, busy: Sequence[float], interval: float = 0.5, rx: float = 0.0) -> PiSample:
    cpus = [
        CpuLoad(i, b, 0, 0, 0, b / 2, 0, 0, 100 - b, b) for i, b in enumerate(busy)
    ]  # half of each core's busy share is softirq
    zeros = [0.0] * len(busy)
    return PiSample(t, interval, t, cpus, zeros, zeros, zeros, rx, 0.0)


# --------------------------------------------------------------------------- parsing


def test_block_of_real_captures_parses() -> None:
    raw, warnings = parse_block(block(0, 100.0), "eth1", [46])
    assert warnings == []
    assert raw is not None
    assert sorted(raw.cpus) == [0, 1]
    assert raw.cpus[1] == CpuTimes(3247, 0, 1503, 38498, 322, 0, 121, 6)
    assert raw.net_rx == [100407, 128425]
    assert raw.net_tx == [5, 1317]
    assert raw.nic_irqs == [668625, 0, 0, 0]  # the shared xhci_hcd line of the USB NIC
    assert (raw.rx_bytes, raw.tx_bytes) == (1000, 2000)


def test_nic_lines_by_name_are_summed_and_similar_names_are_not() -> None:
    raw, _ = parse_block(block(0, 1.0), "eth0")
    assert raw is not None
    assert raw.nic_irqs == [780 + 11, 313196, 4358, 0]  # IRQs 38 and 39, both "eth0"
    raw, _ = parse_block(block(0, 1.0), "eth")
    assert raw is not None and raw.nic_irqs is None


def test_no_interrupt_line_is_unknown_without_a_warning() -> None:
    header = INTERRUPTS.splitlines()[0]
    raw, warnings = parse_block(block(0, 1.0, interrupts=header), "eth1", [])
    assert raw is not None and raw.nic_irqs is None
    assert warnings == []


def test_missing_byte_counters_warn_and_stay_unknown() -> None:
    raw, warnings = parse_block(block(0, 1.0, rx=None, tx=None), "eth9")
    assert raw is not None and raw.rx_bytes is None
    assert any("no byte counters for eth9" in w.message for w in warnings)


def test_pattern_for_the_pis_grep_keeps_what_python_needs() -> None:
    # The pattern is an ERE; this simple subset means the same in Python's re.
    kept = [ln for ln in INTERRUPTS.splitlines() if re.search(interrupts_pattern("eth0", [46]), ln)]
    assert [ln.split(":")[0].strip() for ln in kept[1:]] == ["38", "39", "46"]
    assert "CPU0" in kept[0]
    assert re.search(interrupts_pattern("eth1", []), " 38:  1  GICv2 189 Level     eth10") is None
    assert re.search(interrupts_pattern("e.x", []), "  GICv2 1 Level   eXx") is None


# --------------------------------------------------------------------------- delta math


def test_cpu_shares_from_two_readings() -> None:
    before = parse_block(block(0, 10.0), "eth1")[0]
    after_stat = bump_stat(STAT, 0, user=50, softirq=20, irq=5, idle=25)
    after = parse_block(block(1, 11.0, stat=after_stat), "eth1")[0]
    assert before and after
    got, warnings = delta(before, after, t=5.0)
    assert warnings == [] and got is not None
    cpu0, cpu1 = got.cpus
    assert (cpu0.user, cpu0.softirq, cpu0.irq, cpu0.idle) == (50.0, 20.0, 5.0, 25.0)
    assert cpu0.busy == 75.0 and cpu0.irq_softirq == 25.0
    assert cpu1.idle == 100.0 and cpu1.busy == 0.0  # no tick moved: idle, not a division by 0
    assert (got.t, got.interval, got.uptime) == (5.0, 1.0, 11.0)


def test_softirq_interrupt_and_byte_rates() -> None:
    before = parse_block(block(0, 20.0, rx=10**9, tx=5 * 10**8), "eth1", [46])[0]
    after = parse_block(
        block(
            1,
            20.5,
            stat=bump_stat(STAT, 1, softirq=50),
            softirqs=bump_row(bump_row(SOFTIRQS, "NET_RX", [0, 1000]), "NET_TX", [10, 0]),
            interrupts=bump_row(INTERRUPTS, "46", [4000, 0, 0, 2]),
            rx=10**9 + 62_500_000,  # 500 Mbit in 0.5 s
            tx=5 * 10**8 + 6_250_000,
        ),
        "eth1",
        [46],
    )[0]
    assert before and after
    got, _ = delta(before, after, t=1.0)
    assert got is not None
    assert got.net_rx_softirq_per_s == [0.0, 2000.0]
    assert got.net_tx_softirq_per_s == [20.0, 0.0]
    assert got.nic_irqs_per_s == [8000.0, 0.0, 0.0, 4.0]
    assert got.rx_mbps == pytest.approx(1000.0)
    assert got.tx_mbps == pytest.approx(100.0)
    assert got.cpus[1].softirq == 100.0


def test_counters_going_backwards_never_give_negative_rates() -> None:
    before = parse_block(block(0, 1.0, rx=5000, tx=5000), "eth1", [46])[0]
    after = parse_block(
        block(
            1,
            2.0,
            stat=bump_stat(STAT, 0, iowait=-50, user=10),
            softirqs=bump_row(SOFTIRQS, "NET_RX", [-100, 0]),
            rx=10,
            tx=6000,
        ),
        "eth1",
        [46],
    )[0]
    assert before and after
    got, warnings = delta(before, after, t=1.0)
    assert got is not None
    assert got.cpus[0].user == 100.0 and got.cpus[0].iowait == 0.0
    assert got.net_rx_softirq_per_s[0] == 0.0
    assert got.rx_mbps is None and got.tx_mbps is not None
    assert any("backwards" in w.message for w in warnings)


def test_same_timestamp_is_skipped_with_a_warning() -> None:
    raw = parse_block(block(0, 3.0), "eth1")[0]
    assert raw is not None
    got, warnings = delta(raw, raw, t=0.0)
    assert got is None and warnings


def test_cpu_load_shares_sum_to_100() -> None:
    load = cpu_load(0, CpuTimes(1, 2, 3, 4, 5, 6, 7, 8), CpuTimes(11, 13, 17, 19, 23, 29, 31, 37))
    shares = [load.user, load.nice, load.system, load.irq, load.softirq]
    total = sum(shares) + load.iowait + load.steal + load.idle
    assert total == pytest.approx(100.0)
    assert load.busy == pytest.approx(100.0 - load.idle - load.iowait)


# --------------------------------------------------------------------------- summary


def test_summary_window_means_maxima_and_busiest_core() -> None:
    samples = [
        sample(1.0, [10, 10]),  # before the window (omitted seconds)
        sample(1.5, [20, 80], rx=100.0),
        sample(2.0, [40, 60], rx=300.0),
        sample(3.0, [0, 100], interval=1.0, rx=600.0),
        sample(3.5, [90, 90]),  # after the window
    ]
    got = summarize(samples, start=1.1, end=2.9)
    assert got.samples == 3 and got.duration == 2.0
    core0, core1 = got.cores
    # weighted by interval: (20*.5 + 40*.5 + 0*1) / 2
    assert core0.mean_busy == pytest.approx(15.0) and core0.max_busy == 40
    assert core1.mean_busy == pytest.approx(85.0) and core1.max_irq_softirq == 50
    assert got.busiest_core == 1 and got.busiest_irq_core == 1
    assert got.mean_rx_mbps == pytest.approx((50 + 150 + 600) / 2)
    assert got.max_rx_mbps == 600.0


def test_summary_of_nothing_is_empty() -> None:
    got = summarize([], None, None)
    assert got.samples == 0 and got.busiest_core is None and got.mean_rx_mbps is None


# --------------------------------------------------------------------------- framing


def test_framer_cuts_blocks_and_reports_stray_or_cut_output() -> None:
    framer = SampleFramer()
    assert framer.feed("stray line")[1]
    lines = block(0, 1.0)
    for line in lines:
        assert framer.feed(line) == (None, [])
    done, warnings = framer.feed("@@sbctune-end 0")
    assert done == lines and warnings == []
    framer.feed("@@sbctune-sample 1 2.0")
    done, warnings = framer.feed("@@sbctune-sample 2 2.5")
    assert done is None and "cut short" in warnings[0].message


garbage_lines = st.lists(
    st.one_of(
        st.text(max_size=60),
        st.sampled_from(
            [
                "@@sbctune-sample",
                "@@sbctune-sample x y",
                "@@sbctune-sample 1 nan",
                "@@sbctune-sample 1 -5",
                "@@sbctune-stat",
                "@@sbctune-net",
                "@@sbctune-net 1 x",
                "@@sbctune-interrupts",
                "@@sbctune-",
                "cpu0 1 2",
                "cpu99999 1 2 3 4 5 6 7 8",
                " 46: 1 2 x",
                "NET_RX: 1 2 3",
                "           CPU0       CPU1",
            ]
        ),
    ),
    max_size=30,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(garbage_lines)
def test_garbage_block_gives_a_warning_not_a_crash(lines: list[str]) -> None:
    raw, warnings = parse_block(lines, "eth1", [46])
    if raw is None:
        assert warnings


@settings(max_examples=100, deadline=None)
@given(garbage_lines, st.integers(min_value=1, max_value=40))
def test_garbage_inside_a_real_block_never_crashes(lines: list[str], where: int) -> None:
    real = block(0, 7.0)
    mixed = real[:where] + lines + real[where:]
    raw, warnings = parse_block(mixed, "eth1", [46])
    if raw is None:
        assert warnings
    before = parse_block(block(0, 6.0), "eth1", [46])[0]
    assert before is not None
    if raw is not None:
        delta(before, raw, t=0.0)  # must not raise either


@settings(max_examples=100, deadline=None)
@given(garbage_lines)
def test_framer_never_crashes(lines: list[str]) -> None:
    framer = SampleFramer()
    for line in [*lines, "@@sbctune-end"]:
        done, _ = framer.feed(line)
        if done is not None:
            parse_block(done, "eth1")


# --------------------------------------------------------------------------- the runner


class FakeProcess:
    """Stands in for RemoteProcess: replays lines, records the cancel."""

    def __init__(self, lines: list[str]) -> None:
        self._lines = lines
        self.cancelled = False

    async def lines(self) -> AsyncIterator[str]:
        for line in self._lines:
            yield line

    async def read_stderr(self) -> str:
        return ""

    async def wait(self) -> int:
        return 0

    async def cancel(self) -> None:
        self.cancelled = True


class FakeSession:
    def __init__(self, lines: list[str]) -> None:
        self.process = FakeProcess(lines)
        self.argv: list[str] = []

    async def start(self, argv: list[str]) -> FakeProcess:
        self.argv = argv
        return self.process


async def test_runner_turns_the_stream_into_live_samples() -> None:
    stream: list[str] = []
    stream += ["garbage before the first sample"]
    for i in range(3):
        stat = bump_stat(STAT, 0, user=25 * i, idle=25 * i)
        stream += [*block(i, 100.0 + i / 2, stat=stat, rx=None, tx=None), f"@@sbctune-end {i}"]
    session = FakeSession(stream)
    seen: list[PiSample] = []
    clock = iter([50.0, 99.0, 99.0])
    sampler = PiSampler(session, "eth1", [46], on_sample=seen.append, clock=lambda: next(clock))  # type: ignore[arg-type]
    async with sampler:
        await sampler.wait()
    assert session.argv[:2] == ["sh", "-c"] and session.argv[4] == "eth1"
    assert session.process.cancelled
    assert seen == sampler.samples and len(seen) == 2
    # t: the first arrival (50.0) plus the Pi's own uptime since then.
    assert [s.t for s in seen] == [50.5, 51.0]
    assert seen[0].cpus[0].busy == 50.0
    messages = [w.message for w in sampler.warnings]
    assert len(messages) == len(set(messages)) == 2  # stray line + missing counters, once each
    assert sampler.summary().samples == 2


@pytest.mark.parametrize(
    "iface", ["", "eth0; reboot", "$(id)", "a" * 16, "eth0\n", "-e", "eth 0", "ä"]
)
def test_bad_interface_names_are_refused(iface: str) -> None:
    if iface == "-e":  # a valid name by the kernel's rules: it only ever travels as argv
        PiSampler(FakeSession([]), iface)  # type: ignore[arg-type]
        return
    with pytest.raises(SamplerError):
        PiSampler(FakeSession([]), iface)  # type: ignore[arg-type]


@pytest.mark.parametrize("interval", [0.0, 0.05, 1.5, math.nan])
def test_interval_must_give_a_sample_a_second(interval: float) -> None:
    with pytest.raises(SamplerError):
        PiSampler(FakeSession([]), "eth0", interval=interval)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- the sh loop

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs /proc")


@pytest.mark.posix_only("runs the sampler's loop with /bin/sh over /proc")
@linux_only
def test_loop_stops_after_its_sample_limit() -> None:
    argv = ["sh", "-c", SCRIPT, "sh", "lo", "0.100", "3", "30", interrupts_pattern("lo", [])]
    out = subprocess.run(argv, capture_output=True, text=True, timeout=10)
    assert out.returncode == 0
    assert out.stdout.count("@@sbctune-sample ") == 3 == out.stdout.count("@@sbctune-end ")
    raw, warnings = parse_block(out.stdout.split("@@sbctune-end")[0].splitlines(), "lo")
    assert raw is not None and raw.rx_bytes is not None, warnings


@pytest.mark.posix_only("runs the sampler's loop with /bin/sh over /proc")
@linux_only
def test_loop_stops_at_its_time_limit() -> None:
    # 100 000 samples allowed, 1 s: a loop that ignored its time limit would still run at the
    # time-out (TimeoutExpired). The mechanism, not a stopwatch (a busy machine is slower):
    # every sample it printed was taken before its deadline (the whole second of /proc/uptime
    # after it started, so the same whole second as the first), at most one per 0.2 s.
    argv = ["sh", "-c", SCRIPT, "sh", "lo", "0.200", "100000", "1", "^ *CPU[0-9]"]
    out = subprocess.run(argv, capture_output=True, text=True, timeout=10)
    assert out.returncode == 0, out.stderr
    stamps = [float(line.split()[2]) for line in out.stdout.splitlines()
              if line.startswith("@@sbctune-sample ")]  # fmt: skip
    assert 1 <= len(stamps) <= 6, stamps
    assert all(int(s) == int(stamps[0]) for s in stamps), stamps
