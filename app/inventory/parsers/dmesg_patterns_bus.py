"""Kernel log line shapes of the buses a NIC hangs on (a part of dmesg_patterns, kept apart by
concern): PCI enumeration and BARs, a PCIe link up or a host controller without one, PCIe
Advanced Error Reporting, a PHY missing from its MDIO bus, a network device with a hardware
VLAN filter, link lines whose device a paste elided; USB enumeration, resets, disconnects and
errors; cards on an MMC host. dmesg_patterns lists them in their order."""

from __future__ import annotations

from sbctune.catalog.usb_device_drivers import device_prefix_pattern
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
# An IOMMU refused a device's DMA and names the device (6.1/6.12 sources; older forms kept):
# AMD, drivers/iommu/amd/iommu.c amd_iommu_report_page_fault(): pci_err(pdev, "Event logged
# [IO_PAGE_FAULT domain=...") on the device's own prefix (dev_fmt "AMD-Vi: "), or pr_err
# "AMD-Vi: Event logged [IO_PAGE_FAULT device=%04x:%02x:%02x.%x ..." when no pci_dev is known;
# 5.10 printed "device=%02x:%02x.%x", and 4.9's iommu_print_event() the event on a line of its
# own after "AMD-Vi: Event logged [" (a printk without KERN_CONT). Intel,
# drivers/iommu/intel/dmar.c dmar_fault_do_one() (pr_fmt "DMAR: "): "[%s NO_PASID] Request
# device [%02x:%02x.%d] fault addr ...", "[%s PASID 0x%x] Request device ..."; 5.10 "[%s] Request
# device [%02x:%02x.%d] PASID %x fault addr ...", 3.x "DMAR:[DMA Write] Request device".
# Interrupt-remapping faults ("[INTR-REMAP]") are no DMA and are not read.
_BDF = r"[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]"
PCIE_PATTERNS.append(
    (
        "iommu_fault",
        _Lazy(
            rf"^(?:(?P<driver>[\w-]+) (?P<device>{_PCI_ADDR}): )?(?:AMD-Vi: )?(?:Event logged \[)?"
            rf"IO_PAGE_FAULT (?:device=(?P<source>(?:[0-9a-f]{{4}}:)?{_BDF}) )?domain=|"
            r"^(?:dmar: )?DMAR: ?\[DMA (?:Read|Write)\b[^\]]{0,24}\] Request device "
            r"\[(?:0x)?(?P<bus>[0-9a-f]{2}):(?:0x)?(?P<slot>[0-9a-f]{2})\.(?P<fn>[0-7])\]"
        ),
    )
)
# CONFIG_DMA_API_DEBUG caught a driver misusing the DMA API: kernel/dma/debug.c err_printk()
# (6.1/6.12) is WARN(1, pr_fmt("%s %s: ") format, dev_driver_string(dev), dev_name(dev), ...)
# under pr_fmt "DMA-API: ": the driver and its device follow the prefix ("NULL" for none).
PCIE_PATTERNS.append(
    (
        "dma_api_misuse",
        _Lazy(r"^DMA-API: (?P<driver>[\w-]+) (?P<device>[\w.:-]+): (?P<message>\S.*)$"),
    )
)
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
# An MDIO bus registered, by the name its driver gives it: mdiobus_register()'s pr_info("%s:
# probed\n", bus->name) under libphy's pr_fmt in kernels before 5.x (6.1/6.12 print it with
# dev_dbg only); catalog.mdio_bus_names says whose bus the name is.
PCIE_PATTERNS.append(
    ("mdio_bus_probed", _Lazy(r"^libphy: (?P<mdio_bus_name>\w[\w .()/-]{2,59}): probed$"))
)
# An MDIO bus a USB NIC's driver names by its USB bus and device number (lan78xx.c
# lan78xx_mdio_init(): "usb-%03d:%03d" of udev->bus->busnum and udev->devnum), on the lines
# the driver core prints about that bus ("mdio_bus usb-002:004: GPIO lookup for consumer reset")
PCIE_PATTERNS.append(
    ("mdio_usb_bus", _Lazy(r"^mdio_bus usb-(?P<busnum>\d{3}):(?P<devnum>\d{3}): "))
)
PCIE_NEEDLES: dict[str, tuple[str, ...]] = {
    "mdio_bus_probed": (": probed",),
    "mdio_usb_bus": ("mdio_bus usb-",),
    "vlan_hw_filter": ("to HW filter on device",),
    "pcie_link_down": ("link down", "link training", "never came up"),
    "iommu_fault": ("IO_PAGE_FAULT", "Request device ["),
    "dma_api_misuse": ("DMA-API: ",),
    "pcie_aer": (
        "PCIe Bus Error",
        "error status/mask",
        "error received",
        "rror message received",
        "error_detected callback",
    ),
}

PCI_LINES: list[tuple[str, _Lazy]] = [
    (
        "pci_device",
        _Lazy(
            r"^pci (?P<device>[0-9a-f]{4,8}:[0-9a-f]{2}:[0-9a-f]{2}\.\d): \[(?P<vendor>[0-9a-f]{4})"
            r":(?P<product>[0-9a-f]{4})\] type (?P<type>\d+) class (?P<class>0x[0-9a-f]{6})"
        ),
    ),
    (
        "pci_bar",
        _Lazy(
            r"^pci (?P<device>\S+): BAR (?P<bar>\d+): (?P<status>assigned|no space for|failed to "
            r"assign|can't assign|not assigned)\b:?\s*(?P<resource>.*)$"
        ),
    ),
    (
        "pcie_link_up",  # brcm-pcie: "link up, 5.0 GT/s PCIe x1 (SSC)" / "link up, 5 GT/s x1"
        _Lazy(
            r"^(?P<driver>brcm-pcie|rockchip-pcie|\S+pcie\S*) (?P<device>\S+): link up, "
            r"(?P<speed>[\d.]+) ?GT/s (?:PCIe )?x(?P<width>\d+)"
        ),
    ),
]
USB_ENUMERATION: list[tuple[str, _Lazy]] = [
    (
        "usb_new_device",
        _Lazy(
            r"^usb (?P<device>\d+-[\d.]+): new (?P<speed>[\w -]+?) USB device "
            r"(?:number (?P<number>\d+) using (?P<hcd>\S+)"
            # hub.c hub_port_init() before 2.6.3x's "number": dev_info(&udev->dev, "%s %s speed
            # %sUSB device using %s and address %d\n", ...) ("new high speed USB device using
            # tegra-ehci and address 3", corpus/wrap40_transformer_prime_*)
            r"|using (?P<hcd2>\S+) and address (?P<address>\d+))"
        ),
    ),
    (
        "usb_ids",
        _Lazy(
            r"^usb (?P<device>\d+-[\d.]+): [Nn]ew USB device found, "
            r"idVendor=(?P<vendor>[0-9a-f]{4}), idProduct=(?P<product>[0-9a-f]{4})"
        ),
    ),
    (
        # drivers/usb/core/hub.c announce_device(): the device's own product string
        "usb_product",
        _Lazy(r"^usb (?P<device>\d+-[\d.]+): Product: (?P<product>\S.{0,80}?)\s*$"),
    ),
    (
        # announce_device()'s serial number line: a device that left and came back on another
        # port (rtw88's switch to USB 3 mode) says the same one
        "usb_serial",
        _Lazy(r"^usb (?P<device>\d+-[\d.]+): SerialNumber: (?P<serial>\S.{0,80}?)\s*$"),
    ),
    (
        "driver_registered",
        _Lazy(r"^usbcore: registered new (?:interface|device) driver (?P<driver>\S+)$"),
    ),
]
USB_UNSUPPORTED: list[tuple[str, _Lazy]] = [
    ("usb_unsupported", _Lazy(r"^usb (?P<device>\d+-[\d.]+): Unsupported device$")),
]
# hub.c's lines about a device after a driver holds it are dev_info(&udev->dev, ...): their
# prefix is that device driver's name, "usb" or r8152's "r8152-cfgselector" (a Proxmox host's
# "r8152-cfgselector 2-2: reset SuperSpeed USB device number 2 using xhci_hcd",
# corpus/usbmg42_ryzen4700u_*); the names are catalog/usb_device_drivers.py's, from the source
_UDEV = device_prefix_pattern()
USB_TROUBLE: list[tuple[str, _Lazy]] = [
    (
        "usb_reset",
        _Lazy(
            rf"^{_UDEV} (?P<device>\d+-[\d.]+): reset (?P<speed>[\w -]+?) USB device number "
            r"(?P<number>\d+)"
        ),
    ),
    (
        "usb_disconnect",
        _Lazy(rf"^{_UDEV} (?P<device>\d+-[\d.]+): USB disconnect, device number (?P<number>\d+)"),
    ),
    ("usb_not_top_speed", _Lazy(rf"^{_UDEV} (?P<device>\d+-[\d.]+): not running at top speed")),
    (
        # r8152 "get_registers -71", "Tx status -71", "failed tx_urb -19"; also on the USB
        # interface before any netdev: "write type=0x0033, index=0xd630 fail -71"
        "usb_error",
        _Lazy(
            r"^(?P<driver>[\w-]+) (?P<device>\d+-[\d.]+:\d+\.\d+)(?: (?P<iface>[\w.-]+))?: "
            r".*?(?P<errno>-(?:71|110|32|19|108|62|5))\b"
        ),
    ),
]
MMC_CARDS: list[tuple[str, _Lazy]] = [
    (
        # A card on an MMC host, by the MMC core (drivers/mmc/core/bus.c): mmc_add_card()'s
        # "%s: new %s%s%s%s%s%s card at address %04x" (its type MMC, SD, SDHC, SDXC, SDUC,
        # SDIO or SD-combo), mmc_remove_card()'s "%s: card %04x removed" (no type), and a
        # memory card's disk (drivers/mmc/core/block.c mmc_blk_alloc_req(): "mmcblk0:
        # mmc0:aaaa SC16G 14.8 GiB")
        "mmc_card",
        _Lazy(
            r"^(?:(?P<device>mmc\d{1,3}): (?:new [\w -]{0,80}?(?P<type>SD-combo|SDIO|SDUC|SDXC|"
            r"SDHC|SD|MMC) card at address (?P<rca>[0-9a-f]{4})|card (?P<rca2>[0-9a-f]{4}) "
            r"(?P<removed>removed))$|(?P<disk>mmcblk\d{1,3})(?:boot\d|rpmb)?: "
            r"(?P<device3>mmc\d{1,3}):(?P<rca3>[0-9a-f]{4}) )"
        ),
    ),
]
BUS_NEEDLES: dict[str, tuple[str, ...]] = {
    "pci_device": (" type ",),
    "pci_bar": ("BAR ",),
    "pcie_link_up": ("link up",),
    "usb_new_device": (" USB device number", " USB device using"),
    "usb_ids": ("idVendor",),
    "usb_product": ("Product: ",),
    "usb_serial": ("SerialNumber: ",),
    "driver_registered": ("registered new",),
    "usb_unsupported": ("Unsupported device",),
    "usb_reset": ("reset ",),
    "usb_disconnect": ("disconnect",),
    "usb_not_top_speed": ("top speed",),
    "usb_error": ("-71", "-110", "-32", "-19", "-108", "-62", "-5"),
    "mmc_card": ("card at address", " removed", "mmcblk"),
}
