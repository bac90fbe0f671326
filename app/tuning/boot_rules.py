"""What a boot tweak can change on this Pi, from the kernel's source and the firmware's device
tree (audit 23): a refusal where the kernel would change nothing the user's NIC crosses.

A boot tweak's `params.acts_on` names what it acts on:
- "pcie_payload" (pci=pcie_bus_perf): the Max Payload / Read Request sizes of the PCIe devices
  the NIC's traffic crosses (drivers/pci/probe.c, the `_kernel` pcie_bus_* facts);
- "pcie_x1_link" (dtparam=pciex1_gen=3): the link speed of the Pi 5's external x1 connector's
  controller (pcie1) only (bcm2712-rpi.dtsi, pcie-brcmstb.c `brcm_pcie_set_gen`);
- "cpu_clock" (arm_freq): the firmware's CPU clock, which it drops while it sees under-voltage.
"""

from __future__ import annotations

from sbctune.catalog import load_catalog
from sbctune.inventory.model import Inventory, Nic
from sbctune.tuning import driver_caps
from sbctune.tuning.model import NotNeeded

CMDLINE = "/proc/cmdline"  # the running kernel's command line (device-tree bootargs first)
# Raspberry Pi documentation, config.txt, "Overclocking options" (first paragraph)
OVERCLOCK_DOC = (
    "https://www.raspberrypi.com/documentation/computers/config_txt.html#overclocking-options"
)
GEN3_GTS = 8.0  # PCIe Gen 3's rate: a link whose device tops below it cannot train faster


def _cite(fact: str, kernel: str | None) -> str:
    found = driver_caps.kernel_fact(fact, kernel)
    return found[1] if found else "drivers/pci/probe.c"


def bus_policy(cmdline: str | None) -> str | None:
    """The pci=pcie_bus_* policy the running kernel has: the last one given, as pci_setup
    (drivers/pci/pci.c) reads each `pci=` option in order and each overwrites the last."""
    policy = None
    for word in (cmdline or "").split():
        if not word.startswith("pci="):
            continue
        for option in word[len("pci=") :].split(","):
            if option.startswith("pcie_bus_"):
                policy = option
    return policy


def _inside_soc(nic: Nic) -> bool:
    """A SoC's own MAC (a catalog board's built-in NIC with the "native" attachment: the
    BCM2711's GENET), so no PCIe link lies between it and memory; unlike RP1's GEM on a Pi 5
    ("rp1-pcie"). Read from the NIC's chip, whether or not the board was named."""
    if nic.bus != "platform" or not nic.catalog_id:
        return False
    return any(
        b.builtin_nic is not None
        and b.builtin_nic.chip == nic.catalog_id
        and b.builtin_nic.attachment == "native"
        for b in load_catalog().boards
    )


def _pci_bus_number(nic: Nic) -> int | None:
    """The bus number of the NIC's PCI address ("0000:01:00.0" -> 1), None if not read."""
    address = nic.bus_path or ""
    parts = address.split(":")
    if len(parts) < 2:
        return None
    try:
        return int(parts[-2], 16)
    except ValueError:
        return None


def _alone_behind_root_port(nic: Nic) -> bool | None:
    """Whether the PCIe device the NIC crosses is the only one behind its root port. A PCI NIC
    on bus 1 sits right behind the root port (a switch would put it on bus 2 or later); a USB
    or platform NIC crosses its board's own bridge chip (RP1, VL805), alone on its link on
    every board in the catalog. None where the NIC's PCI address was not read."""
    if nic.bus != "pci":
        return True
    number = _pci_bus_number(nic)
    return None if number is None else number == 1


def pcie_payload_refusal(nic: Nic | None, inventory: Inventory, cmdline: str | None) -> str | None:
    """Why pci=pcie_bus_perf changes nothing this NIC's traffic crosses, or None."""
    if nic is None:
        return None
    kernel = inventory.board.kernel
    if _inside_soc(nic):
        return (f"{nic.name or 'this NIC'} is the {nic.chip} inside the SoC: its traffic "
                "crosses no PCIe link, so the PCIe payload size cannot change it")  # fmt: skip
    if bus_policy(cmdline) != "pcie_bus_safe" or not _alone_behind_root_port(nic):
        return None
    what = "its PCIe card" if nic.bus == "pci" else "the board's PCIe bridge chip it sits behind"
    return NotNeeded(
        f"the running kernel already has pci=pcie_bus_safe ({CMDLINE}; on a Pi 5 and CM5 the "
        "firmware's device tree passes it): with one device behind the root port, "
        f"{what} already has the largest payload both ends support "
        f"({_cite('pcie_bus_safe_smallest_mpss', kernel)}), which is what pcie_bus_perf "
        f"would give it ({_cite('pcie_bus_perf_mps_from_parent', kernel)}); pcie_bus_perf "
        "would only cut its read requests to the payload size "
        f"({_cite('pcie_bus_perf_mrrs_is_mps', kernel)})"
    )


def pcie_x1_refusal(nic: Nic | None) -> str | None:
    """Why dtparam=pciex1_gen=3 cannot speed up this NIC's link, or None."""
    if nic is None:
        return None
    name = nic.name or "this NIC"
    if nic.bus != "pci":
        return (f"dtparam=pciex1_gen sets the speed of the x1 connector's PCIe link only "
                f"(pcie1; bcm2712-rpi.dtsi pciex1_gen); {name} is a {nic.bus} NIC on RP1, "
                "which has its own x4 link the setting does not touch")  # fmt: skip
    if _pci_bus_number(nic) != 1:
        return None  # behind a switch (or not read): the x1 link is the switch's, not the NIC's
    pcie = nic.pcie
    top = pcie.max_speed_gts if pcie else None
    if top is not None and top < GEN3_GTS:
        return (f"{name}'s own PCIe link tops at {top:g} GT/s (its LnkCap): a link trains at "
                "the slower end's fastest speed, so Gen 3 (8 GT/s) on the Pi's side changes "
                "nothing (pcie-brcmstb.c brcm_pcie_set_gen sets only the Pi's end)")  # fmt: skip
    now = pcie.speed_gts if pcie else None
    if now is not None and now >= GEN3_GTS:
        return NotNeeded(f"{name}'s link already runs at {now:g} GT/s (LnkSta)")
    return None


def cpu_clock_refusal(inventory: Inventory) -> str | None:
    """Why a higher arm_freq would not be in force: the firmware drops overclocking while it
    sees under-voltage (vcgencmd get_throttled bits 0 and 16)."""
    throttled = inventory.board.throttled
    if throttled is None or not (throttled.under_voltage or throttled.under_voltage_occurred):
        return None
    when = "now" if throttled.under_voltage else "since it booted"
    return (
        f"the Pi reported under-voltage {when} (vcgencmd get_throttled {throttled.raw}), and "
        "the firmware disables overclocking while it detects under-voltage (Raspberry Pi "
        f"documentation, {OVERCLOCK_DOC}): a higher arm_freq would not be in force. Use a "
        "power supply that keeps it above 4.63 V first"
    )


def refusal(acts_on: str, nic: Nic | None, inventory: Inventory, cmdline: str | None) -> str | None:
    """The refusal of a boot tweak that `acts_on` this (tweaks.json params), or None."""
    if acts_on == "pcie_payload":
        return pcie_payload_refusal(nic, inventory, cmdline)
    if acts_on == "pcie_x1_link":
        return pcie_x1_refusal(nic)
    if acts_on == "cpu_clock":
        return cpu_clock_refusal(inventory)
    return None
