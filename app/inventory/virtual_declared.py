"""Interfaces that a bundle's own log lines declare virtual, whatever they are named.

- batman-adv prints every line of its mesh (soft) interface by that interface's name:
  net/batman-adv/log.h batadv_info()/batadv_err() do ``pr_info("%s: " fmt, net_dev->name)``
  with batman-adv's pr_fmt ``KBUILD_MODNAME ": "`` (main.h), and their ``net_dev`` is "the
  soft interface net device" (6.1 and 6.12 alike): "batman_adv: bat0: Adding interface: mesh0"
  makes bat0 a mesh interface, and mesh0, the interface it rides on, stays what it is.
- OpenWrt's netifd says each device's kind when its link changes: device.c device_set_link()
  ``netifd_log_message(L_NOTICE, "%s '%s' link is %s\\n", dev->type->name, dev->ifname, ...)``;
  a plain netdev's type is "Network device" (simple_device_type), every other type is one that
  netifd itself builds ("Bridge", "MAC VLAN", "VLAN" ...): "MAC VLAN 'local-node' link is up".

- The bonding driver prints its port lines by the bond's name (bond_masters() below).

Such a name is no NIC of its own (a bridge, a macvlan, a mesh interface, a bond): build.py
leaves out a device that only these names identify. Text from a Pi is never made a regex; a
log without the daemon's or module's literal costs one substring scan."""

from __future__ import annotations

import re

from sbctune.inventory.parsers.dmesg import DmesgResult

_IF = r"[A-Za-z_][\w.-]{0,14}"  # dev_valid_name(): below IFNAMSIZ, no "/", ":" or space
_BATMAN = re.compile(rf"batman_adv: (?P<name>{_IF}): ")  # one scan of the whole text
_NETIFD = re.compile(rf"netifd: (?P<type>[A-Za-z][A-Za-z0-9 ]{{0,30}}) '(?P<name>{_IF})' link is ")
_LINK = "' link is "  # netifd's literal: only its lines that hold it are matched
_PLAIN = "Network device"  # netifd device.c simple_device_type.name
_MAX_LINE = 600


def declared_virtual(text: str) -> frozenset[str]:
    """The interface names the log's batman-adv and netifd lines declare virtual."""
    names: set[str] = set()
    if "batman_adv: " in text:
        names.update(_BATMAN.findall(text))
    if "netifd: " in text:
        names.update(_netifd_virtual(text))
    return frozenset(names)


def _netifd_virtual(text: str) -> set[str]:
    """Devices of netifd's own kinds (Bridge, MAC VLAN, VLAN ...): each "' link is " line's."""
    found: set[str] = set()
    at = text.find(_LINK)
    while at != -1:
        start = text.rfind("\n", 0, at) + 1
        end = text.find("\n", at)
        end = len(text) if end == -1 else end
        m = _NETIFD.search(text, start, end) if end - start <= _MAX_LINE else None
        if m is not None and m.group("type") != _PLAIN:
            found.add(m.group("name"))
        at = text.find(_LINK, end)
    return found


def bond_masters(log: DmesgResult | None) -> frozenset[str]:
    """The bonds the bonding driver's port lines name before their port ("bond0: (slave eth0):
    ...", "test: link status definitely down for interface wlan0, disabling it":
    dmesg_patterns_link's "bond_port"): a bond is software stacked on its ports, whatever its
    name, as the batman-adv and netifd names above are."""
    if log is None:
        return frozenset()
    return frozenset(e.fields["bond"] for e in log.of_kind("bond_port"))
