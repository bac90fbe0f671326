"""Interfaces that a bundle's listings show with no hardware link layer, whatever they are named.

A TUN device (Tailscale, Nebula, OpenVPN, NordVPN's "nordtun"), WireGuard ("nordlynx", "wg0",
any name its user picks) and PPP carry IP with no link-layer header: tun.c tun_net_init() for
IFF_TUN sets ``dev->type = ARPHRD_NONE`` and ``IFF_POINTOPOINT | IFF_NOARP | IFF_MULTICAST``,
wireguard/device.c wg_setup() ``ARPHRD_NONE`` and ``IFF_POINTOPOINT | IFF_NOARP``, ppp_generic.c
ppp_setup() ``ARPHRD_PPP`` (6.1 and 6.12 alike). The listings print that type: ip's
``link/none``, ``link/ppp`` (iproute2 lib/ll_types.c), net-tools' ``unspec 00-00-...  (UNSPEC)``
and ``ppp ... (Point-to-Point Protocol)`` (lib/hw.c), ``Link encap:UNSPEC`` in the old format,
and sysfs ``/sys/class/net/X/type`` the number (65534, 512). Tunnels over IP (ipip, sit, gre)
have their own types.

The type alone does not make a device virtual: qmi_wwan in raw-IP mode sets the same
``ARPHRD_NONE`` and flags (qmi_wwan.c qmi_wwan_netdev_setup()), mhi_net ``ARPHRD_RAWIP``. So,
as for the names a log declares virtual (virtual_declared.py), build.py leaves out only a
device that such names alone identify: no bus key, driver or IDs of its own. A modem's wwan0
that a driver line names stays a NIC; a name list is then needed only where a paste shows the
name and nothing else (an ``ethtool tailscale0`` alone, sightings._VIRTUAL)."""

from __future__ import annotations

from sbctune.inventory.raw import Parsed

# link types as ip (ll_types.c) and net-tools (hw.c) name them, lower case: no Ethernet or
# Wi-Fi header under IP (ARPHRD_NONE, VOID, PPP, the IP-in-IP tunnels)
_NO_LINK_LAYER = frozenset(
    {
        "none", "void", "unspec", "ppp", "point-to-point protocol",
        "ipip", "tunnel", "ipip tunnel", "tunnel6", "sit", "ipv6-in-ipv4", "gre", "gre6",
        "ip6gre",
    }
)  # fmt: skip
# include/uapi/linux/if_arp.h: ARPHRD_PPP 512, TUNNEL 768, TUNNEL6 769, SIT 776, IPGRE 778,
# IP6GRE 823, VOID 0xFFFF, NONE 0xFFFE
_NO_LINK_LAYER_TYPES = frozenset({"512", "768", "769", "776", "778", "823", "65535", "65534"})
_TYPE_FILE = ("/sys/class/net/", "/type")


def listed_virtual(parsed: Parsed) -> frozenset[str]:
    """The interface names whose ip/ifconfig/sysfs lines show no hardware link layer."""
    names: set[str] = set()
    for netif in parsed.netifs.interfaces:
        kind = (netif.link_type or "").lower()
        if kind in _NO_LINK_LAYER or (not kind and _point_to_point(netif.flags, netif.mac)):
            names.add(netif.name)
    for path, value in parsed.sysfs.items():
        if path.startswith(_TYPE_FILE[0]) and path.endswith(_TYPE_FILE[1]):
            name = path[len(_TYPE_FILE[0]) : -len(_TYPE_FILE[1])]
            if "/" not in name and value.strip() in _NO_LINK_LAYER_TYPES:
                names.add(name)
    return frozenset(names)


def _point_to_point(flags: list[str], mac: str | None) -> bool:
    """POINTOPOINT and NOARP with no hardware address shown: a listing that names no type
    (an old ifconfig cut before its encapsulation) of a device with no link-layer header."""
    return "POINTOPOINT" in flags and "NOARP" in flags and not mac
