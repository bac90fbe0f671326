"""Link lines in a driver's own words (a part of dmesg_patterns, kept apart to keep that module
small): 2.6-era drivers that named their function after the interface, and drivers that state
their link in words of their own (ax88179's number, aqc111's speeds, e1000's NIC Link line).
OWN_WORDS_FIRST goes before the generic link shapes (which would take "eth0" for a device and
the function for the interface), own_words() anywhere: it takes the kernel device-name shape
(dmesg_names.BUS_ID). Their needles, OWN_WORDS_NEEDLES, join
dmesg_patterns'."""

from __future__ import annotations

from sbctune.inventory.parsers.lazy_pattern import Lazy as _Lazy

# A driver's own ndo_tx_timeout words, after its device: "eth0: transmit timed out", or with no
# interface, as sun4i-emac.c emac_timeout() prints "tx time out." on its platform device
TX_TIMEOUT = (
    r"(?P<iface>[\w.-]+)?: (?i:(?:detected |[\w-]+ )?(?:transmit|tx)[ _]time(?:d out| ?out))\b"
)

OWN_WORDS_FIRST: list[tuple[str, _Lazy]] = [
    # 2.6-era drivers named the function after the interface: e1000's DPRINTK() printed
    # PFX "%s: %s: " (netdev name, __FUNCTION__): "e1000: eth0: e1000_watchdog_task: NIC Link is
    # Up 1000 Mbps Full Duplex" (corpus/x86_fc4_lkml_2006_*); before the shapes that would take
    # "eth0" for a device and the function for the interface
    (
        "link_up",
        _Lazy(
            r"^(?P<driver>[\w-]+): (?P<iface>[\w.-]+): \w+: NIC Link is Up (?P<speed>\d+) "
            r"(?P<unit>M)bps (?P<duplex>Full|Half) Duplex"
        ),
    ),
    ("link_down", _Lazy(r"^(?P<driver>[\w-]+): (?P<iface>[\w.-]+): \w+: NIC Link is Down")),
    # A net_device's own struct device prints as "net IFACE:" (class "net", no bus): TI's 3.x
    # cpsw named itself so ("net eth0: initializing cpsw version 1.12 (0)", cpsw.c
    # cpsw_ndo_open()'s cpsw_info(); corpus/bbb_meta_beagleboard_pr4_*): the interface's driver
    (
        "net_named",
        _Lazy(r"^net (?P<iface>[a-z][\w.-]{0,14}): initializing (?P<driver>[a-z][\w-]*) "),
    ),
]


def own_words(bus_id: str) -> list[tuple[str, _Lazy]]:
    """These shapes, then BARE_LINK (below)."""
    return [*_own_words(bus_id), *BARE_LINK]


def _own_words(bus_id: str) -> list[tuple[str, _Lazy]]:
    return [
        (
            # ax88179_178a.c ax88179_link_reset(): netdev_info "ax88179 - Link status is: 1"
            "link_up",
            _Lazy(
                rf"^(?P<driver>[\w-]+) (?P<device>{bus_id}) (?P<iface>[\w.-]+): "
                r"\w+ - Link status is: 1$"
            ),
        ),
        (
            "link_down",  # ... and ax88179_status() / ax88179_link_reset() when the link drops
            _Lazy(
                rf"^(?P<driver>[\w-]+) (?P<device>{bus_id}) (?P<iface>[\w.-]+): "
                r"\w+ - Link status is: 0$"
            ),
        ),
        (
            # aqc111 (usb/aqc111.c aqc111_configure_rx()): "Link Speed %d, USB %d" in Mbit/s
            "link_up",
            _Lazy(
                rf"^(?P<driver>[\w-]+) (?P<device>{bus_id}) (?P<iface>[\w.-]+): "
                r"Link Speed (?P<speed>[1-9]\d*), USB (?P<usb_gen>\d)$"
            ),
        ),
        (
            # e1000: "e1000: ens32 NIC Link is Up 1000 Mbps Full Duplex, Flow Control: None"
            "link_up",
            _Lazy(
                r"^(?P<driver>[\w-]+): (?P<iface>[\w.-]+) NIC Link is Up (?P<speed>\d+) "
                r"(?P<unit>M)bps (?P<duplex>Full|Half) Duplex"
            ),
        ),
        # ... and its Down, as 3.x e1000e printed it (pr_info "%s NIC Link is Down" after pr_fmt
        # "e1000e: "; corpus/ds2413_bbqq_r8152_252_*): an info line, no failure of the driver
        ("link_down", _Lazy(r"^(?P<driver>[\w-]+): (?P<iface>[\w.-]+) NIC Link is Down$")),
    ]


# A driver that names no device before the interface: 2.6-era and OpenWrt ar71xx's ag71xx
# (ag71xx_phy.c ag71xx_phy_link_adjust(): pr_info("%s: link up (%sMbps/%s duplex)") and "%s:
# link down", ag->dev->name: corpus/rocket_m5_aredn_450_*, corpus/unifi_ap_openwrt_5095_*): the
# interface alone, by a network interface's name (so "ata1: link down" or a bridge's "br-lan:
# ..." is none)
_BARE_IFACE = r"^(?P<iface>(?:eth|lan|wlan)\d+(?:\.\d+)?|wan|en[opsxP]\w+|wl[opsx]\w+)"
BARE_LINK: list[tuple[str, _Lazy]] = [
    (
        "link_up",
        _Lazy(
            _BARE_IFACE + r": link up(?: \((?P<speed>[1-9]\d*)(?P<unit>M)bps/"
            r"(?P<duplex>Full|Half) duplex\))?$"
        ),
    ),
    ("link_down", _Lazy(_BARE_IFACE + r": link down$")),
]

OWN_WORDS_NEEDLES: dict[str, tuple[str, ...]] = {
    "link_up": ("status is: 1",),
    "link_down": ("status is: 0",),
    "net_named": ("initializing ",),
}
