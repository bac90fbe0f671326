"""A chip's driver advice: how to get the driver, and what people measured with it (one port
alone, all ports together behind a shared bus)."""

from __future__ import annotations

from dataclasses import dataclass

from sbctune.catalog import Chip
from sbctune.catalog.model import Measurement
from sbctune.inventory.model import Nic


def install_detail(chip: Chip, drivers: str) -> str:
    """How to get the chip's driver: check the kernel first, else build the vendor's."""
    if not chip.drivers.in_tree:
        return ""
    build = [p for p in chip.problems if "build" in p.id]
    return (
        f"This chip is driven by {drivers}. Check with “modinfo {chip.drivers.in_tree[0]}” "
        "whether your kernel has it; Raspberry Pi OS kernels since April 2024 include "
        "igb, igc and ixgbe, so a kernel update may be all it takes. Otherwise build the "
        "vendor driver against your kernel headers"
        + (f" ({build[0].summary})" if build else "")
        + "."
    )


@dataclass(frozen=True)
class PortFigures:
    """What people measured for a chip: one port alone, all ports together (a shared bus)."""

    single: Measurement | None
    multi: list[Measurement]
    together: float | None
    overclocked: list[float]

    @classmethod
    def of(cls, chip: Chip) -> PortFigures:
        single_port = [m for m in chip.measurements if m.test == "single_port"]
        multi = [m for m in chip.measurements if m.test == "multi_port"]
        # The stock clock's figure (seed 004: 3.06 Gbit/s at 1.5 GHz) before any other.
        stock = [m for m in multi if m.cpu_mhz == 1500] or [m for m in multi if not m.cpu_mhz]
        return cls(
            max(single_port, key=lambda m: m.value_mbps) if single_port else None,
            multi,
            max((m.value_mbps for m in stock), default=None),
            [m.value_mbps for m in multi if m.cpu_mhz and m.cpu_mhz > 1500],
        )

    def shared_text(self, nic: Nic) -> str:
        if self.single is None or self.together is None:
            return ""
        bus = "PCIe Gen 2 x1" if nic.bus == "pci" else "bus"
        over = self.overclocked
        return (
            f" Expect ~{self.single.value_mbps:g} Mbit/s per port alone, but the {bus} link "
            f"caps the ports together near {self.together / 1000:.2g} Gbit/s "
            f"({self.together:g} Mbit/s measured on a CM4)"
            + (
                f" ({min(over) / 1000:g}-{max(over) / 1000:g} with the CPU over-clocked)"
                if over
                else ""
            )
            + "."
        )

    def gain_text(self, shared_ports: int) -> str:
        single = self.single
        gain = (
            f"from nothing to ~{single.value_mbps:g} Mbit/s per port" if single else "a working NIC"
        )
        if shared_ports and self.together is not None:
            gain += f"; ~{self.together:g} Mbit/s all {shared_ports} ports together (the bus's cap)"
        return gain

    def evidence(self) -> list[str]:
        return (
            [f"catalog: ~{self.single.value_mbps:g} Mbit/s per port"] if self.single else []
        ) + ([f"catalog: {self.together:g} Mbit/s all ports together"] if self.together else [])
