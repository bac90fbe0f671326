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

Such a name is no NIC of its own (a bridge, a macvlan, a mesh interface): build.py leaves out a
device that only these names identify. Text from a Pi is never made a regex; each line is
looked at only when it holds the daemon's or module's literal, so a long log costs one scan."""

from __future__ import annotations

import re

_IF = r"[A-Za-z_][\w.-]{0,14}"  # dev_valid_name(): below IFNAMSIZ, no "/", ":" or space
_BATMAN = re.compile(rf"(?:^|[\s\]])batman_adv: (?P<name>{_IF}): ")
_NETIFD = re.compile(
    rf"(?:^|\s)netifd: (?P<type>[A-Za-z][A-Za-z0-9 ]{{0,30}}?) '(?P<name>{_IF})' link is "
    r"(?:up|down)\s*$"
)
_PLAIN = "Network device"  # netifd device.c simple_device_type.name
_MAX_LINE = 600


def declared_virtual(text: str) -> frozenset[str]:
    """The interface names the log's batman-adv and netifd lines declare virtual."""
    if "batman_adv: " not in text and "netifd: " not in text:
        return frozenset()
    names: set[str] = set()
    for line in text.splitlines():
        if len(line) > _MAX_LINE:
            continue
        if "batman_adv: " in line and (m := _BATMAN.search(line)):
            names.add(m.group("name"))
        elif "' link is " in line and (m := _NETIFD.search(line)) and m.group("type") != _PLAIN:
            names.add(m.group("name"))  # netifd's own kinds: Bridge, MAC VLAN, VLAN ...
    return frozenset(names)
