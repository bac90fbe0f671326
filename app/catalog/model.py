"""Typed records of the hardware catalog (chips, boards, buses, sources).

Every number in these records came from a data file in ``resources/catalog/`` and carries the id
of the source it was taken from; ``Catalog.source(id)`` turns that id into a citation.
"""

from __future__ import annotations

from dataclasses import dataclass

# Allowed values of the enumerated fields, shared with the loader's validation.
SOURCE_KINDS = frozenset({"seed", "url", "kernel", "derived"})
CHIP_KINDS = frozenset(
    {"nic", "usb-host-controller", "pcie-root-port", "usb-root-hub", "io-controller"}
)
CHIP_BUSES = frozenset({"usb", "pci", "platform"})
DIRECTIONS = frozenset({"pi_to_peer", "peer_to_pi", "aggregate", "bidirectional_total"})
TESTS = frozenset(
    {"half_duplex", "full_duplex", "full_duplex_peer_throttled", "single_port", "multi_port"}
)
MEASUREMENT_KINDS = frozenset({"measured", "vendor_stated"})
SEVERITIES = frozenset({"info", "warning", "problem"})
BUS_KINDS = frozenset({"usb", "pcie"})


@dataclass(frozen=True)
class Source:
    """Where a figure or fact comes from: a seed file, a public URL, a kernel path or arithmetic."""

    id: str
    kind: str
    title: str
    url: str | None = None
    file: str | None = None
    path: str | None = None

    @property
    def citation(self) -> str:
        """A one-line reference a user can follow (URL or kernel path). A seed write-up is a
        public post known here by an internal file name: it is described in words."""
        where = self.url or self.path
        if where:
            return f"{self.title} ({where})"
        return f"{self.title} (public write-up)" if self.kind == "seed" else self.title


@dataclass(frozen=True)
class Note:
    text: str
    source: str


@dataclass(frozen=True)
class Problem:
    """A known problem of a chip or bus, e.g. a driver that binds badly or a refused IRQ knob."""

    id: str
    severity: str
    summary: str
    source: str


@dataclass(frozen=True)
class Measurement:
    """One throughput figure of a chip on a named board (TCP goodput, Mbit/s)."""

    board: str
    value_mbps: float
    direction: str
    test: str
    kind: str
    source: str
    driver: str | None = None
    driver_version: str | None = None
    cpu_mhz: int | None = None
    approximate: bool = False
    conditions: str = ""


@dataclass(frozen=True)
class Drivers:
    in_tree: tuple[str, ...] = ()
    vendor: tuple[str, ...] = ()
    fallback: tuple[str, ...] = ()

    def all(self) -> tuple[str, ...]:
        """Every driver name, in-tree first, without duplicates."""
        seen: list[str] = []
        for name in (*self.in_tree, *self.vendor, *self.fallback):
            if name not in seen:
                seen.append(name)
        return tuple(seen)


@dataclass(frozen=True)
class Chip:
    """A NIC or another device an inventory must recognise (USB host controller, root port...)."""

    id: str
    kind: str
    name: str
    vendor: str
    bus: str
    id_source: str
    drivers: Drivers
    driver_source: str
    variants: tuple[str, ...] = ()
    usb_ids: tuple[str, ...] = ()
    pci_ids: tuple[str, ...] = ()
    platform_compatible: tuple[str, ...] = ()  # its own first, then the fallbacks it shares
    # The platform device the board's device tree makes of it ("1f00100000.ethernet": ethtool
    # -i's bus-info and the kernel's log prefix), where one board family fixes it
    platform_names: tuple[str, ...] = ()
    usb_generation: str | None = None
    line_rate_mbps: int | None = None
    line_rate_source: str | None = None
    line_rate_note: str = ""
    builtin: bool = False
    contains: tuple[str, ...] = ()
    ports: int | None = None
    measurements: tuple[Measurement, ...] = ()
    problems: tuple[Problem, ...] = ()
    notes: tuple[Note, ...] = ()

    @property
    def is_nic(self) -> bool:
        return self.kind == "nic"

    @property
    def ids(self) -> tuple[str, ...]:
        """USB and PCI ids together (``vendor:product``)."""
        return (*self.usb_ids, *self.pci_ids)

    def measurements_for(
        self,
        board: str | None = None,
        *,
        driver: str | None = None,
        direction: str | None = None,
        test: str | None = None,
    ) -> tuple[Measurement, ...]:
        """The measurements that match every filter given."""
        return tuple(
            m
            for m in self.measurements
            if (board is None or m.board == board)
            and (driver is None or m.driver == driver)
            and (direction is None or m.direction == direction)
            and (test is None or m.test == test)
        )

    def ceiling_mbps(self, board: str | None = None) -> Measurement | None:
        """The highest measured (not vendor-stated) figure, optionally on one board."""
        found = [m for m in self.measurements_for(board) if m.kind == "measured"]
        return max(found, key=lambda m: m.value_mbps) if found else None


@dataclass(frozen=True)
class ModelExample:
    model: str
    source: str


@dataclass(frozen=True)
class BuiltinNic:
    """The board's own NIC: which chip, driver and link, and how it is attached."""

    chip: str
    chip_name: str
    driver: str
    link_mbps: int
    bus: str
    attachment: str
    source: str
    via: str | None = None
    practical_mbps: int | None = None
    note: str = ""


@dataclass(frozen=True)
class Expansion:
    """A bus an add-in NIC can use on this board."""

    bus: str
    source: str
    via: str | None = None
    note: str = ""
    shared_with_builtin_nic: bool = False


@dataclass(frozen=True)
class Board:
    id: str
    name: str
    family: str
    identity_source: str
    soc: str
    cpu: str
    cores: int
    soc_source: str
    model_prefixes: tuple[str, ...] = ()
    model_examples: tuple[ModelExample, ...] = ()
    dt_compatible: str | None = None
    dt_compatible_aliases: tuple[str, ...] = ()
    revision_types: tuple[int, ...] = ()
    revision_codes: tuple[str, ...] = ()
    soc_variants: tuple[str, ...] = ()
    soc_note: str = ""
    cpu_max_mhz: int | None = None
    has_ethernet: bool | None = None
    builtin_nic: BuiltinNic | None = None
    nic_source: str | None = None
    nic_note: str = ""
    expansion: tuple[Expansion, ...] = ()

    @property
    def expansion_buses(self) -> tuple[str, ...]:
        return tuple(e.bus for e in self.expansion)


@dataclass(frozen=True)
class Figure:
    """A named number of a bus (Mbit/s), with its source."""

    name: str
    value: float
    source: str
    conditions: str = ""
    approximate: bool = False
    cpu_mhz: int | None = None


@dataclass(frozen=True)
class PcieLink:
    gen: int
    width: int
    gts: float


@dataclass(frozen=True)
class Bus:
    id: str
    name: str
    kind: str
    shared: bool
    duplex: str
    figures: tuple[Figure, ...] = ()
    notes: tuple[Note, ...] = ()
    pcie: PcieLink | None = None
    internal: bool = False

    def figures_named(self, name: str) -> tuple[Figure, ...]:
        return tuple(f for f in self.figures if f.name == name)

    def figure(self, name: str) -> Figure | None:
        """The first figure with that name, or None."""
        found = self.figures_named(name)
        return found[0] if found else None


@dataclass(frozen=True)
class EthernetFraming:
    """TCP goodput against line rate at a given MTU (1448 payload bytes per 1538 on the wire)."""

    mtu: int
    tcp_payload_bytes: int
    wire_bytes: int
    efficiency: float
    source: str
    observed_line_rate_mbps: int | None = None
    observed_goodput_mbps: float | None = None
    observed_source: str | None = None
    observed_note: str = ""

    def goodput_mbps(self, line_rate_mbps: float, mtu: int | None = None) -> float:
        """Best-case TCP goodput for a line rate; another MTU scales the same overheads."""
        if mtu is None or mtu == self.mtu:
            return line_rate_mbps * self.tcp_payload_bytes / self.wire_bytes
        headers = self.mtu - self.tcp_payload_bytes
        framing = self.wire_bytes - self.mtu
        return line_rate_mbps * (mtu - headers) / (mtu + framing)
