"""The interrupt lines a lab's PCIe NICs would have, for a profile that captured no
/proc/interrupts: what the driver requests (the table's ``irq_vectors`` fact, read from its
source) behind the interrupt chip of the board's PCIe host.

igb and igc request MSI-X vectors (igb/igc_request_msix): one named after the interface (link
and other causes), then one per queue vector: ``IFACE-TxRx-K`` where queues are paired (more RSS
queues than half the MAC's maximum, never on the 82575 or I211), else ``IFACE-rx-K`` for each
RX queue followed by ``IFACE-tx-K`` for each TX queue. r8169 has one vector named IFACE
(rtl_alloc_irq); atlantic names every vector IFACE: one per ring vector, then the link's
(aq_nic_start; a PTP vector where PTP is on is not modelled). The queue counts are the lab's
own (``ethtool_table_queues.driver_queues``: one per CPU up to the MAC's maximum), so ``ethtool -l``
and the lines agree.

The PCIe host decides the chip column and whether the affinity can change: the Pi 4 / CM4's
pcie-brcmstb shows "BRCM STB PCIe MSI" with the MSI hwirq (pci_msi_domain_calc_hwirq: the
device's bus/devfn << 11 | vector index, as a real Pi 4 capture's xhci_hcd at 01:00.0 shows
524288), and refuses every affinity write (brcm_msi_set_affinity: EINVAL; a real capture in
pi4-ax88179). Whether it gives MSI-X follows the profile's kernel (pcie_msix, the hand facts
"pcie_msix" of driver_caps.json): the Raspberry Pi tree's brcmstb allows MSI-X
(MSI_FLAG_PCI_MSIX in brcm_msi_domain_info, raspberrypi/linux at a stored commit), Debian's 6.1
and 6.12 do not, and there igb/igc fall back to one MSI vector and one queue pair; a profile
without a kernel release runs the Raspberry Pi kernel a CM4 ships with. The IRQ numbers and
the PCI addresses (bus 01, functions in the profile's order) are the lab's choice; the counts
stay 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sbctune.lab.ethtool_table_queues import _rss_max, driver_queues
from sbctune.lab.fake_ethtool_irqs import render_lines
from sbctune.tuning import driver_caps
from sbctune.tuning.driver_caps_series import SERIES

# [lab] pcie_host -> (chip name in /proc/interrupts, affinity refused)
PCIE_HOSTS = {"brcmstb": ("BRCM STB PCIe MSI", True)}
FIRST_IRQ = 46  # the Pi 4's first PCIe MSI line in a real capture (pi4-ax88179: xhci_hcd)
# A SoC-side NIC's line where the table names its chip (irq_line_by_chip): the number a real Pi
# 5's eth0 has (tests/captures/proc_interrupts/pi5_linux_6898_...: 104, rp1_irq_chip 6 Level)
PLATFORM_FIRST_IRQ = 104
PCI_BUS = 1  # the one root port's secondary bus (lspci on a CM4: 01:00.0)


@dataclass(frozen=True)
class Nic:
    name: str
    driver: str
    chip: str = ""


@dataclass(frozen=True)
class Line:
    number: int
    chip: str
    hwirq: int
    name: str
    pci: str
    trigger: str = "Edge"


def pcie_msix(pcie_host: str, kernel: str) -> bool:
    """Whether the board's PCIe host gives a device MSI-X on this kernel: the hand facts
    "pcie_msix" of the tree the kernel release says it was built from (driver_caps.tree_of):
    Debian's brcmstb has no MSI_FLAG_PCI_MSIX, the Raspberry Pi tree's (as stored) has it. A
    release that names no tree and series ("") is the Raspberry Pi OS kernel a CM4 ships with."""
    if pcie_host != "brcmstb":
        return True
    tree = driver_caps.tree_of(kernel or None)
    if tree != driver_caps.RPI_TREE and SERIES.search(kernel or "") is None:
        # no release: the lab's Pi runs the Raspberry Pi kernel. A release outside the table's
        # series (7.2) is still its tree's: Debian's brcmstb has no MSI_FLAG_PCI_MSIX there
        # either (7.2 BRCM_MSI_FLAGS_SUPPORTED: the generic flags and MULTI_PCI_MSI only)
        return True
    facts = driver_caps.table()["hand"].get("_kernel", [])
    for fact in facts:
        if fact["fact"] == "pcie_msix" and fact.get("tree", "debian") == tree:
            return bool(fact["value"])
    return True


def vector_names(
    nic: Nic, cpus: int, kernel: str = "", queues: int | None = None, msix: bool = True
) -> list[str]:
    """The names the driver gives its interrupt vectors, in the order it requests them, for
    the lab's queue count or `queues` (after ``ethtool -L``: igb_reinit_queues); `msix` False
    (pcie_msix): igb and igc have one MSI line named after the interface."""
    caps = driver_caps.caps(nic.driver, kernel or None, nic.chip) if nic.driver else None
    rule = caps.facts.get("irq_vectors") if caps else None
    if caps is None or not isinstance(rule, dict):
        return []
    link = str(rule["link"]).format(iface=nic.name)
    if rule.get("style") == "single" or (not msix and rule.get("style") == "msix_link_then_queues"):
        return [link]
    if rule.get("style") == "fixed":  # bcmgenet: irq0 and irq1, both the interface's name
        return [link] * int(rule.get("count", 1))
    tx, rx = driver_queues(nic.driver, nic.chip, cpus) or (1, 1)
    if queues:
        tx = rx = queues
    if rule.get("style") == "per_queue":  # macb: one per hardware queue, all the same name
        return [link] * max(tx, rx)
    if rule.get("style") == "same_name":  # atlantic: the ring vectors, then the link vector
        return [link] * rx + [link]
    names = [link]
    if _paired(caps, nic.chip, rx):
        names += [str(rule["paired"]).format(iface=nic.name, n=k) for k in range(rx)]
    else:
        names += [str(rule["rx"]).format(iface=nic.name, n=k) for k in range(rx)]
        names += [str(rule["tx"]).format(iface=nic.name, n=k) for k in range(tx)]
    return names


def _on_platform_bus(nic: Nic, kernel: str) -> bool:
    caps = driver_caps.caps(nic.driver, kernel or None, nic.chip) if nic.driver else None
    rule = caps.facts.get("irq_vectors") if caps else None
    return isinstance(rule, dict) and rule.get("bus") == "platform"


def _paired(caps: driver_caps.DriverCaps, chip: str, rss: int) -> bool:
    rule = caps.facts.get("coalesce_queue_pairs") or {}
    squeezed = chip.lower().replace(" ", "")
    if squeezed and any(n.lower() in squeezed for n in rule.get("unpaired_chips", [])):
        return False
    top = _rss_max(caps, chip) or rss
    return rss > top // 2


def per_device_chip(pcie_host: str, kernel: str) -> str | None:
    """The host's chip name before each device's address where the kernel names the MSI chip
    per device (pcie-brcmstb from 6.17: 'BRCM-PCI-MSI-0000:01:00.0', hwirq the MSI index;
    driver_caps.json _kernel irqchip_without_affinity `per_device`, audit 41 rows 2-3); None
    where it shows one chip for all (PCIE_HOSTS), or the kernel has no version."""
    if pcie_host != "brcmstb":
        return None
    for fact in driver_caps.table()["hand"].get("_kernel", []):
        if (
            fact["fact"] == "irqchip_without_affinity"
            and fact.get("per_device")
            and fact.get("value") == "brcmstb-pcie-msi"
            and driver_caps.release_holds(fact, kernel or None) is True
        ):
            return str(fact["shown_as"])
    return None


def lines(nics: Sequence[Nic], cpus: int, pcie_host: str, kernel: str = "") -> list[Line]:
    """Every modelled line, NICs in the profile's order (functions 0, 1, ... on bus 01)."""
    if pcie_host not in PCIE_HOSTS:
        return []
    chip, _ = PCIE_HOSTS[pcie_host]
    per_device = per_device_chip(pcie_host, kernel)
    msix = pcie_msix(pcie_host, kernel)
    out: list[Line] = []
    function = 0
    for nic in nics:
        names = vector_names(nic, cpus, kernel, msix=msix)
        if not names or _on_platform_bus(nic, kernel):  # bcmgenet, macb: the SoC's own lines
            continue
        dev_id = (PCI_BUS << 8) | function  # pci_dev_id(): bus << 8 | devfn (device 0)
        pci = f"0000:{PCI_BUS:02x}:00.{function}"
        for index, name in enumerate(names):
            if per_device:  # msi_create_device_irq_domain's name; pci_device_domain_set_desc
                out.append(Line(FIRST_IRQ + len(out), f"{per_device}-{pci}", index, name, pci))
            else:
                out.append(Line(FIRST_IRQ + len(out), chip, (dev_id << 11) | index, name, pci))
        function += 1
    return out


def addresses(nics: Sequence[Nic], cpus: int, pcie_host: str, kernel: str = "") -> dict[str, str]:
    """The PCI address the lab gives each modelled PCIe NIC (its ``ethtool -i`` bus-info: the
    drivers' get_drvinfo copy pci_name(), e.g. igb_get_drvinfo)."""
    modelled = lines(nics, cpus, pcie_host, kernel)
    by_vector = {line.name: line.pci for line in modelled}
    return {nic.name: by_vector[nic.name] for nic in nics if nic.name in by_vector}


def platform_lines(nics: Sequence[Nic], cpus: int, kernel: str = "", after: int = 0) -> list[Line]:
    """The lines of SoC-side NICs (bus "platform") whose interrupt chip the table names (hand
    fact ``irq_line_by_chip``: macb on the Pi 5's RP1 sits on rp1_irq_chip, hwirq 6, level),
    numbered from PLATFORM_FIRST_IRQ (past `after`). Only a NIC with one vector: the hwirq of
    any further queue is not in the table. Such a chip takes an affinity write (RP1's since
    raspberrypi/linux PR #6090), so none of these lines is refused."""
    out: list[Line] = []
    for nic in nics:
        caps = driver_caps.caps(nic.driver, kernel or None, nic.chip) if nic.driver else None
        where = driver_caps.by_chip(caps.facts.get("irq_line_by_chip"), nic.chip) if caps else None
        names = vector_names(nic, cpus, kernel)
        if not isinstance(where, dict) or not _on_platform_bus(nic, kernel) or len(names) != 1:
            continue
        number = max(PLATFORM_FIRST_IRQ, after + 1) + len(out)
        trigger = str(where.get("trigger", "Edge"))
        out.append(Line(number, str(where["chip"]), int(where["hwirq"]), names[0], "", trigger))
    return out


def refuses_affinity(pcie_host: str) -> bool:
    return PCIE_HOSTS.get(pcie_host, ("", False))[1]


def render(modelled: Sequence[Line], cpus: int) -> str:
    """/proc/interrupts as kernel/irq/proc.c show_interrupts prints it (fake_ethtool_irqs)."""
    triggers = {m.number: m.trigger for m in modelled}
    return render_lines([(m.number, m.chip, m.hwirq, m.name) for m in modelled], cpus, triggers)


def reinit_model(
    nics: Sequence[Nic], cpus: int, pcie_host: str, kernel: str, most: dict[str, int]
) -> dict[str, Any] | None:
    """What the lab's ethtool needs to write /proc/interrupts again after ``ethtool -L``
    (fake_ethtool_irqs): each modelled NIC's numbers and names now, and its vector names for
    every queue count from 1 to `most` (its ``ethtool -l`` maximum)."""
    modelled = lines(nics, cpus, pcie_host, kernel)
    if not modelled:
        return None
    msix = pcie_msix(pcie_host, kernel)
    out: dict[str, Any] = {"chip": modelled[0].chip, "cpus": cpus, "first": FIRST_IRQ, "nics": {}}
    for nic in nics:
        own = [m for m in modelled if m.pci == next((x.pci for x in modelled
                                                    if x.name == nic.name), None)]  # fmt: skip
        if not own:
            continue
        counts = range(1, int(most.get(nic.name, 0)) + 1)
        caps = driver_caps.caps(nic.driver, kernel or None, nic.chip) if nic.driver else None
        out["nics"][nic.name] = {
            # requested in ndo_open, freed in ndo_stop (hand fact, cited: igb_open -> ...)
            "at_open": bool(caps and caps.facts.get("irq_requested_at_open")),
            "dev_id": own[0].hwirq >> 11,
            # the chip and the first vector's hwirq, as lines() gave them (per device: the
            # chip names the device and the hwirq is the MSI index)
            "chip": own[0].chip,
            "hwirq_base": own[0].hwirq,
            "numbers": [m.number for m in own],
            "names": [m.name for m in own],
            "by_queues": {str(q): vector_names(nic, cpus, kernel, q, msix) for q in counts},
        }
    return out
