"""Board-level PCIe findings from the kernel log: a host controller whose link never came up.
Every device behind it (a PCIe NIC on a HAT, an M.2 card, a router's second port) is then
absent from the system, whatever the driver tables say."""

from __future__ import annotations

from sbctune.advice.advisor import Advisor
from sbctune.catalog.kernel_messages import explain


def pcie_links_down(adv: Advisor) -> None:
    """brcm-pcie's "link down", rockchip-pcie's "PCIe link training gen1 timeout!", DesignWare's
    "Phy link never came up", with no later "link up" of that controller: said once, for the
    board (the controller is no NIC)."""
    dmesg = adv.parsed.dmesg
    if dmesg is None:
        return
    down: dict[str, str] = {}  # controller → its last link-down line
    for event in dmesg.of_kinds("pcie_link_down", "pcie_link_up"):
        if event.kind == "pcie_link_down":
            down[event.device or ""] = event.text
        elif event.kind == "pcie_link_up":
            down.pop(event.device or "", None)
    if not down:
        return
    explanation = explain("pcie_link_down")
    cited = f" (printed by {explanation.source})" if explanation else ""
    names = ", ".join(sorted(d for d in down if d)) or "a PCIe controller"
    adv.finding(
        "pcie-link-down",
        "warning",
        None,
        f"The PCIe controller {names} found no link to a device{cited}: nothing behind it "
        "can be used, so a PCIe network card, HAT or M.2 adapter there is missing from the "
        "system. If a card is fitted, reseat it and its flat cable, check its power, and on a "
        "Raspberry Pi 5 that the external PCIe port is enabled (dtparam=pciex1); if nothing is "
        "fitted there, this line is expected.",
        list(down.values())[:3],
    )
