"""The Inventory: the board and its NICs, with exactly the keys of DESIGN.md contract 2.

Unknown facts are None ("unknown"), never guessed. `to_json()` gives the contract's object;
extra keys are allowed by the contract and used for what the GUI shows besides.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from sbctune.inventory.plain_data import as_plain

Bus = Literal["usb", "pci", "platform", "sdio", "unknown"]
Severity = Literal["info", "warning", "problem"]
RecommendationKind = Literal["tweak", "driver", "adapter", "setting", "cable", "power", "board"]


@dataclass
class Throttled:
    """`vcgencmd get_throttled`, decoded (now and since boot)."""

    raw: str
    under_voltage: bool = False
    frequency_capped: bool = False
    throttled: bool = False
    soft_temp_limit: bool = False
    under_voltage_occurred: bool = False
    frequency_capped_occurred: bool = False
    throttled_occurred: bool = False
    soft_temp_limit_occurred: bool = False

    @property
    def any_now(self) -> bool:
        return self.under_voltage or self.frequency_capped or self.throttled or self.soft_temp_limit

    @property
    def any_since_boot(self) -> bool:
        return (
            self.under_voltage_occurred
            or self.frequency_capped_occurred
            or self.throttled_occurred
            or self.soft_temp_limit_occurred
        )


@dataclass
class Board:
    model: str | None = None
    soc: str | None = None
    kernel: str | None = None
    os: str | None = None
    cpu_cores: int | None = None
    cpu_cores_source: str | None = None  # what gave the count (read, or the catalogue's)
    throttled: Throttled | None = None
    catalog_id: str | None = None  # the catalog's board entry, when recognised
    temperature_c: float | None = None
    arm_clock_hz: int | None = None
    cpu_governors: list[str] = field(default_factory=list)
    soc_source: str | None = None  # what says which SoC it is, when not the catalog
    soc_nic: str | None = None  # the SoC's own Ethernet MAC, when the catalog knows it
    # "PREEMPT_RT" where uname -v says the kernel threads every interrupt handler (kernel_build)
    irq_threads: str | None = None


@dataclass
class Pcie:
    speed_gts: float | None = None
    width: int | None = None
    max_speed_gts: float | None = None
    max_width: int | None = None
    downgraded: bool = False
    max_payload: int | None = None
    max_read_request: int | None = None
    evidence: list[str] = field(default_factory=list)  # the lines that said the link


@dataclass
class Nic:
    name: str | None  # interface name; None for a device with no netdev (no driver bound)
    driver: str | None = None
    driver_version: str | None = None
    bus: Bus = "unknown"
    chip: str | None = None
    ids: str | None = None
    usb_speed_mbps: int | None = None
    pcie: Pcie | None = None
    link_speed_mbps: int | None = None
    duplex: str | None = None
    builtin: bool = False
    irqs: list[int] = field(default_factory=list)
    # Beyond the contract:
    # Those of `irqs` the kernel cannot move to another CPU (their interrupt chip has no way to
    # steer them), and why, with the kernel source (inventory/irq_chips.py): Inspect and the
    # tuning planner both read this.
    fixed_irqs: list[int] = field(default_factory=list)
    fixed_irqs_why: str | None = None
    wireless: bool = False
    bus_path: str | None = None  # USB path like "2-2" or PCI address like "0000:01:00.0"
    firmware: str | None = None
    max_link_speed_mbps: int | None = None  # the fastest mode the NIC supports
    partner_max_mbps: int | None = None  # the fastest mode the other end advertised (linked)
    link_detected: bool | None = None
    # The driver writes no duplex (cdc_ncm, cdc_ether: advice/static_duplex.py), so `duplex`
    # is the kernel's zeroed placeholder ("half"), kept as read; the words say "duplex not
    # reported by the driver" instead of "half duplex" (walk 24). Set by the advice that
    # gives the finding `duplex-not-reported`, so words and finding never disagree.
    duplex_not_reported: bool = False
    # Set down (its flags lack "UP": `ip link set eth1 down`, or never brought up): no link
    # because nothing opened it, not a cable; said so with how to bring it up (walk 22)
    set_down: bool = False
    # The speed its link last came up at, kept when the link is down now (link_speed_mbps is
    # then None): a gigabit PHY that only ever linked at 100 Mbit/s before it dropped.
    linked_at_mbps: int | None = None
    # A DSA switch's user port (inventory/switch_ports.py): its frames pass through the
    # switch's CPU port and the conduit, the interface its driver stacks it on (``lan1@eth0``),
    # when a listing shows it: the conduit's link, interrupts and queues carry its traffic.
    switch_port: bool = False
    conduit: str | None = None
    mtu: int | None = None
    addresses: list[str] = field(default_factory=list)
    rx_queues: int | None = None
    tx_queues: int | None = None
    catalog_id: str | None = None
    evidence: list[str] = field(default_factory=list)  # how it was identified
    # For a PCI NIC with no interface: "none" (no driver bound), "unknown" (the outputs do not say)
    driver_state: str | None = None
    # Kernel log lines about this NIC, by kind ("phy_failure", "usb_reset" ...): the first few
    # lines as evidence, and how many there were.
    log: dict[str, list[str]] = field(default_factory=dict)
    log_counts: dict[str, int] = field(default_factory=dict)
    link_downs: int = 0  # "Link is Down" lines (flapping when several)
    link_span_s: float | None = None  # seconds from the first to the last link change
    usb_version: str | None = None  # bcdUSB, when shown
    phy: str | None = None  # the PHY driver the log names: "RTL8211F Gigabit Ethernet"
    # Where no line names the chip and its driver drives several (ixgbe, mlx5_core): one of
    # the driver's family, in the kernel's words (catalog.driver_families); never a chip.
    chip_family: str | None = None
    # Interface counters (ip -s link, ifconfig): rx_packets, rx_errors, rx_dropped, tx_...
    counters: dict[str, int] = field(default_factory=dict)
    # The driver's own non-zero counters (ethtool -S), by the name it prints
    ethtool_stats: dict[str, int] = field(default_factory=dict)
    # Energy-Efficient Ethernet as `ethtool --show-eee` showed it (supported, enabled, active,
    # tx_lpi, tx_lpi_us; None where not shown); None when no --show-eee was read
    eee: dict[str, bool | int | None] | None = None
    # What `ethtool -T` showed the NIC can timestamp (phc: the PTP hardware clock's index or
    # None, hardware_transmit/receive, software_transmit, tx_modes, rx_filters); None unread
    timestamping: dict[str, object] | None = None
    mac: str | None = None
    # The USB device's own product string (the USB core's "Product:" line, lsusb -v iProduct,
    # lshw): what a class driver's device says it is ("MBIM + 3 CDC-ACM": a modem's function)
    usb_product: str | None = None
    # usb_speed_mbps is a floor, not the speed: the device is on a SuperSpeed bus of plain
    # lsusb (root hub 1d6b:0003), 5000 Mbit/s or more (a USB 3.1 Gen 2 bus has the same hub)
    usb_speed_at_least: bool = False


@dataclass
class Finding:
    id: str
    severity: Severity
    nic: str | None
    summary: str
    evidence: list[str] = field(default_factory=list)


@dataclass
class Recommendation:
    kind: RecommendationKind
    nic: str | None
    title: str
    detail: str
    expected_gain: str
    sources: list[str] = field(default_factory=list)
    # Beyond the contract (sbctune.advice ranks by these; None: not known in Mbit/s):
    gain_low_mbps: float | None = None
    gain_high_mbps: float | None = None
    evidence: list[str] = field(default_factory=list)  # the figures the advice rests on
    tweak_ids: list[str] = field(default_factory=list)  # sbctune.tuning ids (kind "tweak")
    steps: list[str] = field(default_factory=list)  # commands or actions, in order


@dataclass
class Inventory:
    board: Board = field(default_factory=Board)
    nics: list[Nic] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    recommendations: list[Recommendation] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)  # outputs that could not be read
    missing_tools: list[str] = field(default_factory=list)

    def nic(self, name: str) -> Nic | None:
        return next((n for n in self.nics if n.name == name), None)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = as_plain(self)  # asdict(self), faster (plain_data)
        throttled = self.board.throttled
        if throttled is not None:
            data["board"]["throttled"]["any_now"] = throttled.any_now
            data["board"]["throttled"]["any_since_boot"] = throttled.any_since_boot
        return data
