"""A DSA switch's user port, and its conduit.

DSA (net/dsa/) registers each front port of a switch that sits behind a CPU's MAC as a
net_device of its own, whose parent is the switch (6.1 net/dsa/slave.c dsa_slave_create(),
6.12 net/dsa/user.c dsa_user_create(): SET_NETDEV_DEV(..., port->ds->dev)) and whose
ndo_get_iflink returns the conduit's ifindex (dsa_slave_get_iflink(), dsa_user_get_iflink()).
So:

- a NIC driven by a switch driver of drivers/net/dsa/ (resources/kernel_source/
  dsa_switch_drivers.json, 5.10 to 6.12, and drivers.json) is a user port: those drivers
  register no net_device of their own; a line of a switch on an MDIO device says so whatever
  the driver's name (dsa_ports.py: OpenWrt's out-of-tree ones);
- iproute2 prints a device whose IFLA_LINK is another device of its namespace as
  ``lan1@eth0`` (``@if5`` for one in another namespace, ``@NONE`` for none: ip/ipaddress.c
  print_linkinfo()); the other kinds stacked so are software (802.1Q VLANs, macvlan, tunnels)
  and no NICs here (sightings._VIRTUAL, nic_kind), so a NIC printed ``name@other`` is a switch
  port and ``other`` its conduit, through whose link, interrupts and queues its frames pass.
"""

from __future__ import annotations

import re

from sbctune.catalog.dsa_switch_drivers import switch_driver_file
from sbctune.catalog.kernel_drivers import load_kernel_drivers
from sbctune.catalog.vendor_drivers import vendor_module
from sbctune.inventory.graph import Device
from sbctune.inventory.model import Nic
from sbctune.wording import counted

ELSEWHERE = re.compile(r"^(?:if\d+|NONE)$")  # ip's "@if5" (a peer's ifindex elsewhere), "@NONE"
# an interface name as net/core/dev.c dev_valid_name() allows one: below IFNAMSIZ (16), no "/",
# ":" or white space, not "." or ".." (a longer "@..." of a paste is not a name)
_IFNAME = re.compile(r"(?!\.\.?$)[^/:\s]{1,15}")
_DSA_DIR = "drivers/net/dsa/"


def conduit_of(name: str, parent: str | None) -> str | None:
    """The conduit ip's ``name@parent`` names: another device of the same namespace."""
    if not parent or parent == name or ELSEWHERE.match(parent) or not _IFNAME.fullmatch(parent):
        return None
    return parent


def is_switch_driver(driver: str | None) -> bool:
    """A DSA switch driver of the kernel (drivers/net/dsa/): by the generated table of their
    names in 5.10, 6.1 and 6.12 (MDIO ones and older names included), or by drivers.json's
    file for a name only it has; or an out-of-tree one vendor_drivers.json marks "dsa"."""
    if switch_driver_file(driver) is not None:
        return True
    vendor = vendor_module(driver)  # an out-of-tree one whose source registers a DSA switch
    if vendor is not None and vendor.dsa:
        return True
    known = load_kernel_drivers().get(driver)
    return known is not None and known.file.startswith(_DSA_DIR)


def set_switch_port(nic: Nic, device: Device) -> None:
    conduit = device.value("conduit")
    nic.conduit = conduit if isinstance(conduit, str) else None
    said = device.value("switch_port") is True
    nic.switch_port = nic.conduit is not None or said or is_switch_driver(nic.driver)


def switch_words(nic: Nic, ports: list[str] | tuple[str, ...] = ()) -> str | None:
    """What Inspect says of a switch port (its conduit) or of a conduit (its ports)."""
    if nic.switch_port:
        if nic.conduit:
            return f"a port of the switch behind {nic.conduit} (its traffic passes through it)"
        return "a port of a switch behind the CPU's MAC (its conduit is not shown)"
    if ports:
        return f"conduit of {counted(len(ports), 'switch port')}: {', '.join(ports)}"
    return None


def ports_behind(conduit: str, nics: list[Nic]) -> list[str]:
    """The switch ports whose conduit is ``conduit``, by name."""
    return sorted(n.name for n in nics if n.conduit == conduit and n.name)
