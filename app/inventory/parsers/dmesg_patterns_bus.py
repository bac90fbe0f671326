"""Kernel log line shapes of the buses a NIC hangs on (a part of dmesg_patterns, kept apart to
keep that module small): a PCIe host controller without a link, PCIe Advanced Error Reporting,
a PHY missing from its MDIO bus, a network device with a hardware VLAN filter, and link lines
whose device a paste elided."""

from __future__ import annotations

from sbctune.inventory.parsers.lazy_pattern import Lazy as _Lazy

_PCI_ADDR = r"[0-9a-f]{4,8}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]"

PCIE_PATTERNS: list[tuple[str, _Lazy]] = [
    (
        # a PHY the device tree (or ACPI) declares is not on its MDIO bus: err level in
        # drivers/net/mdio/of_mdio.c __of_mdiobus_register() and acpi_mdio.c; the bus is named
        # by its own id ("unimac-mdio--19", "stmmac-0", "4a101000.mdio"), not by a NIC
        "phy_failure",
        _Lazy(r"^mdio_bus (?P<mdio_bus>\S+): MDIO device at address \d+ is missing"),
    ),
    (
        # A PCIe host controller whose link never trained: brcm-pcie's "link down"
        # (drivers/pci/controller/pcie-brcmstb.c brcm_pcie_start_link()), rockchip-pcie's
        # "PCIe link training gen1 timeout!" (pcie-rockchip-host.c
        # rockchip_pcie_host_init_port()), DesignWare's "Phy link never came up"
        # (dwc/pcie-designware.c dw_pcie_wait_for_link())
        "pcie_link_down",
        _Lazy(
            r"^(?P<driver>\S*pcie\S*) (?P<device>\S+): (?:link down|PCIe link training gen\d "
            r"timeout!|Phy link never came up)"
        ),
    ),
    (
        # PCIe Advanced Error Reporting (drivers/pci/pcie/aer.c aer_print_error(): "PCIe Bus
        # Error: severity=%s, type=%s, (%s)" and "  device [%04x:%04x] error status/mask=...",
        # on the device that erred, with or without "AER: "; aer_print_port_info(): the root
        # port's "%s%s error message received from %04x:%02x:%02x.%d", before 5.x "%s%s error
        # received: %04x:%02x:%02x.%d"; "id=00e5" in older kernels names no device)
        "pcie_aer",
        _Lazy(
            rf"^(?P<driver>[\w-]+) (?P<device>{_PCI_ADDR}): (?:AER: )?(?:PCIe Bus Error: "
            r"severity=(?P<severity>[\w ()-]{1,40}?), |\s*device \[(?P<vendor>[0-9a-f]{4}):"
            r"(?P<product>[0-9a-f]{4})\] error status/mask=|(?:Multiple )?(?P<severity2>[\w ()-]"
            rf"{{1,40}}?) error (?:message )?received(?::| from) (?P<source>{_PCI_ADDR})\b|"
            # the device could not take part in the recovery (drivers/pci/pcie/err.c
            # report_error_detected(): "can't recover (no error_detected callback)")
            r"(?P<unrecovered>[Cc]an't recover) \(no error_detected callback\))"
        ),
    ),
]
# A post that elides a link line's driver and device, or the device's address: "... eth0: Link
# is Up - 10Mbps/Half", "macb ... ethernet end0: Link is Down" (the tail of 1f00100000.ethernet)
_ELIDED = (
    r"^(?:(?P<driver>[\w-]+) )?\S*(?:\.\.\.|…)\S*(?: [a-z][\w-]*(?=\s+[a-z]))?\s+"
    r"(?P<iface>[a-z][\w.-]{0,14}): "
)
PCIE_PATTERNS.append(
    (
        "link_up",
        _Lazy(
            _ELIDED
            + r"Link is Up - (?P<speed>\d+(?:\.\d+)?)(?P<unit>[GM])bps/(?P<duplex>Full|Half)"
        ),
    )
)
PCIE_PATTERNS.append(("link_down", _Lazy(_ELIDED + r"Link is Down\b")))
PCIE_PATTERNS.append(
    (
        # net/8021q/vlan.c vlan_device_event(): on NETDEV_UP of a device whose features have
        # NETIF_F_HW_VLAN_CTAG_FILTER, "adding VLAN 0 to HW filter on device %s": a network
        # device with a hardware VLAN filter, i.e. a NIC (a bond's name is virtual already)
        "vlan_hw_filter",
        _Lazy(r"^8021q: adding VLAN 0 to HW filter on device (?P<iface>[\w-]+)$"),
    )
)
PCIE_NEEDLES: dict[str, tuple[str, ...]] = {
    "vlan_hw_filter": ("to HW filter on device",),
    "pcie_link_down": ("link down", "link training", "never came up"),
    "pcie_aer": (
        "PCIe Bus Error",
        "error status/mask",
        "error received",
        "rror message received",
        "error_detected callback",
    ),
}
