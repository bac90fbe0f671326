"""The Pi sampler's records: one parsed block, one sample as rates, and their summaries
(``sampler`` re-exports them)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from sbctune.inventory.parsers.procfs import (
    CpuTimes,
)


@dataclass(frozen=True)
class PowerReading:
    """One reading of the Pi's power and thermal state; None: the kernel does not show it."""

    throttled: int | None = None  # get_throttled's bits (see throttle_events)
    temp_c: float | None = None  # thermal_zone0 (the SoC)
    cpu_mhz: float | None = None  # cpu0's scaling_cur_freq


@dataclass(frozen=True)
class LabCpu:
    """The virtual Pi lab's word that its per-core CPU is this host's, not the Pi's: the lab
    is namespaces on the host, and /proc/stat is not namespaced, so its counters are the host's
    real ones (`host_cpus` cores) while the profile's Pi has `pi_cpus` (None: not known). Read
    from the marker the lab writes (`/etc/sbctune-lab-cpu`, sbctune.lab.nsinit); a real Pi has
    none. Only labels change: the figures stay the host's real counters, never made up."""

    host_cpus: int
    pi_cpus: int | None = None

    @property
    def heading(self) -> str:
        """The CPU chart's title in the lab."""
        cores = f"{self.host_cpus} core{'' if self.host_cpus == 1 else 's'}"
        pi = f", not the Pi's {self.pi_cpus}" if self.pi_cpus else ", not the Pi's"
        return f"Lab host CPU, {cores} (this computer's{pi})"

    @property
    def note(self) -> str:
        return (
            "This is the virtual Pi lab: it runs on this computer, so the load shown is this "
            "computer's, read from its real counters. A real Pi shows its own cores here."
        )


@dataclass(frozen=True)
class RawSample:
    """One block as the Pi printed it, parsed: counters since boot, not rates yet."""

    seq: int
    uptime: float
    cpus: dict[int, CpuTimes]
    net_rx: list[int]  # NET_RX softirqs per CPU
    net_tx: list[int]
    nic_irqs: list[int] | None  # per CPU, summed over the NIC's lines; None: no line found
    rx_bytes: int | None  # None: the Pi has no counters for the interface
    tx_bytes: int | None
    power: PowerReading = field(default_factory=PowerReading)
    # The watched files' first lines, in the order asked (None: not printed with this sample:
    # the loop prints them only when one changed).
    tuning: tuple[str, ...] | None = None
    lab_cpu: LabCpu | None = None  # the lab's marker: these CPU counters are the lab host's


@dataclass(frozen=True)
class CpuLoad:
    """Shares (percent) of one core's time over one sample interval."""

    cpu: int
    user: float
    nice: float
    system: float
    irq: float
    softirq: float
    iowait: float
    steal: float
    idle: float
    busy: float  # everything but idle and iowait

    @property
    def irq_softirq(self) -> float:
        return self.irq + self.softirq


@dataclass(frozen=True)
class PiSample:
    """What happened on the Pi between two raw samples.

    `t` is on this computer's `time.monotonic()` clock (so it lines up with iperf3 intervals
    received here): the first sample's arrival plus the Pi's own uptime since then, which keeps
    the Pi's precise spacing. The sample covers (`t - interval`, `t`].
    """

    t: float
    interval: float
    uptime: float
    cpus: list[CpuLoad]
    net_rx_softirq_per_s: list[float]
    net_tx_softirq_per_s: list[float]
    nic_irqs_per_s: list[float]  # empty when no interrupt line matched the NIC
    rx_mbps: float | None
    tx_mbps: float | None
    power: PowerReading = field(default_factory=PowerReading)  # at the end (`t`)
    lab_cpu: LabCpu | None = None  # the lab's marker: `cpus` are the lab host's cores

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class CoreSummary:
    cpu: int
    mean_busy: float
    max_busy: float
    mean_irq_softirq: float
    max_irq_softirq: float
    mean_net_rx_softirq_per_s: float
    mean_net_tx_softirq_per_s: float
    mean_nic_irqs_per_s: float


@dataclass(frozen=True)
class SamplerSummary:
    """Time-weighted means and maxima over a window of samples."""

    samples: int
    duration: float
    cores: list[CoreSummary] = field(default_factory=list)
    busiest_core: int | None = None  # highest mean busy share
    busiest_irq_core: int | None = None  # highest mean irq+softirq share (network bottleneck)
    mean_rx_mbps: float | None = None
    mean_tx_mbps: float | None = None
    max_rx_mbps: float | None = None
    max_tx_mbps: float | None = None
    power: PowerSummary | None = None  # None: no sample had any power reading
    # The lab's marker (LabCpu): `cores` are the lab host's, not the Pi's; kept with the run so
    # that nothing later (advice) reads them as the Pi's
    lab_cpu: LabCpu | None = None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


# get_throttled bits (Raspberry Pi documentation, `vcgencmd get_throttled`): 0-3 hold now, 16-19
# "has occurred" (see throttle_events). The firmware clears the "occurred" bits when the kernel
# asks with 0xffff, which raspberrypi/linux's hwmon driver does every 2 s
# (drivers/hwmon/raspberrypi-hwmon.c, get_values_poll), so in the sysfs value they mean "within
# the last poll", not "since boot": any bit seen during a window happened around that window.


@dataclass(frozen=True)
class PowerSummary:
    """The Pi's power and thermal state over a window (e.g. one test)."""

    samples: int  # samples with a get_throttled reading
    throttled_any: int | None = None  # every bit seen set (OR of all readings)
    events: list[str] = field(default_factory=list)  # throttle_events(throttled_any)
    first_event_s: float | None = None  # seconds from the window's start to the first flag
    flagged_samples: int = 0  # readings with any flag set
    first_flags: int | None = None  # the first flagged reading, as the Pi printed it
    max_temp_c: float | None = None
    min_cpu_mhz: float | None = None
    max_cpu_mhz: float | None = None

    @property
    def under_voltage(self) -> bool:
        return "under-voltage" in self.events
