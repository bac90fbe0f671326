"""The kernel log lines the inventory reads: one (kind, pattern) per line shape, first match
wins, and the literal needles that must appear for a pattern to be tried (a cheap test first:
a long log has few NIC lines). Patterns are constants; no text from a Pi is made a regex.
A new shape stays cheap by the rules in the docstring of parsers/dmesg.py."""

from __future__ import annotations

from sbctune.catalog.child_devices import pattern as _child_pattern
from sbctune.inventory.parsers import dmesg_patterns_words as _words
from sbctune.inventory.parsers.dmesg_patterns_bus import PCIE_NEEDLES, PCIE_PATTERNS
from sbctune.inventory.parsers.dmesg_patterns_trace import TRACE_NEEDLES, TRACE_PATTERNS
from sbctune.inventory.parsers.lazy_pattern import Lazy as _Lazy

# A device's name: PCI address, USB interface, device-tree platform device ("fe300000.ethernet"),
# SDIO function, or a platform device of a board file before device trees: "<name>.<id>"
# (drivers/base/platform.c, platform_device_add(): "%s.%d", and "%s.%d.auto" for automatic ids).
PRE_DT_PLATFORM = r"[a-z][a-z0-9_-]{1,30}\.\d{1,3}(?:\.auto)?"
# A device-tree node whose address did not translate (of_device_make_bus_id(): "%s:%s" of
# each node's base name up the tree), as on PowerPC: "soc@ffe00000:ethernet@b0000"; a node
# right below the root is named alone: "switch@1b000000" (OpenWrt's RTL930x switch).
OF_NAMED = r"[a-z][\w-]{0,30}@[0-9a-f]{1,16}(?::[a-z][\w-]{0,30}@[0-9a-f]{1,16}){0,3}"
# A node right below the root with no "reg" at all is named by its base name alone, which then
# has no unit address either: TI's ICSSG Ethernet node `/icssg0-eth` (arch/arm64/boot/dts/ti/
# k3-am654-idk.dtso) makes the platform device "icssg0-eth" ("icssg-prueth icssg0-eth: ...").
# A word with a hyphen, so a message's own words ("driver some words: ...") are not taken; a
# line is read by it only after its driver was found in the kernel's driver tables.
OF_NODE = r"[a-z][a-z0-9]*(?:-[a-z0-9]+)+"
ADDRESSED_BUS_ID = (
    r"(?:[0-9a-f]{4,8}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]|\d+-[\d.]+:\d+\.\d+|"
    r"[0-9a-f]{5,16}\.[a-z][\w-]*(?::[\w@.-]+)?|mmc\d+:[0-9a-f]{4}:\d+|"
    rf"{OF_NAMED})"
)
# A PHY or DSA switch on an MDIO bus (mdio_bus.c PHY_ID_FMT "%s:%02x"): "mdio-bus:1f"
MDIO_DEVICE = r"[a-z][\w.-]{0,40}:[0-9a-f]{2}(?=[\s:])"
BUS_ID = f"(?:{ADDRESSED_BUS_ID}|{PRE_DT_PLATFORM}|{MDIO_DEVICE})"
# A device the kernel registers below a NIC's own, as dev_printk names it: "mhi mhi0", "ieee80211
# phy0" (resources/kernel_source/child_devices.json says where each name is made).
CHILD_DEVICE = _child_pattern()
# Kernels before 3.x printed a netdev's lines as "driver device: iface: msg" (dev_printk and
# the netdev's name): "smsc95xx 1-1.1:1.0: eth0: Failed to read register index 0x00000114".
# Only names that look like interfaces, so a function name there ("rk_gmac_setup: ") is not one.
OLD_NETDEV = r"(?:eth|wlan|usb|lan|wan|en[a-z]|wl[a-z])[\w.-]{0,12}"
# An interface the kernel or a tool named (net/core/dev.c dev_valid_name(): below IFNAMSIZ, no
# "/", ":" or space), led by a letter or "_" (IncusOS's "_p2cf05d501bfb"): not a word like "12"
IFACE = r"[a-z_][\w.-]{1,14}"
# A netdev message before the interface is registered (__netdev_printk() with
# include/linux/netdevice.h netdev_name() "(unnamed net_device)", netdev_reg_state()
# " (uninitialized)").
_STATES = r"(?: \((?:uninitialized|unregistering|unregistered)\))?"
UNREGISTERED = rf"(?: \(unnamed net_device\))?{_STATES}"
UNNAMED = rf"(?P<unnamed> \(unnamed net_device\))?{_STATES}"  # only a net_device says so
_OF = "(?:OF: fdt: )?"  # early device-tree code prefixes the model line


_PATTERNS: list[tuple[str, _Lazy]] = [
    *TRACE_PATTERNS,
    (
        "register",
        _Lazy(
            r"^(?P<driver>\S+) (?P<device>\S+?):? (?P<iface>\S+): register '(?P<name>[^']+)' at "
            r"(?P<bus>[^,]+), (?P<description>.*?), (?P<mac>[0-9a-fA-F]{2}(?::[0-9a-fA-F]{2}){5})$"
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
    *_words.OWN_WORDS_FIRST,
    (
        "link_up",
        _Lazy(
            r"^(?P<driver>\S+) (?P<device>\S+) (?P<iface>\S+): Link is Up - "
            r"(?P<speed>\d+(?:\.\d+)?)(?P<unit>[GM])bps/(?P<duplex>Full|Half)"
            r"(?: - flow control (?P<flow>.+))?$"
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
    (
        "pci_device",
        _Lazy(
            r"^pci (?P<device>[0-9a-f]{4,8}:[0-9a-f]{2}:[0-9a-f]{2}\.\d): \[(?P<vendor>[0-9a-f]{4})"
            r":(?P<product>[0-9a-f]{4})\] type (?P<type>\d+) class (?P<class>0x[0-9a-f]{6})"
        ),
    ),
    (
        "pci_bar",
        _Lazy(
            r"^pci (?P<device>\S+): BAR (?P<bar>\d+): (?P<status>assigned|no space for|failed to "
            r"assign|can't assign|not assigned)\b:?\s*(?P<resource>.*)$"
        ),
    ),
    (
        "pcie_link_up",  # brcm-pcie: "link up, 5.0 GT/s PCIe x1 (SSC)" / "link up, 5 GT/s x1"
        _Lazy(
            r"^(?P<driver>brcm-pcie|rockchip-pcie|\S+pcie\S*) (?P<device>\S+): link up, "
            r"(?P<speed>[\d.]+) ?GT/s (?:PCIe )?x(?P<width>\d+)"
        ),
    ),
    *PCIE_PATTERNS,
    (
        "usb_new_device",
        _Lazy(
            r"^usb (?P<device>\d+-[\d.]+): new (?P<speed>[\w -]+?) USB device number "
            r"(?P<number>\d+)"
            r" using (?P<hcd>\S+)"
        ),
    ),
    (
        "usb_ids",
        _Lazy(
            r"^usb (?P<device>\d+-[\d.]+): [Nn]ew USB device found, "
            r"idVendor=(?P<vendor>[0-9a-f]{4}), idProduct=(?P<product>[0-9a-f]{4})"
        ),
    ),
    (
        # drivers/usb/core/hub.c announce_device(): the device's own product string
        "usb_product",
        _Lazy(r"^usb (?P<device>\d+-[\d.]+): Product: (?P<product>\S.{0,80}?)\s*$"),
    ),
    (
        "driver_registered",
        _Lazy(r"^usbcore: registered new (?:interface|device) driver (?P<driver>\S+)$"),
    ),
    (
        "under_voltage",
        _Lazy(r"(?i)under-?voltage detected!?(?:\s*\((?P<code>0x[0-9a-f]+)\))?"),
    ),
    (
        "voltage_normalised",
        _Lazy(r"(?i)voltage normali[sz]ed(?:\s*\((?P<code>0x[0-9a-f]+)\))?"),
    ),
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
    ("tx_timeout", _Lazy(rf"^(?P<driver>[\w-]+) (?P<device>{BUS_ID}) ?{_words.TX_TIMEOUT}")),
    ("csum_failure", _Lazy(r"^(?P<iface>\S+): hw csum failure")),
    (
        "link_up",  # mtk_soc_eth "eth0: port 2 link up", stmmac "Link is Up - 1Gbps/Full";
        # vendor drivers' own words: nss-dp "eth0: PHY Link up speed: 1000" (Mbit/s); a speed
        # alone, no duplex: Realtek's RTD129x build of r8169 "98016000.gmac eth0: link up 1 Gbps"
        _Lazy(
            rf"^(?P<driver>[\w-]+) (?P<device>{BUS_ID}) (?P<iface>[\w.-]+): (?:port \d+ |PHY )?"
            r"(?:carrier on|[Ll]ink (?:is )?[Uu]p)\b"
            r"(?:\W+(?P<speed>\d+(?:\.\d+)?)\s?(?P<unit>[GM])?"
            r"(?:bps|b/s)?\W+(?P<duplex>[Ff]ull|[Hh]alf)|,? speed:? (?P<speed2>[1-9]\d{1,5})$"
            r"| (?P<speed3>[1-9]\d*(?:\.\d+)?) ?(?P<unit3>[GM])bps$"
            r"| - Unknown/(?P<duplex2>Full|Half))?"  # phy-core.c phy_speed_to_str(SPEED_UNKNOWN)
        ),
    ),
    (
        "link_down",
        _Lazy(
            rf"^(?P<driver>[\w-]+) (?P<device>{BUS_ID}) (?P<iface>[\w.-]+): "
            r"(?:port \d+ |PHY |(?:\S+: \S+ )?NIC )?"  # nss-dp: "eth0: PHY Link is down"
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
        "link_up",  # vendor r8125: "r8125: eth0: link up"; atlantic "link change old 0 new 10000"
        _Lazy(
            r"^(?P<driver>[\w-]+): (?P<iface>[\w.-]+): link up\b|"
            rf"^(?P<driver2>[\w-]+) (?P<device>{BUS_ID}) (?P<iface2>[\w.-]+): \w+: link change "
            r"old \d+ new (?P<speed>[1-9]\d*)$"
        ),
    ),
    ("link_down", _Lazy(r"^(?P<driver>[\w-]+): (?P<iface>[\w.-]+): link down\b")),
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
    *_words.own_words(BUS_ID),
    ("usb_unsupported", _Lazy(r"^usb (?P<device>\d+-[\d.]+): Unsupported device$")),
    # arm/arm64 "Machine model: %s"; MIPS prom.c "MIPS: machine is %s" (also the DT's model)
    ("machine_model", _Lazy(rf"^(?:{_OF}Machine model:|MIPS: machine is) (?P<model>.{{1,120}})$")),
    ("kernel_version", _Lazy(r"^Linux version (?P<version>[\w.+~-]{3,64}) \(")),
    ("soc_line", _Lazy(r"^SoC: (?P<soc>\w[\w-]{1,30}) rev [\w.]{1,12}$")),  # lantiq/prom.c
    (
        "dmi",  # dmi_show_system(): "DMI: <vendor> <product>/<board>, BIOS <version> <date>"
        _Lazy(r"^DMI: (?P<model>[^/]{1,120}?)(?:/(?P<board>[^/]{1,120}?))?, BIOS .{0,80}$"),
    ),
    (
        "cpuinfo",  # a /proc/cpuinfo paste inside a log: "Hardware : BCM2835", "Revision : a02082"
        _Lazy(r"^(?P<key>Hardware|Revision|Model)\s*: (?P<value>\S(?:.{0,118}\S)?)\s*$"),
    ),
    (
        "phy_attached",  # phylink/phylib: "eth0: PHY [stmmac-0:01] driver [RTL8211F Gigabit ...]"
        _Lazy(
            rf"^(?P<driver>[\w-]+) (?P<device>{BUS_ID}) (?P<iface>[\w.-]+){UNREGISTERED}: "
            r"PHY \[[^\]]+\] driver \[(?P<phy>[^\]]{1,80})\]"
        ),
    ),
    (
        "machine_model",  # the header of a kernel warning: "Hardware name: X (DT)"
        _Lazy(r"^Hardware name: (?P<model>[^,()]{1,120}?)(?: \(DT\))?(?:, BIOS .*)?$"),
    ),
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
        "ip_config",  # net/ipv4/ipconfig.c: a DHCP/BOOTP/RARP answer, then the device it set up
        _Lazy(
            r"^(?:IP-Config: Got (?P<answer>DHCP|BOOTP|RARP) answer from|device=(?P<iface>"
            r"[\w.-]+), hwaddr=(?P<mac>[0-9a-fA-F]{2}(?::[0-9a-fA-F]{2}){5}))"
        ),
    ),
    (
        "phy_failure",  # also on the interface alone: stmmac's "eth0: Could not attach to PHY"
        _Lazy(
            rf"^(?:(?P<driver>[\w-]+) (?P<device>{BUS_ID})(?: (?P<iface>[\w.-]+))?{UNREGISTERED}: |"
            rf"(?P<iface2>{OLD_NETDEV}): )?.*?"
            r"(?i:cannot attach to phy|could not attach (?:to )?phy|no phy at addr|"
            # fec: "Unable to connect to phy" (fec_main.c fec_enet_mii_probe())
            r"(?:failed to|unable to|could not|cannot) connect (?:to )?(?:the )?phy|"
            r"(?<!supply )phy\b(?: \"[^\"]{1,200}\")?.{0,40}\bnot found|no phy found|"
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
            r"with error (?P<errno2>-?\d+)"
        ),
    ),
    (
        "kevent_dropped",
        _Lazy(
            rf"^(?P<driver>[\w-]+) (?P<device>{BUS_ID}) (?P<iface>[\w.-]+): "
            r"kevent (?P<kevent>\d+) may have been dropped"
        ),
    ),
    (
        "usb_reset",
        _Lazy(
            r"^usb (?P<device>\d+-[\d.]+): reset (?P<speed>[\w -]+?) USB device number "
            r"(?P<number>\d+)"
        ),
    ),
    (
        "usb_disconnect",
        _Lazy(r"^usb (?P<device>\d+-[\d.]+): USB disconnect, device number (?P<number>\d+)"),
    ),
    ("usb_not_top_speed", _Lazy(r"^usb (?P<device>\d+-[\d.]+): not running at top speed")),
    (
        # r8152 "get_registers -71", "Tx status -71", "failed tx_urb -19"; also on the USB
        # interface before any netdev: "write type=0x0033, index=0xd630 fail -71"
        "usb_error",
        _Lazy(
            r"^(?P<driver>[\w-]+) (?P<device>\d+-[\d.]+:\d+\.\d+)(?: (?P<iface>[\w.-]+))?: "
            r".*?(?P<errno>-(?:71|110|32|19|108|62|5))\b"
        ),
    ),
    (
        "firmware_missing",  # drivers/base/firmware_loader/main.c: both of its lines
        _Lazy(
            r"^(?:(?P<driver>[\w-]+) (?P<device>\S+): )?(?:Direct firmware load for "
            r"(?P<firmware>\S+) failed with error(?: (?P<errno>-?\d+))?|firmware: failed to load "
            r"(?P<firmware2>\S+) \((?P<errno2>-?\d+)\))"
        ),
    ),
    (
        # A card on an MMC host, by the MMC core (drivers/mmc/core/bus.c): mmc_add_card()'s
        # "%s: new %s%s%s%s%s%s card at address %04x" (its type MMC, SD, SDHC, SDXC, SDUC,
        # SDIO or SD-combo), mmc_remove_card()'s "%s: card %04x removed" (no type), and a
        # memory card's disk (drivers/mmc/core/block.c mmc_blk_alloc_req(): "mmcblk0:
        # mmc0:aaaa SC16G 14.8 GiB")
        "mmc_card",
        _Lazy(
            r"^(?:(?P<device>mmc\d{1,3}): (?:new [\w -]{0,80}?(?P<type>SD-combo|SDIO|SDUC|SDXC|"
            r"SDHC|SD|MMC) card at address (?P<rca>[0-9a-f]{4})|card (?P<rca2>[0-9a-f]{4}) "
            r"(?P<removed>removed))$|(?P<disk>mmcblk\d{1,3})(?:boot\d|rpmb)?: "
            r"(?P<device3>mmc\d{1,3}):(?P<rca3>[0-9a-f]{4}) )"
        ),
    ),
    (
        # brcmfmac's lines that name its chip: brcmf_fw_alloc_request's "using brcm/... for chip
        # BCM43430/1" (firmware.c), brcmf_c_preinit_dcmds' "Firmware: BCM43430/1 wl0: ..."
        # (common.c) and, with brcmfmac.debug, brcmf_chip_recognition's "found %s chip: %s"
        # (chip.c: "AXI" or "SB", then brcmf_chip_name()'s "BCM%d/%u")
        "wifi_chip",
        _Lazy(
            rf"^(?P<driver>brcmfmac)(?: (?P<device>{BUS_ID}))?: .*?"
            r"(?:for chip |Firmware: |found (?:AXI|SB) chip: )"
            # 4.x brcmf_sdio_probe(): "Loading firmware ... for chip 0000a9a6 rev 00000001"
            r"(?:(?P<chip>BCM\d{4,5}\w*)|0000(?P<chip_id>[0-9a-f]{4}) rev )"
        ),
    ),
    (
        # cfg80211's wiphy device (net/wireless/core.c: dev_set_name(&rdev->wiphy.dev,
        # "phy%d")), printed by a Wi-Fi driver's wiphy_err(): "ieee80211 phy0: brcmf_fw_crashed:
        # Firmware has halted or crashed"; the format says which driver
        "wiphy",
        _Lazy(r"^ieee80211 (?P<device>phy\d+): (?P<message>\S.*)$"),
    ),
    (
        # any other line a driver wrote about its device: who drives what; and a driver's
        # lines about the whole USB device ("usb 1-1: ath9k_htc: Firmware - ... download
        # failed", dev_err(&udev->dev, ...)), named by its port path
        "device",
        _Lazy(
            rf"^(?:(?P<driver>[A-Za-z][\w-]*) (?P<device>{BUS_ID})|usb (?P<device2>\d+-[\d.]+)|"
            rf"(?=(?:{CHILD_DEVICE}):)(?P<driver3>[\w-]+) (?P<device3>\S+?)|"
            rf"net(?= {IFACE}: ))"  # a net_device's own class device (dev_printk): "net eth0:"
            rf"(?: (?P<iface>{IFACE})|: (?P<iface2>{OLD_NETDEV}))?{UNNAMED}: "
        ),
    ),
]
_NEEDLES: dict[str, tuple[str, ...]] = {
    **TRACE_NEEDLES,
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
    "chip": ("XID", " chip_id 0x"),
    "description": ("Intel(R)",),
    "pcie_link": ("(PCIe:",),
    "pcie_bandwidth": ("PCIe bandwidth",),
    "mac": ("MAC: ",),
    "pci_device": (" type ",),
    "pci_bar": ("BAR ",),
    "pcie_link_up": ("link up",),
    **PCIE_NEEDLES,
    "usb_new_device": (" USB device number",),
    "usb_ids": ("idVendor",),
    "usb_product": ("Product: ",),
    "wiphy": ("ieee80211 phy",),
    "driver_registered": ("registered new",),
    "under_voltage": ("oltage",),
    "voltage_normalised": ("ormali",),
    "tx_timeout": ("WATCHDOG", "imed out", "imeout", "ime out"),
    "probe_failed": ("failed with error",),
    "csum_failure": ("csum failure",),
    "phy_link_up": ("libphy",),
    "usb_unsupported": ("Unsupported device",),
    "machine_model": ("Machine model", "Hardware name", "machine is"),
    "kernel_version": ("Linux version",),
    "soc_line": ("SoC: ",),
    "dmi": ("DMI: ",),
    "cpuinfo": ("Hardware", "Revision", "Model"),
    "phy_attached": ("PHY [",),
    "vendor_register": (", IRQ ",),
    "phy_link_down": ("libphy",),
    "carrier_up": ("NETDEV_CHANGE",),
    "netdev_up": ("NETDEV_UP",),
    "ip_config": (" answer from", "device="),
    "phy_failure": ("PHY", "phy", "probe of", "is missing"),
    "mdio_named": ("PHY",),
    "kevent_dropped": ("kevent",),
    "usb_reset": ("reset ",),
    "usb_disconnect": ("disconnect",),
    "usb_not_top_speed": ("top speed",),
    "usb_error": ("-71", "-110", "-32", "-19", "-108", "-62", "-5"),
    "firmware_missing": ("Direct firmware", "firmware: failed to load"),
    "mmc_card": ("card at address", " removed", "mmcblk"),
    "wifi_chip": ("brcmfmac",),
    "device": (": ",),
}
for _kind, _needles in _words.OWN_WORDS_NEEDLES.items():
    _NEEDLES[_kind] = _NEEDLES.get(_kind, ()) + _needles
