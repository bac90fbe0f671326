"""A PCIe NIC whose driver cannot open with the interrupt vectors the board's PCIe host gives.

Two facts of resources/tuning/driver_caps.json, each cited to the kernel source (checked by
tests/test_driver_caps_source.py), meet here; neither names the other, so any driver with the
first behind any host with the second is found (audit 20 row 1):

- ``_kernel`` ``pcie_msi_vectors``: how many vectors a device behind the SoC's PCIe controller
  gets on a kernel series (Debian 6.1's brcmstb: one; no MSI-X, no multi-MSI), with the SoC
  it belongs to (``soc``). Only where the running kernel is Debian's tree and its series is
  one the table holds: another tree (the Raspberry Pi one gives MSI-X) or series is not claimed.
- a driver's ``open_fails_with_one_vector``: it keeps one ring vector per CPU although it got
  one vector, and its open asks for vector 1 (atlantic: aq_nic_cfg_update_num_vecs,
  aq_nic_start). With one CPU it opens (one ring vector): only boards with more are found.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from sbctune.advice.advisor import Advisor
from sbctune.inventory.model import Nic
from sbctune.tuning import driver_caps
from sbctune.tuning.driver_caps_series import RPI_TREE, SERIES, tree_of


@lru_cache(maxsize=1)
def _host_facts() -> tuple[tuple[str, ...], tuple[dict[str, Any], ...]]:
    """The table's series and its facts of vectors behind a PCIe host (read once: the table is
    900 kB)."""
    data = driver_caps.table()
    facts = [f for f in data["hand"].get("_kernel", []) if f["fact"] == "pcie_msi_vectors"]
    return tuple(data["kernels"]), tuple(facts)


def _host_vectors(soc: str | None, kernel: str | None) -> dict[str, Any] | None:
    """The table's fact of how many vectors a PCIe device gets behind this SoC's controller on
    this kernel, where it says so exactly (Debian's tree, a series the table holds)."""
    if not soc or not kernel or tree_of(kernel) == RPI_TREE:
        return None
    running = SERIES.search(kernel)
    series = f"{running.group(1)}.{running.group(2)}" if running else ""
    known, facts = _host_facts()
    if series not in known:
        return None  # a series the table does not hold (or none said): not claimed
    for fact in facts:
        if (
            series in fact["kernels"]
            and str(fact.get("soc", "")).upper() == soc.strip().upper()
            and "tree" not in fact
        ):
            return dict(fact)
    return None


def _driver_fact(driver: str, kernel: str) -> dict[str, Any] | None:
    caps = driver_caps.caps(driver, kernel)
    if caps is None or not caps.facts.get("open_fails_with_one_vector"):
        return None
    for fact in driver_caps.table()["hand"].get(caps.driver, []):
        if fact["fact"] == "open_fails_with_one_vector":
            return dict(fact)
    return None


def open_without_vectors(adv: Advisor, nic: Nic) -> None:
    """A "problem" finding for a PCIe NIC its driver cannot open on this board and kernel."""
    board = adv.inv.board
    cpus = board.cpu_cores
    if nic.bus != "pci" or not nic.driver or not board.kernel or not cpus or cpus < 2:
        return
    if nic.irqs or nic.link_speed_mbps:
        return  # it opened after all (atlantic requests its vectors at open): the Pi says
    host = _host_vectors(board.soc, board.kernel)
    if host is None or int(host["value"]) != 1:
        return
    driver = _driver_fact(nic.driver, board.kernel)
    if driver is None:
        return
    adv.finding(
        "nic-open-fails-one-vector",
        "problem",
        nic,
        f"The {nic.driver} driver cannot bring this NIC up on this kernel: behind the "
        f"{board.soc}'s PCIe controller, kernel {board.kernel} gives a PCIe card one interrupt "
        f"vector (no MSI-X, no multi-MSI), while {nic.driver} still sets up a ring per CPU "
        f"({cpus} CPUs here) and asks for an interrupt for each when the interface opens, so "
        'opening it fails with "Invalid argument" and it stays down. A Raspberry Pi OS '
        "kernel (its PCIe controller gives MSI-X) runs it.",
        [
            f"{host['file']}: {host['symbol']} ({', '.join(host['kernels'])}): {host['contains']}",
            f"{driver['file']}: {driver['symbol']}: {driver['contains']}",
            f"board: {board.soc}, {cpus} CPUs, kernel {board.kernel}; {nic.name or 'NIC'}: "
            f"driver {nic.driver} on PCIe",
        ],
    )
