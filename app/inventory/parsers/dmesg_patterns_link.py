"""A NIC's own kernel log lines (a part of dmesg_patterns, kept apart by concern): its
registration and renames, the fixed formats of drivers' link, version, firmware, chip and MAC
lines, the shapes any driver's link and transmit-timeout lines take on its device, and the
lines of its PHY, its addresses and its probe. dmesg_patterns lists them in their order."""

from __future__ import annotations

from sbctune.inventory.parsers.dmesg_names import BUS_ID, IFACE, OLD_NETDEV, UNREGISTERED
from sbctune.inventory.parsers.dmesg_patterns_words import TX_TIMEOUT
from sbctune.inventory.parsers.lazy_pattern import Lazy as _Lazy

# An octet of usbnet's %pM as a post shows it: hex, or masked by its author ("24:xx:xx:xx:xx:xx",
# corpus/usbmg42_ds1819p_*); device_line_facts keeps only a whole hex MAC as the NIC's address
_SHOWN_OCTET = r"(?:[0-9a-fA-F]{2}|[xX*]{2})"
# ... or the whole address masked, colons and all ("xxxxxxxxxx", corpus/nas77_ds716p2_*): the
# last of usbnet_probe()'s fields is %pM, so a run of mask characters there is that address
_MASKED_MAC = r"[xX*]{6,17}"

NETDEV_NAMES: list[tuple[str, _Lazy]] = [
    (
        "register",
        _Lazy(
            r"^(?P<driver>\S+) (?P<device>\S+?):? (?P<iface>\S+): register '(?P<name>[^']+)' at "
            rf"(?P<bus>[^,]+), (?P<description>.*?), "
            rf"(?P<mac>{_SHOWN_OCTET}(?::{_SHOWN_OCTET}){{5}}|{_MASKED_MAC})$"
        ),
    ),
    (
        "renamed",
        _Lazy(r"^(?P<driver>\S+) (?P<device>\S+) (?P<iface>\S+): renamed from (?P<old>\S+)$"),
    ),
    (
        "renamed",
        _Lazy(r"^systemd-udevd\[\d+\]: renamed network interface (?P<old>\S+) to (?P<iface>\S+)$"),
    ),
]
DRIVER_LINES: list[tuple[str, _Lazy]] = [
    (
        # The bonding driver names each port (slave) it acts on after the bond's own name:
        # 6.1/6.12 bond_main.c through slave_info() (include/net/bonding.h: netdev_info(bond_dev,
        # "(slave %s): " fmt, slave_dev->name)), "bond0: (slave eth0): link status definitely
        # down, disabling slave" (bond_miimon_commit()), "Enslaving as ...", "Releasing ...",
        # "making interface the new active one"; kernels before slave_info() put the port's name
        # in the words: netdev_info(bond->dev, "link status definitely down for interface %s,
        # disabling it"), "making interface %s the new active one", "Releasing %s interface %s",
        # "Enslaving %s as ..." (a Pi 3B+'s 4.19 syslog, corpus/virt55_pi3bplus_linux_1988_*).
        # The port is a device of its own (a NIC, as /proc/net/bonding's ports are); the bond is
        # software stacked on it (build.py: bond_masters()).
        "bond_port",
        _Lazy(
            rf"^(?P<bond>{IFACE}): (?:\(slave (?P<iface>{IFACE})\): "
            r"(?:link status definitely (?P<state>up|down)\b)?"
            rf"|link status definitely (?P<state2>up|down) for interface (?P<iface2>{IFACE})\b"
            rf"|(?:making interface|Releasing (?:active|backup) interface|Enslaving) "
            rf"(?P<iface3>{IFACE})(?: |$))"
        ),
    ),
    (
        "link_up",  # phylink_link_up() and phy_print_status(): "%s/%s" of phy_speed_to_str() and
        # phy_duplex_to_str(), which says "Unknown" for DUPLEX_UNKNOWN (drivers/net/phy/phy-core.c):
        # the speed stands, the duplex is not known; phy_print_status() may add "(downshifted) "
        _Lazy(
            r"^(?P<driver>\S+) (?P<device>\S+) (?P<iface>\S+): Link is Up - "
            r"(?P<speed>\d+(?:\.\d+)?)(?P<unit>[GM])bps/(?:(?P<duplex>Full|Half)|Unknown)"
            r"(?: (?:\(downshifted\) )?- flow control (?P<flow>.+))?$"
        ),
    ),
    (
        "link_up",
        _Lazy(
            r"^(?P<driver>\S+) (?P<device>\S+) (?P<iface>\S+): (?:\S+: \S+ )?NIC Link is Up "
            r"(?P<speed>\d+) (?P<unit>[GM])bps (?P<duplex>Full|Half) Duplex"
        ),
    ),
    (
        "link_up",  # ixgbe_main.c ixgbe_watchdog_link_is_up() (6.1, 6.12): e_info(drv, "NIC Link
        # is Up %s, Flow Control: %s\n", speed_str, ...), speed_str one of "10 Gbps", "5 Gbps",
        # "2.5 Gbps", "1 Gbps", "100 Mbps", "10 Mbps": no duplex (full at those speeds)
        _Lazy(
            r"^(?P<driver>\S+) (?P<device>\S+) (?P<iface>\S+): NIC Link is Up "
            r"(?P<speed>\d+(?:\.\d+)?) (?P<unit>[GM])bps, Flow Control: "
        ),
    ),
    (
        "link_up",  # ixgbevf_main.c ixgbevf_watchdog_link_is_up() (6.1, 6.12): dev_info() on
        # the PCI function, no interface: "NIC Link is Up %s\n" with "10 Gbps", "1 Gbps",
        # "100 Mbps" (each an IXGBE_LINK_SPEED_*_FULL) or "unknown speed"; no duplex printed
        _Lazy(
            r"^(?P<driver>\S+) (?P<device>\S+): NIC Link is Up "
            r"(?P<speed>\d+(?:\.\d+)?) (?P<unit>[GM])bps$"
        ),
    ),
    (
        "link_down",  # ixgbevf_watchdog_link_is_down(): dev_info(&adapter->pdev->dev, "NIC Link
        # is Down\n") (6.1, 6.12), on the PCI function like its link-up line
        _Lazy(r"^(?P<driver>\S+) (?P<device>\S+): NIC Link is Down$"),
    ),
    (
        "link_up",  # tg3.c tg3_link_report() (6.1, 6.12): netdev_info(tp->dev, "Link
        # is up at %d Mbps, %s duplex\n", ...) with "full" or "half"
        _Lazy(
            r"^(?P<driver>\S+) (?P<device>\S+) (?P<iface>\S+): Link is up at (?P<speed>\d+) "
            r"(?P<unit>M)bps, (?P<duplex>full|half) duplex$"
        ),
    ),
    (
        "link_up",
        _Lazy(
            r"^(?P<driver>\S+) (?P<device>\S+) (?P<iface>\S+): link up, (?P<speed>\d+)"
            r"(?P<unit>[GM])bps, (?P<duplex>full|half)-duplex"
        ),
    ),
    (
        "link_down",
        _Lazy(r"^(?P<driver>\S+) (?P<device>\S+) (?P<iface>\S+): Link is Down$"),
    ),
    (
        "driver_version",
        _Lazy(
            r"^(?P<driver>\S+) (?P<device>\S+) (?P<iface>\S+): (?P<version>v\d[\w.]*"
            r"(?: \([^)]*\))?)$"
        ),
    ),
    (
        "firmware",
        _Lazy(
            r"^(?P<driver>\S+) (?P<device>\S+): load (?P<firmware>\S+) v(?P<version>\S+)"
            r"(?: (?P<date>\S+))? successfully$"
        ),
    ),
    (
        "chip",  # r8169: "eth0: RTL8125B, 00:e0:4c:..., XID 641, IRQ 38" (3.x: "RTL8168d/8111d
        # at 0xd096c000, fc:f5:..., XID 083000c0 IRQ 83")
        _Lazy(
            r"^(?P<driver>\S+) (?P<device>\S+) (?P<iface>\S+): (?P<chip>RTL[\w/-]+),? (?:at "
            r"0x[0-9a-f]+, )?(?P<mac>[0-9a-fA-F:]{17}), XID (?P<xid>\w+),? IRQ (?P<irq>\d+)"
        ),
    ),
    (
        "chip",  # ath10k_debug_print_hwfw_info() (ath10k/debug.c): "%s target 0x%08x chip_id
        # 0x%08x sub %04x:%04x" with hw_params.name: "qca9377 hw1.1", "qca9984/qca9994 hw1.0"
        _Lazy(
            r"^(?P<driver>[\w-]+) (?P<device>\S+): (?P<chip>[a-z]+\d[\w/]*) hw\d[\d.]*"
            r"(?: [a-z]+)? target 0x[0-9a-f]+ chip_id 0x"
        ),
    ),
    (
        "chip",  # rtl8xxxu_print_chipinfo() (rtl8xxxu/core.c), dev_info() on the USB device:
        # "usb 1-1: RTL8188FU rev B (SMIC) romver 0, 1T1R, TX queues 2, WiFi=1, ..."
        _Lazy(
            r"^usb (?P<device>\d+-[\d.]+): (?P<chip>RTL\w+) rev [A-Z] \(\w+\) romver \d+, "
            r"\d+T\d+R"
        ),
    ),
    (
        "description",  # igb/igc/e1000e: "igb 0000:01:00.0: Intel(R) Gigabit Ethernet ..."
        _Lazy(r"^(?P<driver>\S+) (?P<device>\S+): (?P<description>Intel\(R\) .*)$"),
    ),
    (
        "pcie_link",  # igb: "igb 0000:01:00.0: eth0: (PCIe:2.5Gb/s:Width x1) 00:0d:..."
        _Lazy(
            r"^(?P<driver>\S+) (?P<device>\S+): (?P<iface>\S+): \(PCIe:(?P<speed>[\d.]+)"
            r"(?:Gb/s|GT/s):Width x(?P<width>\d+)\)(?: (?P<mac>[0-9a-fA-F:]{17}))?"
        ),
    ),
    (
        "pcie_bandwidth",
        _Lazy(
            r"^(?P<driver>\S+) (?P<device>\S+): (?P<gbps>[\d.]+) Gb/s available PCIe bandwidth"
            r"(?:, limited by (?P<speed>[\d.]+) GT/s PCIe x(?P<width>\d+) link at (?P<at>\S+)"
            r" \(capable of (?P<capable_gbps>[\d.]+) Gb/s with (?P<max_speed>[\d.]+) GT/s "
            r"PCIe x(?P<max_width>\d+) link\)| \((?P<speed2>[\d.]+) GT/s PCIe x(?P<width2>\d+) "
            r"link\))"
        ),
    ),
    (
        "mac",
        _Lazy(
            r"^(?P<driver>\S+) (?P<device>\S+) (?P<iface>\S+): MAC: "
            r"(?P<mac>[0-9a-fA-F]{2}(?::[0-9a-fA-F]{2}){5})$"
        ),
    ),
]
GENERIC_LINK: list[tuple[str, _Lazy]] = [
    (
        "tx_timeout",
        _Lazy(r"NETDEV WATCHDOG: (?P<iface>\S+) \((?P<driver>[^)]+)\): transmit queue"),
    ),
    (
        "tx_timeout",  # since 6.1 (net/sched/sch_generic.c dev_watchdog, netdev_crit)
        _Lazy(
            rf"^(?P<driver>[\w-]+) (?P<device>{BUS_ID}) (?P<iface>[\w.-]+): NETDEV WATCHDOG: "
            r"(?:CPU: \d+: )?transmit queue (?P<queue>\d+) timed out"
        ),
    ),
    # a driver's own ndo_tx_timeout words: "eth0: transmit timed out" (30-odd in messages.tsv)
    ("tx_timeout", _Lazy(rf"^(?P<driver>[\w-]+) (?P<device>{BUS_ID}) ?{TX_TIMEOUT}")),
    ("csum_failure", _Lazy(r"^(?P<iface>\S+): hw csum failure")),
    (
        "link_up",  # mtk_soc_eth "eth0: port 2 link up", stmmac "Link is Up - 1Gbps/Full";
        # vendor drivers' own words: nss-dp "eth0: PHY Link up speed: 1000" (Mbit/s); a speed
        # alone, no duplex: Realtek's RTD129x build of r8169 "98016000.gmac eth0: link up 1 Gbps";
        # a duplex alone: enc28j60_check_link_status() "link up - Half duplex"
        _Lazy(
            rf"^(?P<driver>[\w-]+) (?P<device>{BUS_ID}) (?P<iface>[\w.-]+): "
            r"(?:port (?P<port>\d+) |PHY )?(?:carrier on|[Ll]ink (?:is )?[Uu]p)\b"
            r"(?:\W+(?P<speed>\d+(?:\.\d+)?)\s?(?P<unit>[GM])?(?:bps|b/s)?"
            r"\W+(?P<duplex>[Ff]ull|[Hh]alf)|,? speed:? (?P<speed2>[1-9]\d{1,5})$"
            r"| (?P<speed3>[1-9]\d*(?:\.\d+)?) ?(?P<unit3>[GM])bps$|\W+(?P<duplex2>[Ff]ull|[Hh]alf)"
            r"[ -][Dd]uplex$"
            r"| - Unknown/(?P<duplex3>Full|Half))?"  # phy-core.c phy_speed_to_str(SPEED_UNKNOWN)
        ),
    ),
    (
        "link_down",
        _Lazy(
            rf"^(?P<driver>[\w-]+) (?P<device>{BUS_ID}) (?P<iface>[\w.-]+): "
            r"(?:port (?P<port>\d+) |PHY |(?:\S+: \S+ )?NIC )?"  # nss-dp "eth0: PHY Link is down"
            r"(?:carrier off|[Ll]ink (?:is )?[Dd]own)\b"
        ),
    ),
    (
        "link_down",  # dev_info(dev, "%s: link down", ndev->name): "wemac wemac.0: eth0: link down"
        _Lazy(
            rf"^(?P<driver>[\w-]+) (?P<device>{BUS_ID}): (?P<iface>[a-z][\w.-]{{0,14}}): "
            r"(?:carrier off|[Ll]ink (?:is )?[Dd]own)\b"
        ),
    ),
    (
        "link_up",  # vendor r8125: "r8125: eth0: link up" (not "eth0: status: link up, ...", an
        # interface's own line); atlantic "link change old 0 new 10000"
        _Lazy(
            rf"^(?!{OLD_NETDEV}: )(?P<driver>[\w-]+): (?P<iface>[\w.-]+): link up\b|"
            rf"^(?P<driver2>[\w-]+) (?P<device>{BUS_ID}) (?P<iface2>[\w.-]+): \w+: link change "
            r"old \d+ new (?P<speed>[1-9]\d*)$"
        ),
    ),
    # vendor r8125's "r8125: eth0: link down"; a head shaped like an interface is no driver:
    # "eth0: status: link down." is the 2.6-era fec's own line (catalog/old_formats.py)
    (
        "link_down",
        _Lazy(rf"^(?!{OLD_NETDEV}: )(?P<driver>[\w-]+): (?P<iface>[\w.-]+): link down\b"),
    ),
    (
        "phy_failure",  # davinci_mdio's bus failed; not a device ON one ("mdio-bus:1f": a switch)
        _Lazy(rf"^(?P<driver>[\w-]*mdio[\w-]*): probe of (?!\S+:\w\w )(?P<device>{BUS_ID}) failed"),
    ),
    (
        "link_up",  # cdc_ncm 6-1:2.0 enx...: 2500 mbit/s downlink 2500 mbit/s uplink
        _Lazy(
            rf"^(?P<driver>[\w-]+) (?P<device>{BUS_ID}) (?P<iface>[\w.-]+): "
            r"(?P<speed>[1-9]\d*) mbit/s downlink"
        ),
    ),
]
PHY_ATTACHED: list[tuple[str, _Lazy]] = [
    (
        "phy_attached",  # phylink/phylib: "eth0: PHY [stmmac-0:01] driver [RTL8211F Gigabit ...]"
        _Lazy(
            rf"^(?P<driver>[\w-]+) (?P<device>{BUS_ID}) (?P<iface>[\w.-]+){UNREGISTERED}: "
            r"PHY \[[^\]]+\] driver \[(?P<phy>[^\]]{1,80})\]"
        ),
    ),
    (
        # phy_device.c phy_attached_print()'s ATTACHED_FMT through phydev_info(): the PHY named
        # by its driver and its MDIO device only, "<bus id>:<addr>", no MAC or interface:
        # "RTL8211E Gigabit Ethernet stmmac-0:00: attached PHY driver [RTL8211E Gigabit
        # Ethernet] (mii_bus:phy_addr=stmmac-0:00, irq=POLL)" (4.19; 6.1 and 6.12 print
        # "attached PHY driver (mii_bus:phy_addr=...", the driver's name in brackets gone)
        "phy_on_mdio",
        _Lazy(
            r"^(?P<phy>[^\s:\[\]][^:\[\]]{0,78}?) (?P<mdio>[A-Za-z][\w.-]{0,40}):"
            r"(?P<addr>[\da-f]{2}): attached PHY driver (?:\[[^\]]{0,80}\] ?)?"
            r"\(mii_bus:phy_addr="
        ),
    ),
]
NETDEV_LATE: list[tuple[str, _Lazy]] = [
    (
        "vendor_register",  # Realtek's r8125/r8168: "eth0: 0xffffc900..., c4:83:..., IRQ 22"
        _Lazy(
            r"^(?P<iface>[a-z][\w.-]{1,14}): 0x[0-9a-f]+, (?P<mac>[0-9a-fA-F:]{17}), "
            r"IRQ (?P<irq>\d+)"
        ),
    ),
    (
        "phy_link_up",  # libphy: 63fec000.etherne:00 - Link is Up - 100/Full
        _Lazy(
            r"^libphy: (?P<phy>[\w.@-]+):\w+ - Link is Up - (?P<speed>\d+)/(?P<duplex>Full|Half)"
        ),
    ),
    ("phy_link_down", _Lazy(r"^libphy: (?P<phy>[\w.@-]+):\w+ - Link is Down")),
    (
        "carrier_up",
        _Lazy(r"ADDRCONF\(NETDEV_CHANGE\): (?P<iface>[\w.-]+): link becomes ready"),
    ),
    ("netdev_up", _Lazy(r"ADDRCONF\(NETDEV_UP\): (?P<iface>[\w.-]+): link is not ready")),
    (
        # an interface's own line of capital words and an address, by any name: the USB
        # gadget's u_ether prints "usb0: HOST MAC de:c1:..." / "rndis0: HOST MAC ..." (6.1's
        # INFO()); which formats are whose is kernel_source/gadget_ether.json's to say
        "iface_address",
        _Lazy(
            rf"^(?P<iface>{IFACE}): [A-Z][A-Z ]{{1,30}} "
            r"[0-9a-fA-F]{2}(?::[0-9a-fA-F]{2}){5}$"
        ),
    ),
    (
        # OpenWrt's netifd on a plain netdev's carrier (netifd device.c device_set_link():
        # netifd_log_message(L_NOTICE, "%s '%s' link is %s\n", dev->type->name, dev->ifname,
        # state ? "up" : "down"), "Network device" being simple_device_type's name): the
        # kernel's carrier as netifd saw it. netifd's own kinds (Bridge, VLAN ...) are virtual
        # (inventory/virtual_declared.py) and not read here.
        "netifd_link",
        _Lazy(
            r"(?:^|\s)netifd: Network device '(?P<iface>[^'\s/:]{1,15})' link is "
            r"(?P<state>up|down)$"
        ),
    ),
    (
        # a bridge's port and a device put into promiscuous mode exist, whatever else the log
        # says of them (net/bridge/br_stp.c br_log_state(); net/core/dev.c
        # __dev_set_promiscuity()'s "device %s %s promiscuous mode" before 6.3), and so does
        # the device a packet came in on that the netfilter LOG target printed right after
        # the rule's own prefix (net/netfilter/nf_log_syslog.c nf_log_dump_packet_common():
        # "%sIN=%s OUT=%s ", then MAC=/SRC= or a bridge's PHYSIN=, 6.1 and 6.12;
        # nf_log_common.c before 5.12); the first "=" of the line is IN='s
        "iface_named",
        _Lazy(
            r"^(?:[\w.-]{1,15}: port \d+\((?P<iface>[\w.-]{1,15})\) entered [a-z]+ state$|"
            r"device (?P<iface2>[\w.-]{1,15}) (?:entered|left) promiscuous mode$|"
            r"[^=]{0,60}IN=(?P<iface3>[\w.-]{1,15}) OUT=[\w.-]{0,15} (?:MAC|SRC|PHYSIN|PHYSOUT)=)"
        ),
    ),
    (
        "ip_config",  # net/ipv4/ipconfig.c: a DHCP/BOOTP/RARP answer, then the device it set up
        # ("device=%s, hwaddr=%*phC, ipaddr=%pI4, ..." in 6.1/6.12 ip_auto_config(); 2.6.x
        # printed "\n     device=%s" then ", addr=%pI4" in pieces: 2.6.35's ip_auto_config(),
        # darkspr1te/seagate_central_cns3420_2-6-35@8ebe4afa net/ipv4/ipconfig.c)
        _Lazy(
            r"^(?:IP-Config: Got (?P<answer>DHCP|BOOTP|RARP) answer from|device=(?P<iface>"
            r"[\w.-]+), (?:hwaddr=(?P<mac>[0-9a-fA-F]{2}(?::[0-9a-fA-F]{2}){5})|addr=\d))"
        ),
    ),
    (
        "phy_failure",  # also on the interface alone: stmmac's "eth0: Could not attach to PHY"
        _Lazy(
            rf"^(?:(?P<driver>[\w-]+) (?P<device>{BUS_ID})(?: (?P<iface>[\w.-]+))?{UNREGISTERED}: |"
            rf"(?P<iface2>{OLD_NETDEV}): )?.*?"
            r"(?i:cannot attach to phy|could not attach (?:to )?phy|no phy at addr|"
            # fec: "Unable to connect to phy" (fec_main.c fec_enet_mii_probe())
            r"(?:failed to|unable to|could not|cannot) connect (?:to )?(?:the |fixed )?phy|"
            # the other word orders of the 6.1/6.12 drivers' PHY-connect errors (messages.tsv,
            # checked by test_unseen_classes67): hisi_femac.c "connect to PHY failed!",
            # bgmac.c "Connecting PHY failed", "PHY connection failed", sunplus "Failed to
            # connect phy!", ll_temac "phy_connect() failed", emac/core.c "failed to attach dt
            # phy", icssg "can't connect to MII0 PHY", lan78xx "can't attach PHY to %s"
            r"connect(?:ing)? (?:to )?phy failed|phy connection failed|"
            r"(?:failed to|can'?t) (?:attach|connect to) (?:dt |mii\d )?phy|"
            r"\b(?:of_|phylink_of_)?phy_(?:connect|attach)\w*(?:\(\))? failed|"
            # not the regulator core's "supply %s not found, using dummy regulator" about a
            # (USB) PHY device's power (drivers/regulator/core.c _regulator_get(), 6.1/6.12):
            # "usb_phy_generic phy: supply vcc not found" names no missing Ethernet PHY
            r"(?<!supply )phy\b(?: \"[^\"]{1,200}\")?(?:(?!supply ).){0,40}\bnot found|"
            r"no phy found|"
            r"mdio\S*: probe of (?!\S+:\w\w )\S+ failed)"
        ),
    ),
    (
        "mdio_named",  # an old kernel's line on the interface alone naming its MDIO bus's PHY
        _Lazy(
            rf"^(?P<iface>{OLD_NETDEV}): .*?"
            r"\((?P<mdio>[a-z]\w{0,30}-[0-9a-f]{1,8}):[0-9a-f]{2}\)"
        ),
    ),
    (
        "probe_failed",  # drivers/base/dd.c call_driver_probe: 6.1 pr_warn, 6.12 dev_err
        _Lazy(
            rf"^(?P<driver>[\w-]+): probe of (?P<device>{BUS_ID}) failed with error "
            r"(?P<errno>-?\d+)|"
            rf"^(?P<driver2>[\w-]+) (?P<device2>{BUS_ID}): probe with driver [\w-]+ failed "
            r"with error (?P<errno2>-?\d+)|"
            # a device named as its driver, no bus form: a platform device with no id, which
            # platform_device_add() names "%s" alone and platform_match() binds by that name
            r"^(?P<driver3>[\w-]{2,32}): probe of (?P<device3>(?P=driver3)) failed with error "
            r"(?P<errno3>-?\d+)"
        ),
    ),
    (
        "kevent_dropped",
        _Lazy(
            rf"^(?P<driver>[\w-]+) (?P<device>{BUS_ID}) (?P<iface>[\w.-]+): "
            r"kevent (?P<kevent>\d+) may have been dropped"
        ),
    ),
]
LINK_NEEDLES: dict[str, tuple[str, ...]] = {
    "bond_port": ("(slave ", "for interface ", "making interface ", "Releasing ", "Enslaving "),
    "register": ("register '",),
    "renamed": ("renamed",),
    "link_up": (
        "downlink",
        "ink is Up",
        "link up",
        "ink Is Up",
        "ink up",
        "ink is up",
        "link change",
        "carrier on",
        "Link Speed",
    ),
    "link_down": ("ink is Down", "link down", "ink Down", "ink down", "ink is down", "carrier off"),
    "driver_version": (": v",),
    "firmware": ("successfully",),
    "chip": ("XID", " chip_id 0x", ") romver "),
    "description": ("Intel(R)",),
    "pcie_link": ("(PCIe:",),
    "pcie_bandwidth": ("PCIe bandwidth",),
    "mac": ("MAC: ",),
    "tx_timeout": ("WATCHDOG", "imed out", "imeout", "ime out"),
    "probe_failed": ("failed with error",),
    "csum_failure": ("csum failure",),
    "phy_link_up": ("libphy",),
    "phy_attached": ("PHY [",),
    "phy_on_mdio": ("attached PHY driver",),
    "vendor_register": (", IRQ ",),
    "phy_link_down": ("libphy",),
    "carrier_up": ("NETDEV_CHANGE",),
    "netdev_up": ("NETDEV_UP",),
    "iface_address": (" MAC ",),
    "iface_named": (" state", "promiscuous", " OUT="),
    "netifd_link": ("netifd: Network device '",),
    "ip_config": (" answer from", "device="),
    "phy_failure": ("PHY", "phy", "probe of", "is missing"),
    "mdio_named": ("PHY",),
    "kevent_dropped": ("kevent",),
}
