"""Findings from measurements, each with the figures it rests on, and what they call for.

One `_NicAdvisor` per measured NIC (its checks are in measured_link and measured_host, what
they share in measured_base): it reads the run's figures against the NIC's link, bus,
chip and the catalog's measured figures, appends findings, and appends recommendations with a
numeric gain (Mbit/s) so that `sbctune.advice.rank` can order them.
"""

from __future__ import annotations

from sbctune.advice.knowledge import Knowledge
from sbctune.advice.measured_base import Measured
from sbctune.advice.measured_host import HostChecks
from sbctune.advice.measured_latency import LatencyChecks
from sbctune.advice.measured_link import LinkChecks
from sbctune.advice.nic_label import label
from sbctune.advice.power import power_advice
from sbctune.advice.runs import NicRuns
from sbctune.catalog import Catalog
from sbctune.inventory.model import Inventory, Nic

__all__ = ["Measured", "label", "measured_advice"]


class _NicAdvisor(LinkChecks, HostChecks, LatencyChecks):
    """Every check for one measured NIC, in the order their findings read best."""

    def run(self) -> None:
        if self.runs.notes:
            self.routed_elsewhere()
            return  # the figures are not this NIC's: nothing else can be concluded
        self.at_limit()
        self.asymmetric()
        self.full_duplex()
        self.usb2_bound()
        self.pcie_bound()
        self.cpu_bound()
        self.retransmits()
        self.driver_bound()
        self.slower_chip()
        self.below_limit()
        self.latency_under_load()


def measured_advice(
    inventory: Inventory,
    digests: dict[str | None, NicRuns],
    catalog: Catalog,
    knowledge: Knowledge,
    in_force: set[str] | None = None,
) -> Measured:
    """`in_force`: the tweaks in force on the Pi now, never recommended again."""
    out = Measured(in_force=set(in_force or ()))
    for name, runs in digests.items():
        nic = inventory.nic(name) if name else None
        if nic is None:
            nic = Nic(name=name)  # measured, but not in the inventory: judge from figures alone
        _NicAdvisor(inventory, nic, runs, catalog, knowledge, out).run()
    # Board level, once for all NICs: the Pi slowed down by its power or heat during a test.
    power_advice(inventory, digests, catalog, out.findings, out.recommendations)
    return out
