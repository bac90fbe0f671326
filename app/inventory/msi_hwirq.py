"""The PCI address a PCI/MSI interrupt's number spells in /proc/interrupts.

A PCI device's MSI/MSI-X vectors live in a PCI/MSI irq domain (pci_msi_create_irq_domain():
x86's "PCI-MSI" and "IR-PCI-MSI", the GIC ITS's "ITS-MSI", brcmstb's "BRCM STB PCIe MSI" ...),
whose hwirq, the number /proc/interrupts prints after the chip's name, is made by
pci_msi_domain_calc_hwirq() (drivers/pci/msi/irqdomain.c in 6.1 and 6.12):

    desc->msi_index | pci_dev_id(dev) << 11 | (pci_domain_nr(dev->bus) & 0xFFFFFFFF) << 27

so ``PCI-MSI 524288-edge eth0`` is vector 0 of 0000:01:00.0 (524288 >> 11 = 0x100: bus 1,
devfn 0). coolsnowwolf/lede#10394's own lines check it: ahci[0000:00:13.0] is 311296.
"""

from __future__ import annotations

# The chip names of PCI/MSI domains whose hwirq is pci_msi_domain_calc_hwirq()'s. A controller
# outside this list (a platform MSI, a GPIO) says nothing of a PCI address.
_PCI_MSI_CHIPS = ("PCI-MSI", "IR-PCI-MSI", "ITS-MSI", "BRCM STB PCIe MSI")
_MAX_HWIRQ = 1 << 43  # a 16-bit domain above the 27 low bits: larger is no such number


def msi_pci_address(controller: str | None, hwirq: str | None) -> str | None:
    """``0000:01:00.0`` for ("PCI-MSI", "524288"); None when the chip is not a PCI/MSI one."""
    if not controller or controller.strip() not in _PCI_MSI_CHIPS:
        return None
    if not hwirq or not (hwirq.isascii() and hwirq.isdigit()) or len(hwirq) > 14:
        return None
    number = int(hwirq)
    if number >= _MAX_HWIRQ:
        return None
    dev_id = (number >> 11) & 0xFFFF
    domain = number >> 27
    bus, devfn = dev_id >> 8, dev_id & 0xFF
    return f"{domain:04x}:{bus:02x}:{devfn >> 3:02x}.{devfn & 7}"
