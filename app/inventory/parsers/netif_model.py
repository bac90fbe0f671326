"""What the interface parsers produce (one module, so the parsers of each format can share
it without importing each other)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class IpAddress:
    family: str  # "inet" / "inet6"
    address: str
    prefixlen: int | None = None
    netmask: str | None = None
    broadcast: str | None = None
    scope: str | None = None


@dataclass
class NetInterface:
    name: str
    index: int | None = None
    parent: str | None = None  # "if6" in "veth0@if6"
    flags: list[str] = field(default_factory=list)
    mtu: int | None = None
    operstate: str | None = None
    link_type: str | None = None
    mac: str | None = None
    qdisc: str | None = None
    master: str | None = None  # "master hassio": the bridge/bond/team this one is a port of
    addresses: list[IpAddress] = field(default_factory=list)
    altnames: list[str] = field(default_factory=list)
    rx_bytes: int | None = None
    rx_packets: int | None = None
    rx_errors: int | None = None
    rx_dropped: int | None = None
    tx_bytes: int | None = None
    tx_packets: int | None = None
    tx_errors: int | None = None
    tx_dropped: int | None = None
    irq: int | None = None  # old ifconfig's "Interrupt:46"
    driver: str | None = None  # the driver a tool names beside it (nmcli's "ethernet (veth)")
    software: bool | None = None  # the tool's own word: nmcli's "sw"/"hw"

    @property
    def is_up(self) -> bool | None:
        if self.operstate:
            return self.operstate.upper() == "UP"
        if self.flags:
            return "UP" in self.flags and "NO-CARRIER" not in self.flags
        return None

    @property
    def has_carrier(self) -> bool | None:
        if "NO-CARRIER" in self.flags:
            return False
        if "LOWER_UP" in self.flags or "RUNNING" in self.flags:
            return True
        if "UP" in self.flags and "BROADCAST" in self.flags and "LOWER_UP" not in self.flags:
            return False  # up but not RUNNING (ifconfig) / no LOWER_UP (ip): no carrier
        # Set down (`<BROADCAST,MULTICAST> ... state DOWN`, or BusyBox ip's `qdisc noop` line
        # with no state at all): nothing was opened, so no line says whether a cable answers.
        # The kernel's flags say only that the admin did not bring it up (IFF_UP unset;
        # LOWER_UP is netif_carrier_ok(), which a driver sets from its PHY once opened:
        # net/core/dev.c dev_get_flags(), 6.1 and 6.12): the carrier is unknown, not off
        # (Nic.set_down carries what the flags do say).
        return None

    @property
    def ipv4(self) -> list[str]:
        return [a.address for a in self.addresses if a.family == "inet"]


@dataclass
class NetInterfaces:
    interfaces: list[NetInterface] = field(default_factory=list)

    def get(self, name: str) -> NetInterface | None:
        for i in self.interfaces:
            if i.name == name:
                return i
        return None

    @property
    def names(self) -> list[str]:
        return [i.name for i in self.interfaces]
