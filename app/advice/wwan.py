"""A cellular modem's network interface (LTE/5G over USB or PCIe): a network device, listed
like any NIC, but its speed is the mobile network's, not the board's, and iperf3 to this PC
cannot go through it. Told by its driver (the kernel's WWAN drivers say so in their
MODULE_DESCRIPTION: qmi_wwan "... (QMI) WWAN driver", sierra_net "USB-to-WWAN ...", cdc_mbim
"... MBIM ..."; drivers/net/wwan/), by a ``ww`` interface name (the kernel's ``wwan%d``,
systemd's ``ww`` prefix), by USB IDs the kernel's modem drivers list (option, qcserial,
sierra, qmi_wwan, sierra_net: resources/kernel_source/wwan_usb_ids.json), or by a
usb.ids/pci.ids name that calls it a modem ("5G" beside Ethernet/LAN is an Ethernet speed)."""

from __future__ import annotations

import re

from sbctune.catalog.wwan_ids import is_wwan_driver, wwan_drivers
from sbctune.inventory.model import Finding, Nic
from sbctune.inventory.usb_names import named_protocol

_MODEM_NAME = re.compile(
    r"\bmodem\b|\bLTE\b|\b[345]G\b(?![ /-]?(?:Ethernet|LAN|BASE|bE))|\bHSPA|\bUMTS\b|\bWWAN\b"
    r"|\bMDM9\d{3}\b|\bSDX\d{2}\b",  # Qualcomm's modem chips: MDM9207, MDM9607, SDX55
    re.I,
)
# a Wi-Fi adapter's name: its "2.4G"/"5G" is a radio band ("RTL8188FTV 802.11b/g/n 1T1R 2.4G
# WLAN Adapter"), not a mobile network's generation
_WIFI_NAME = re.compile(r"802\.11|\bWLAN\b|\bWi-?Fi\b|\bWireless LAN\b|\d\.\dG\b", re.I)


def cellular_reason(nic: Nic) -> str | None:
    """Why this NIC is a cellular modem's interface, in plain words; None when it is not."""
    if is_wwan_driver(nic.driver):
        return f"its driver {nic.driver} is for mobile-network modems"
    if registered := nic.log.get("wwan_registered"):
        # the device registered a modem's interface before it switched to another mode
        return f"it registered a mobile-network interface ({registered[0][:120]})"
    if port := nic.log.get("modem_port"):
        # "option1 ttyUSB0: GSM modem (1-port) converter now disconnected ...": its port
        return f"a modem driver's serial port was the device's ({port[0][:120]})"
    if nic.bus == "usb" and (listed := wwan_drivers(nic.ids)):
        return f"the kernel's modem driver {listed[0]} lists its USB IDs {nic.ids}"
    if nic.bus == "usb" and is_wwan_driver(protocol := named_protocol(nic.usb_product or "")):
        # "Product: MBIM + 3 CDC-ACM": the device offers the network model of a modem class
        # driver (cdc_mbim), whether or not a driver bound it (catalog/usb_net_classes)
        return f"its USB product string {nic.usb_product!r} names {protocol}'s modem protocol"
    if re.match(r"^ww[a-z0-9]", nic.name or ""):
        return f"{nic.name} is a mobile-network interface name"
    if _MODEM_NAME.search(nic.chip or "") and not _WIFI_NAME.search(nic.chip or ""):
        return f"it is named {nic.chip}"
    return None


def cellular_findings(nic: Nic, label: str) -> list[Finding]:
    why = cellular_reason(nic)
    if why is None:
        return []
    return [
        Finding(
            "cellular-modem",
            "info",
            label,
            f"{label} is a cellular modem's network interface ({why}): its speed is the mobile "
            "network's, not this board's. sbctune measures and tunes the Ethernet and Wi-Fi "
            "adapters that reach this PC; measure through one of those.",
            [e for e in nic.evidence][:2],
        )
    ]
