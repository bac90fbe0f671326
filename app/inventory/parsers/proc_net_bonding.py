"""``/proc/net/bonding/BOND``: a bond's mode and, per enslaved port, the port's own link.

The format is drivers/net/bonding/bond_procfs.c (the same in 6.1 and 6.12): bond_info_show_master()
prints the bond ("Bonding Mode: ...", "Currently Active Slave: ...", the bond's own "MII
Status: ..."), then bond_info_show_slave() one block per port:

    Slave Interface: %s
    MII Status: %s          bond_slave_link_status(): up, going down, down, going back
    Speed: %d Mbps          or "Speed: Unknown" (SPEED_UNKNOWN)
    Duplex: full|half       or "Duplex: Unknown" (DUPLEX_UNKNOWN)
    Link Failure Count: %u
    Permanent HW addr: %*phC

A port's speed and duplex are the port's own: bond_main.c bond_update_speed_duplex() reads them
with __ethtool_get_link_ksettings() on the slave device, as /sys/class/net/PORT/speed does
(net-sysfs.c speed_show()). So a port's lines say what its link is, and the bond (the file's
name) is no NIC: it only has ports. Lines before the first "Slave Interface:" are the bond's.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sbctune.limits import MAX_INTERFACES

from .common import Parsed, ParseWarning, finish, guarded, is_noise, split_lines

SOURCE = "/proc/net/bonding"

# bond_slave_link_status(): the words a port's "MII Status" can hold, as a link state
_MII_LINK = {"up": True, "down": False}  # "going down"/"going back"/"unknown": in between


@dataclass
class BondPort:
    name: str
    mii_status: str | None = None
    speed_mbps: int | None = None  # None: "Unknown"
    duplex: str | None = None  # "full" / "half"; None: "Unknown"
    link_failures: int | None = None
    permanent_mac: str | None = None

    @property
    def link(self) -> bool | None:
        return _MII_LINK.get(self.mii_status or "")


@dataclass
class BondStatus:
    mode: str | None = None
    active_port: str | None = None
    mii_status: str | None = None  # the bond's own (netif_carrier_ok() of the bond)
    ports: list[BondPort] = field(default_factory=list)


def parse_proc_net_bonding(text: str) -> Parsed[BondStatus]:
    """The bond's mode and its ports with each port's MII status, speed and duplex."""
    return guarded(SOURCE, _parse, text, BondStatus)


def _number(value: str) -> int | None:
    # bounded: no link is faster than 10**9 Mb/s, no count longer than a u32's ten digits
    return int(value) if value.isascii() and value.isdigit() and len(value) <= 10 else None


def _port_field(port: BondPort, key: str, value: str) -> bool:
    if key == "MII Status":
        port.mii_status = value[:20]
    elif key == "Speed":
        number, _, unit = value.partition(" ")
        port.speed_mbps = _number(number) if unit == "Mbps" else None
    elif key == "Duplex":
        port.duplex = value if value in ("full", "half") else None
    elif key == "Link Failure Count":
        port.link_failures = _number(value)
    elif key == "Permanent HW addr":
        port.permanent_mac = value[:64].lower()
    else:
        return False
    return True


def _bond_field(bond: BondStatus, key: str, value: str) -> bool:
    if key == "Bonding Mode":
        bond.mode = value[:80]
    elif key == "Currently Active Slave":
        bond.active_port = value[:16]
    elif key == "MII Status":
        bond.mii_status = value[:20]
    else:
        return False
    return True


# other lines bond_info_show_master() prints (read, not kept)
_BOND_KEYS = {
    "Transmit Hash Policy", "Primary Slave", "MII Polling Interval (ms)", "Up Delay (ms)",
    "Down Delay (ms)", "Peer Notification Delay (ms)", "ARP Polling Interval (ms)",
    "ARP Missed Max", "ARP IP target/s (n.n.n.n form)", "LACP active", "LACP rate", "Min links",
    "Aggregator selection policy (ad_select)", "System priority", "System MAC address",
    "Slave queue ID", "Aggregator ID", "Number of ports", "Actor Key", "Partner Key",
    "Partner Mac Address",
}  # fmt: skip
# the 802.3ad lines of a port (bond_info_show_slave(): churn states, the LACP PDUs' details)
_PORT_KEYS = {
    "Slave queue ID", "Aggregator ID", "Actor Churn State", "Partner Churn State",
    "Actor Churned Count", "Partner Churned Count", "system priority", "system mac address",
    "port key", "port priority", "port number", "port state", "oper key",
}  # fmt: skip


def _parse(text: str) -> Parsed[BondStatus]:
    bond = BondStatus()
    port: BondPort | None = None
    kept = unread = 0
    warnings: list[ParseWarning] = []
    for line in split_lines(text):
        if is_noise(line):
            continue
        key, sep, value = line.strip().partition(": ")
        if not sep:
            continue  # "802.3ad info", "Active Aggregator Info:", "details actor lacp pdu:"
        value = value.strip()
        if key == "Slave Interface":
            if len(bond.ports) >= MAX_INTERFACES:
                warnings.append(ParseWarning(SOURCE, "too many ports; the rest left"))
                break
            port = BondPort(name=value[:16])
            bond.ports.append(port)
            kept += 1
        elif _field(bond, port, key, value):
            kept += 1
        elif not _known(key, port is not None):
            unread += 1
    return bond, finish(SOURCE, text, kept, unread, warnings)


def _field(bond: BondStatus, port: BondPort | None, key: str, value: str) -> bool:
    """A line kept: a port's once its block began, the bond's before the first port."""
    return _port_field(port, key, value) if port is not None else _bond_field(bond, key, value)


def _known(key: str, in_port: bool) -> bool:
    """A line bond_procfs.c prints that is read and not kept (the driver's version, hash
    policy, delays, 802.3ad details)."""
    return (
        key == "Ethernet Channel Bonding Driver"
        or key in _BOND_KEYS
        or (in_port and key in _PORT_KEYS)
    )
