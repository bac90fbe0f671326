"""The Pi sampler's arithmetic: rates between two blocks (``delta``) and the summary of a run
(``summarize``, ``summarize_power``). ``sampler`` re-exports the public names."""

from __future__ import annotations

from collections.abc import Sequence

from sbctune.inventory.parsers.common import ParseWarning
from sbctune.inventory.parsers.procfs import CpuTimes
from sbctune.inventory.parsers.vcgencmd import throttle_events
from sbctune.measure.sampler_data import (
    CoreSummary,
    CpuLoad,
    PiSample,
    PowerReading,
    PowerSummary,
    RawSample,
    SamplerSummary,
)
from sbctune.measure.sampler_framing import SOURCE

_LOAD_FIELDS = ("user", "nice", "system", "irq", "softirq", "iowait", "steal", "idle")


def cpu_load(cpu: int, before: CpuTimes, after: CpuTimes) -> CpuLoad:
    """Shares of each state between two readings. Counters that go backwards (iowait does on
    some kernels) count as zero rather than as negative time."""
    ticks = {f: max(0, getattr(after, f) - getattr(before, f)) for f in _LOAD_FIELDS}
    total = sum(ticks.values())
    if total == 0:  # both readings within one clock tick: nothing measurable happened
        return CpuLoad(cpu, 0, 0, 0, 0, 0, 0, 0, 100.0, 0)
    pct = {f: 100.0 * n / total for f, n in ticks.items()}
    busy = 100.0 * (total - ticks["idle"] - ticks["iowait"]) / total
    return CpuLoad(cpu=cpu, busy=busy, **pct)


def _rates(before: Sequence[int], after: Sequence[int], seconds: float) -> list[float]:
    # A counter lower than before (CPU hot-plug, reset) gives 0, not a negative rate.
    return [max(0, b - a) / seconds for a, b in zip(before, after, strict=False)]


def _mbps(before: int | None, after: int | None, seconds: float) -> float | None:
    if before is None or after is None or after < before:
        return None
    return (after - before) * 8 / seconds / 1e6


def delta(
    before: RawSample, after: RawSample, t: float
) -> tuple[PiSample | None, list[ParseWarning]]:
    """The rates between two raw samples; `t` is the time to stamp the result with."""
    seconds = after.uptime - before.uptime
    if not seconds > 0:
        return None, [ParseWarning(SOURCE, "two samples with the same time; skipped")]
    warnings: list[ParseWarning] = []
    cpus = [
        cpu_load(n, before.cpus[n], after.cpus[n]) for n in sorted(after.cpus) if n in before.cpus
    ]
    rx = _mbps(before.rx_bytes, after.rx_bytes, seconds)
    tx = _mbps(before.tx_bytes, after.tx_bytes, seconds)
    counters_known = None not in (before.rx_bytes, after.rx_bytes, before.tx_bytes, after.tx_bytes)
    if counters_known and (rx is None or tx is None):
        warnings.append(ParseWarning(SOURCE, "the NIC's byte counters went backwards (reset?)"))
    irqs = (
        _rates(before.nic_irqs, after.nic_irqs, seconds)
        if before.nic_irqs is not None and after.nic_irqs is not None
        else []
    )
    sample = PiSample(
        t=t,
        interval=seconds,
        uptime=after.uptime,
        cpus=cpus,
        net_rx_softirq_per_s=_rates(before.net_rx, after.net_rx, seconds),
        net_tx_softirq_per_s=_rates(before.net_tx, after.net_tx, seconds),
        nic_irqs_per_s=irqs,
        rx_mbps=rx,
        tx_mbps=tx,
        power=after.power,
        lab_cpu=after.lab_cpu,
    )
    return sample, warnings


def summarize_power(samples: Sequence[PiSample], start: float | None = None) -> PowerSummary | None:
    readings = [s for s in samples if s.power != PowerReading()]
    if not readings:
        return None
    flags = [s for s in readings if s.power.throttled is not None]
    flagged = [s for s in flags if s.power.throttled]
    any_bits = 0
    for s in flags:
        any_bits |= s.power.throttled or 0
    origin = start if start is not None else samples[0].t - samples[0].interval
    temps = [s.power.temp_c for s in readings if s.power.temp_c is not None]
    clocks = [s.power.cpu_mhz for s in readings if s.power.cpu_mhz is not None]
    return PowerSummary(
        samples=len(flags),
        throttled_any=any_bits if flags else None,
        events=throttle_events(any_bits),
        first_event_s=max(0.0, flagged[0].t - origin) if flagged else None,
        flagged_samples=len(flagged),
        first_flags=flagged[0].power.throttled if flagged else None,
        max_temp_c=max(temps) if temps else None,
        min_cpu_mhz=min(clocks) if clocks else None,
        max_cpu_mhz=max(clocks) if clocks else None,
    )


# --------------------------------------------------------------------------- summary


def _weighted_mean(pairs: Sequence[tuple[float, float]]) -> float:
    weight = sum(w for _, w in pairs)
    return sum(v * w for v, w in pairs) / weight if weight > 0 else 0.0


def _at(values: Sequence[float], i: int) -> float:
    return values[i] if i < len(values) else 0.0


def _in_window(s: PiSample, start: float | None, end: float | None) -> bool:
    middle = s.t - s.interval / 2
    return (start is None or middle >= start) and (end is None or middle <= end)


def _core_summary(cpu: int, chosen: Sequence[PiSample]) -> CoreSummary:
    loads = [(s, c) for s in chosen for c in s.cpus if c.cpu == cpu]
    # /proc/softirqs and /proc/interrupts have one column per CPU number, in order.
    return CoreSummary(
        cpu=cpu,
        mean_busy=_weighted_mean([(c.busy, s.interval) for s, c in loads]),
        max_busy=max(c.busy for _, c in loads),
        mean_irq_softirq=_weighted_mean([(c.irq_softirq, s.interval) for s, c in loads]),
        max_irq_softirq=max(c.irq_softirq for _, c in loads),
        mean_net_rx_softirq_per_s=_weighted_mean(
            [(_at(s.net_rx_softirq_per_s, cpu), s.interval) for s, _ in loads]
        ),
        mean_net_tx_softirq_per_s=_weighted_mean(
            [(_at(s.net_tx_softirq_per_s, cpu), s.interval) for s, _ in loads]
        ),
        mean_nic_irqs_per_s=_weighted_mean(
            [(_at(s.nic_irqs_per_s, cpu), s.interval) for s, _ in loads]
        ),
    )


def _rate_summary(pairs: Sequence[tuple[float, float]]) -> tuple[float | None, float | None]:
    """(time-weighted mean, maximum) of (Mbit/s, interval) pairs; None, None without any."""
    if not pairs:
        return None, None
    return _weighted_mean(pairs), max(v for v, _ in pairs)


def summarize(
    samples: Sequence[PiSample], start: float | None = None, end: float | None = None
) -> SamplerSummary:
    """Means (weighted by each sample's interval) and maxima of the samples whose interval's
    midpoint lies in [start, end]: e.g. the non-omitted part of a test."""
    chosen = [s for s in samples if _in_window(s, start, end)]
    if not chosen:
        return SamplerSummary(samples=0, duration=0.0)
    cores = [_core_summary(cpu, chosen) for cpu in sorted({c.cpu for s in chosen for c in s.cpus})]
    rx = [(s.rx_mbps, s.interval) for s in chosen if s.rx_mbps is not None]
    tx = [(s.tx_mbps, s.interval) for s in chosen if s.tx_mbps is not None]
    mean_rx, max_rx = _rate_summary(rx)
    mean_tx, max_tx = _rate_summary(tx)
    return SamplerSummary(
        samples=len(chosen),
        duration=sum(s.interval for s in chosen),
        cores=cores,
        busiest_core=max(cores, key=lambda c: c.mean_busy).cpu if cores else None,
        busiest_irq_core=max(cores, key=lambda c: c.mean_irq_softirq).cpu if cores else None,
        mean_rx_mbps=mean_rx,
        mean_tx_mbps=mean_tx,
        max_rx_mbps=max_rx,
        max_tx_mbps=max_tx,
        power=summarize_power(chosen, start),
        lab_cpu=next((s.lab_cpu for s in reversed(chosen) if s.lab_cpu is not None), None),
    )
