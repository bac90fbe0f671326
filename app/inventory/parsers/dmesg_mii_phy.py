"""A PHY named by its MAC's MDIO bus, where the bus's name gives the MAC's device: r8169
registers one bus per PCI function, named "r8169-%x-%x" of pci_domain_nr() and pci_dev_id()
(drivers/net/ethernet/realtek/r8169_main.c r8169_mdio_register(), 6.1 and 6.12), so the PHY
"r8169-3-3100:00" is PCI 0003:31:00.0's. phylib's downshift warning (drivers/net/phy/
phy-core.c phy_check_downshift(): phydev_warn "Downshift occurred from negotiated speed %s to
actual speed %s, check cabling!", speeds by phy_speed_to_str()) says that NIC's link is up at
the lower speed, below what both ends advertised (corpus/nanopi_r6c_ubuntu_rockchip_1013_*)."""

from __future__ import annotations

import re

_DOWNSHIFT = re.compile(
    r"^(?P<phy>[^:\[\]]{1,80}?) r8169-(?P<domain>[0-9a-f]{1,4})-(?P<devid>[0-9a-f]{1,4}):"
    r"[0-9a-f]{2}: Downshift occurred from negotiated speed \S+ to actual speed "
    r"(?P<speed>\d+(?:\.\d+)?)(?P<unit>[GM])bps, check cabling!$"
)


def mii_phy_line(msg: str) -> tuple[str, dict[str, str]] | None:
    """("link_up", fields with the PCI device, r8169, the speed and the PHY) for r8169's PHY's
    downshift line; None for any other line."""
    if "Downshift occurred" not in msg:
        return None
    m = _DOWNSHIFT.match(msg)
    if m is None:
        return None
    dev_id = int(m["devid"], 16)  # pci_dev_id(): bus number << 8 | devfn
    bus, devfn = dev_id >> 8, dev_id & 0xFF
    device = f"{int(m['domain'], 16):04x}:{bus:02x}:{devfn >> 3:02x}.{devfn & 7}"
    fields = {"driver": "r8169", "device": device, "speed": m["speed"], "unit": m["unit"]}
    return "link_up", {**fields, "phy": m["phy"].strip()}
