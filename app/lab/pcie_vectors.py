"""How many interrupt vectors the lab's PCIe host gives a card, and the NICs that therefore
cannot open: the lab refuses such a profile rather than bring up a NIC the kernel never would
(audit 20 row 1; the product's Inspect says the same, sbctune.advice.static_vectors).

Both facts are the driver capability table's, cited to the kernel source: ``_kernel``
``pcie_msi_vectors`` (Debian 6.1's brcmstb: one vector, no MSI-X and no multi-MSI;
brcm_msi_domain_info) matched by the chip the host shows (irq_model.PCIE_HOSTS), and a
driver's ``open_fails_with_one_vector`` (atlantic: aq_nic_cfg_update_num_vecs keeps a ring
vector per CPU with one vector, aq_nic_start then asks for vector 1). Where the host gives
MSI-X (irq_model.pcie_msix: the Raspberry Pi kernel, or a profile that names no kernel) or the
table holds no count for the series (6.12: the card's MSI capability decides), nothing is
claimed.
"""

from __future__ import annotations

from collections.abc import Sequence

from sbctune.lab import irq_model
from sbctune.tuning import driver_caps


def vectors_given(pcie_host: str, kernel: str) -> int | None:
    """The vectors a card behind `pcie_host` gets on `kernel`, where the table says (Debian
    6.1's brcmstb: 1); None: as many as the card asks for, as far as the table knows."""
    if pcie_host not in irq_model.PCIE_HOSTS or irq_model.pcie_msix(pcie_host, kernel):
        return None
    chip = irq_model.PCIE_HOSTS[pcie_host][0]
    series = driver_caps.series_of(kernel or None)
    if len(series) != 1:
        return None
    for fact in driver_caps.table()["hand"].get("_kernel", []):
        if (
            fact["fact"] == "pcie_msi_vectors"
            and fact.get("shown_as") == chip
            and series[0] in fact["kernels"]
            and "tree" not in fact
        ):
            return int(fact["value"])
    return None


def open_refused(
    nics: Sequence[irq_model.Nic], cpus: int, pcie_host: str, kernel: str
) -> str | None:
    """Why the first NIC that cannot open on this host and kernel cannot (None: every one can)."""
    if cpus < 2 or vectors_given(pcie_host, kernel) != 1:
        return None  # one CPU: one ring vector, the one vector serves it
    for nic in nics:
        caps = driver_caps.caps(nic.driver, kernel or None, nic.chip) if nic.driver else None
        if caps is None or not caps.facts.get("open_fails_with_one_vector"):
            continue
        where = caps.cites.get("open_fails_with_one_vector", "")
        return (
            f"{nic.name} ({nic.driver}) could never be brought up on this board: kernel "
            f"{kernel} gives a card behind its PCIe controller one interrupt vector and "
            f"{nic.driver} asks for one per CPU ({cpus}) when it opens ({where}), so the lab "
            "will not show it up"
        )
    return None
