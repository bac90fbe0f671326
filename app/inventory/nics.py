"""From a joined device (``sbctune.inventory.graph``) to the inventory's ``Nic``: which devices
are NICs, and each field from the source ``graph.PRECEDENCE`` says wins.

Which chip it is, by name, is ``sbctune.inventory.nic_chip``'s: the catalog (measured chips),
then the kernel's own line, then pci.ids/usb.ids.
"""

from __future__ import annotations

import re

from sbctune.catalog import Catalog, load_catalog
from sbctune.catalog.driver_families import family_sentence
from sbctune.catalog.ids import IdDatabase
from sbctune.catalog.kernel_drivers import load_kernel_drivers
from sbctune.catalog.modeswitch import storage_mode
from sbctune.catalog.pci_silicon import silicon
from sbctune.catalog.wwan_ids import is_wwan_driver
from sbctune.inventory.graph import Device
from sbctune.inventory.ifnames import wireless_from_name
from sbctune.inventory.link_drops import drops
from sbctune.inventory.loaded_modules import drivers_not_loaded
from sbctune.inventory.model import Board, Nic, Pcie
from sbctune.inventory.nic_chip import catalog_chip, chip_of, chip_otherwise
from sbctune.inventory.parsers.lspci import PciDevice
from sbctune.inventory.pi_usb_nic import pi_own_usb_chip
from sbctune.inventory.raw import Parsed
from sbctune.inventory.usb_names import named_network, named_usb_nic, named_wifi
from sbctune.inventory.usb_renumeration import benign_orders

_WIRELESS_DRIVERS = {
    "brcmfmac", "rtl8xxxu", "mt7601u", "ath9k_htc", "rt2800usb", "iwlwifi", "mt76x2u",
    "rtw88_8822bu", "8188eu", "88x2bu", "ath10k_pci", "mt7921e", "rtw89_8852be", "rtw89_pci",
    "ath11k_pci", "mt7921u", "rtw88_8821cu", "r8188eu", "ath9k", "mwifiex_sdio"}  # fmt: skip
# Platform (SoC) Ethernet drivers, by the name they print: no ID table names them.
_SOC_DRIVER = re.compile(
    r"(genet|macb|stmmac|dwmac|gmac|cpsw|fec|meson|mvneta|mvpp2|_soc_eth|sun\di-emac|"
    r"ravb|sh_eth|dm9000|ks8851|enc28j60|lan743x|emac|ethernet)",
    re.I,
)
# Device-tree node names of other kinds of controllers (the Devicetree Specification's generic
# names, 2.2.2): a platform device named so is not a NIC whatever its driver's name contains
# ("ff8000a8.rtc" on meson-vrtc is the RTC).
_OTHER_BUS_NODE = re.compile(
    r"^(?:mmc|sdhci|dwmmc|usb|serial|spi|i2c|pcie|pci|sata|nand|rtc|gpio|pwm|watchdog|timer|"
    r"dma|dma-controller|sound|audio-codec|i2s|spdif|crypto|rng|efuse|gpu|display|hdmi|vpu|"
    r"video-codec|thermal|pinctrl|clock-controller|interrupt-controller|adc|can|pmic|syscon)\b"
)
# A driver the tables lack, named an Ethernet one ("tc956x_pci-eth", "ralink_soc_eth"): a word.
_ETH_DRIVER = re.compile(r"(?:^|[_-])eth(?:ernet)?(?:$|[_-])", re.I)
# The Raspberry Pi Foundation's / Raspberry Pi Ltd's MAC prefixes (IEEE OUI registry).
_PI_OUI = re.compile(r"^(b8:27:eb|dc:a6:32|e4:5f:01|28:cd:c1|d8:3a:dd|2c:cf:67)", re.I)
_NET_CLASS = re.compile(r"ethernet|network|wireless|wi-?fi|802\.11|wlan", re.I)


def _bus(device: Device) -> str:
    bus = device.value("bus")
    if bus in ("usb", "pci", "platform", "sdio"):
        return str(bus)
    for kind in ("pci", "usb", "sdio", "platform"):
        if device.key(kind):
            return kind
    hint = device.value("bus_hint")
    if hint in ("pci", "platform", "usb"):
        return str(hint)
    driver = device.value("driver")
    known = load_kernel_drivers().get(driver)
    if known is not None and known.bus:
        return known.bus  # r8152 binds only on USB: its NIC is on USB
    if known is None and driver and (bus := _vendor_driver_bus(str(driver))):
        return bus  # Realtek's out-of-tree r8125 drives only the PCIe RTL8125 family
    return "platform" if driver and _SOC_DRIVER.search(str(driver)) else "unknown"


def _vendor_driver_bus(driver: str) -> str | None:
    """The one bus of every catalog chip a driver the kernel does not have drives."""
    buses = {c.bus for c in load_catalog().chips_by_driver(driver) if c.kind == "nic"}
    return next(iter(buses)) if len(buses) == 1 and buses <= {"pci", "usb", "sdio"} else None


def _probe_failed_last(device: Device, driver: str) -> bool:
    """The driver's last word in the kernel log about this device is a failed probe."""
    refusals = [f.order for f in device.all("refused_by") if f.value == driver]
    if not refusals:
        return False
    spoke = [f.order for f in device.all("driver") if f.value == driver and f.source == "dmesg"]
    others = [f for f in device.all("driver") if f.source != "dmesg"]
    return not others and max(refusals) >= max(spoke, default=0)


def _bound_before_it_left(device: Device) -> bool:
    """The driver the log names was bound before the device's last USB disconnect, and the
    port enumerated another device (other IDs) after it: what binds the new one is not shown (a
    dongle's driver CD on usb-storage, switched to 0bda:b711 with no line of its new driver).
    The same IDs back (a disconnect loop) keep the driver."""
    said = device.best("net_driver") or device.best("driver")
    if said is None or said.source != "dmesg":
        return False
    left = max((f.order for f in device.all("usb_disconnect")), default=-1)
    ids = [f for f in device.all("ids") if f.source == "dmesg"]
    before = {f.value for f in ids if f.order < left}
    after = {f.value for f in ids if f.order > left}
    return said.order < left and bool(after) and not after & before


def _kernel_wireless(device: Device) -> bool:
    """A Wi-Fi driver of the kernel drives it, tried to, or lists its IDs."""
    table = load_kernel_drivers()
    named = [table.get(device.value(f)) for f in ("driver", "refused_by")]
    found = device.value("ids")
    listed = table.for_ids("usb", found) + table.for_ids("pci", found)
    listed = listed or table.for_firmware(device.value("firmware_wanted"))
    drivers = [d for d in named if d is not None] or listed
    return bool(drivers) and all(d.wireless for d in drivers)


def _kernel_net_driver(device: Device) -> bool:
    """The device's driver (bound, or one that tried and failed) or the IDs it shows are in
    the kernel's network drivers' tables (6.1 or 6.12)."""
    table = load_kernel_drivers()
    if any(table.get(device.value(f)) for f in ("driver", "refused_by")):
        return True
    found = device.value("ids")
    return bool(
        table.for_ids("usb", found)
        or table.for_ids("pci", found)
        or table.for_firmware(device.value("firmware_wanted"))
    )


# Parts of drivers/net/ that drive no host interface of their own: DSA switches, MDIO buses and
# muxes, PHYs, PCS. Their devices are NICs only through the interfaces they name (lan1 on a
# DSA switch); a line about the switch or bus device itself is not a NIC.
_NOT_NIC_DIRS = ("drivers/net/dsa/", "drivers/net/mdio/", "drivers/net/phy/", "drivers/net/pcs/")


# drivers/net/can/: CAN controllers (flexcan, m_can, mcp251x ...) are network devices that carry
# CAN frames, not IP: nothing sbctune measures or tunes, named (can0) or not.
_CAN_DIR = "drivers/net/can/"


def _can_controller(device: Device) -> bool:
    table = load_kernel_drivers()
    found = [table.get(device.value(f)) for f in ("driver", "refused_by")]
    drivers = [d for d in found if d is not None]
    return bool(drivers) and all(d.file.startswith(_CAN_DIR) for d in drivers)


def _switch_or_bus_driver(device: Device) -> bool:
    table = load_kernel_drivers()
    found = [table.get(device.value(f)) for f in ("driver", "refused_by")]
    drivers = [d for d in found if d is not None]
    return bool(drivers) and all(
        d.file.startswith(_NOT_NIC_DIRS) or "mdio" in d.file.rsplit("/", 1)[-1] for d in drivers
    )  # davinci_mdio.c, mvmdio.c: MDIO bus drivers kept beside their MAC's driver


def is_nic(device: Device, catalog: Catalog, ids: IdDatabase) -> bool:
    if device.has("hub") or _can_controller(device):
        return False
    bus = _bus(device)
    chip = catalog_chip(device, bus, catalog)
    if chip is not None:
        return chip.kind == "nic"
    names = current_names(device)
    if not names and _switch_or_bus_driver(device):
        return False  # "b53-switch 10700000.switch: Link is Up": a switch, not a host's NIC
    if names or _kernel_net_driver(device) or device.has("wiphy") or device.has("net_device"):
        return True  # a wiphy: a Wi-Fi driver's line named its chip (wiphy_join); a net_device
    driver = device.value("driver")
    klass = str(device.value("pci_class") or "")
    described = " ".join(str(f.value) for f in device.all("description"))
    if "South Bridge" in described:
        return False  # the Pi 5's RP1 calls itself an Ethernet controller
    if bus == "pci":
        named = (driver, device.value("refused_by"))  # "tc956x_pci-eth": an Ethernet driver
        net_driver = bool(ids.module(driver)) or bool(re.match(r"^r81\d\d$", str(driver)))
        net_driver = net_driver or any(_ETH_DRIVER.search(str(d or "")) for d in named)
        return klass.startswith(("02", "0d")) or bool(_NET_CLASS.search(klass)) or net_driver
    if bus == "usb":
        return (
            bool(ids.drivers_for("usb", device.value("ids")))
            or bool(ids.module(driver))
            or bool(ids.module(device.value("refused_by")))
            or (not driver and bool(ids.module(device.value("probed_by"))))
            or _storage_mode(device, ids)
            or named_usb_nic(device)
            or bool(re.search(r"\bLAN\b|Ethernet", described))
            or named_network(f"{described} {ids.name('usb', device.value('ids')) or ''}")
        )
    if bus == "platform":
        name = str(device.value("platform_name") or "")
        if _OTHER_BUS_NODE.search(name.partition(".")[2]):
            return False  # "d0070000.mmc" is an SD/SDIO host, even if its driver says meson
        return bool(_SOC_DRIVER.search(f"{driver or ''} {name}"))
    return bus == "sdio" and (bool(device.value("wireless")) or _sdio_wifi(device))


# Drivers of other kinds that bind SDIO functions, by their names: Bluetooth (drivers/bluetooth
# btsdio, btmrvl_sdio, btmtksdio), serial (drivers/mmc/core/sdio_uart.c), DVB (smssdio).
_SDIO_NOT_NET = re.compile(r"^(?:bt|hci_)|uart|smssdio", re.I)


def _sdio_wifi(device: Device) -> bool:
    """An SDIO function that a driver drives or probed: the network drivers on SDIO in the
    6.1/6.12 tables are all Wi-Fi ones, and so are the vendors' out-of-tree ones (esp32_sdio,
    8189fs ...); the drivers of other kinds are told by their names."""
    if _bus(device) != "sdio":
        return False
    names = [str(v) for f in ("driver", "refused_by") if (v := device.value(f))]
    return bool(names) and not any(_SDIO_NOT_NET.search(n) for n in names)


def _storage_mode(device: Device, ids: IdDatabase) -> bool:
    """A USB NIC that enumerated as its "driver CD" (usb-storage), named as a NIC chip by
    usb.ids (Realtek's 0bda:8151 "RTL8151"), or known to usb_modeswitch by its IDs
    (resources/modeswitch: the AIC8800's a69c:5721 "Aic MSC")."""
    name = ids.name("usb", device.value("ids")) or ""
    if storage_mode(device.value("ids")) is not None and device.value("driver") in (
        None,
        "usb-storage",
    ):
        return True  # IDs usb_modeswitch switches: a Wi-Fi/Ethernet dongle's or modem's CD mode
    return device.value("driver") == "usb-storage" and bool(re.search(r"RTL81\d\d|AX88", name))


def _former(device: Device) -> list[str]:
    """Names the kernel gave it before a rename: "mlan0: renamed from wlan0" was registered
    with cfg80211's default "wlan%d", as Wi-Fi drivers' interfaces are."""
    return [str(f.value) for f in device.all("former_name")]


def current_names(device: Device) -> list[str]:
    former = {str(f.value) for f in device.all("former_name")}
    return [n for n in device.names() if n not in former]


def _name(device: Device) -> str | None:
    names = current_names(device)
    if len(names) <= 1:
        return names[0] if names else None
    # Several current names (two pastes, two boots): the one a snapshot source shows.
    for source in ("sysfs", "ethtool -i", "ethtool", "ip", "interrupts", "dmesg"):
        shown = {n for n in names if source in device.key_sources.get(("if", n), set())}
        if shown:
            return sorted(shown)[0]
    return names[0]


def _pcie(device: Device) -> Pcie | None:
    pci = device.value("pcie")
    if not isinstance(pci, PciDevice) or not (pci.lnksta_speed_gts or pci.lnkcap_speed_gts):
        return None
    return Pcie(
        speed_gts=pci.lnksta_speed_gts,
        width=pci.lnksta_width,
        max_speed_gts=pci.lnkcap_speed_gts,
        max_width=pci.lnkcap_width,
        downgraded=bool(pci.link_degraded),
        max_payload=pci.devctl_max_payload,
        max_read_request=pci.devctl_max_read_req,
        evidence=list(pci.link_lines),
    )


def _link(nic: Nic, device: Device) -> None:
    link = device.value("link")
    nic.link_detected = link if isinstance(link, bool) else None
    if link is False:
        return  # a speed from before the link went down is not the link's speed now
    nic.link_speed_mbps = device.value("link_speed_mbps")
    duplex = device.value("duplex")
    nic.duplex = str(duplex).lower() if duplex else None
    if nic.link_detected is None and nic.link_speed_mbps:
        nic.link_detected = True


def _evidence(device: Device) -> list[str]:
    lines: list[str] = []
    named = ("driver", "bus", "ids", "link", "usb_speed_mbps", "chip_text", "chip_by_function")
    for name in (*named, "chip_by_revision", "probed_by"):
        fact = device.best(name)
        if fact is not None and f"{fact.source}: {fact.line}" not in lines:
            lines.append(f"{fact.source}: {fact.line}")
    return lines


def nic_from_device(
    device: Device, parsed: Parsed, catalog: Catalog, ids: IdDatabase, board: Board
) -> Nic:
    bus = _bus(device)
    nic = Nic(name=_name(device), bus=bus)  # type: ignore[arg-type]
    nic.driver = device.value("net_driver") or device.value("driver")  # a modem's, not its disk's
    if nic.driver and _probe_failed_last(device, nic.driver):
        nic.driver = None  # it spoke of the device, then its probe failed: nothing is bound
    if nic.driver and _bound_before_it_left(device):
        nic.driver = None  # usb-storage bound the "driver CD" that left; the Wi-Fi came back
    nic.ids = device.value("ids")
    nic.bus_path = device.newest_key(bus) if bus in ("pci", "usb") else None
    nic.bus_path = device.value("sdio_function") if bus == "sdio" else nic.bus_path
    if bus == "platform" and (name := device.value("platform_name")):
        nic.bus_path = str(name)  # "16030000.ethernet": two MACs of one driver told apart
    speed = device.value("usb_speed_mbps")
    nic.usb_speed_mbps = int(speed) if bus == "usb" and speed and speed >= 12 else None
    nic.chip, chip = chip_of(device, bus, nic.driver, catalog, ids)
    if nic.chip is None and (chip := pi_own_usb_chip(nic, parsed, catalog)) is not None:
        nic.chip = chip.name  # the Pi's own LAN951x, by its place below the SoC's USB
    nic.chip, oot = (nic.chip, None) if nic.chip else chip_otherwise(nic, device)
    # atlantic: lspci's "(rev 01)" is the A0 silicon the driver binds (hw_atl_boards), whose
    # limits differ from the B0's; the tweaks read them by this name (driver_caps "(A0)")
    rev = silicon(nic.ids, device.value("pci_revision")) if bus == "pci" else None
    nic.chip = (
        f"{nic.chip} ({rev})" if nic.chip and rev and f"({rev})" not in nic.chip else nic.chip
    )
    # ixgbe: its family, only when neither a chip nor the IDs say which chip it is
    nic.chip_family = None if nic.chip or nic.ids else family_sentence(nic.driver)
    phy = device.value("phy")
    nic.phy = str(phy) if phy else None
    counters = device.value("counters")
    nic.counters = dict(counters) if isinstance(counters, dict) else {}
    stats = device.value("ethtool_stats")
    nic.ethtool_stats = dict(stats) if isinstance(stats, dict) else {}
    nic.catalog_id = chip.id if chip else None
    nic.pcie = _pcie(device) if bus == "pci" else None
    nic.driver_version = device.value("driver_version")
    nic.firmware = device.value("firmware")
    _link(nic, device)
    nic.max_link_speed_mbps = device.value("max_link_speed_mbps") or (
        chip.line_rate_mbps if chip else None
    )
    nic.mtu = device.value("mtu")
    addresses = device.value("addresses") or []
    nic.addresses = [f"{a.address}/{a.prefixlen}" if a.prefixlen else a.address for a in addresses]
    nic.irqs = sorted({int(f.value) for f in device.all("irqs")})
    klass = str(device.value("pci_class") or "")
    nic.wireless = bool(
        device.value("wireless")
        or any(map(wireless_from_name, (nic.name or "", *_former(device))))  # ifnames.py
        or nic.driver in _WIRELESS_DRIVERS
        or _kernel_wireless(device)
        or _sdio_wifi(device)
        or klass.startswith("0280")
        or re.search(r"wireless|wi-?fi|802\.11|wlan", f"{klass} {nic.chip or ''}", re.I)
        or (bus == "usb" and named_wifi(device))
    )
    unloaded = ""
    if not nic.driver and bus in ("pci", "usb"):
        unloaded = drivers_not_loaded(bus, nic.ids, parsed.modules)  # lsmod without ath9k_htc
        nic.driver_state = "none" if unloaded or _no_driver(device, parsed) else "unknown"
    nic.mac = device.key("mac")
    nic.evidence = _evidence(device) + ([oot] if oot else [])
    if unloaded:  # second: a no-driver finding quotes the first two
        nic.evidence.insert(1, unloaded)
    _log(nic, device)
    nic.usb_version = device.value("usb_version")
    _queues(nic, parsed)
    nic.builtin = is_builtin(nic, board, catalog)
    return nic


LOG_KINDS = (
    "phy_failure", "kevent_dropped", "usb_error", "usb_reset", "usb_disconnect", "tx_timeout",
    "firmware_missing", "not_top_speed", "probe_failed", "kernel_error", "no_carrier", "pcie_aer",
    "kernel_trace",
)  # fmt: skip


def _log(nic: Nic, device: Device) -> None:
    benign = benign_orders(device)  # a driver's probe reset, a mode switch (usb_renumeration)
    for kind in LOG_KINDS:
        facts = sorted(device.all(kind), key=lambda f: f.order)
        if kind in ("usb_reset", "usb_disconnect") and benign:
            facts = [f for f in facts if f.order not in benign]
        if facts:
            nic.log[kind] = [f.line for f in facts[:3]]
            nic.log_counts[kind] = len(facts)
    wwan = [f.line for f in device.all("driver") if f.source == "dmesg" and is_wwan_driver(f.value)]
    if wwan and not is_wwan_driver(nic.driver):  # qmi_wwan's wwan2, then rndis_host's usb0
        nic.log["wwan_registered"] = wwan[:1]
    enumerations = sorted(device.all("enumeration"), key=lambda f: f.order)
    enumerations = [f for f in enumerations if f.order not in benign]
    if len(enumerations) > 1:  # enumerated again: the device dropped off the bus
        nic.log["usb_reset"] = nic.log.get("usb_reset", []) + [f.line for f in enumerations[1:3]]
        nic.log_counts["usb_reset"] = nic.log_counts.get("usb_reset", 0) + len(enumerations) - 1
    changes = sorted((f.value for f in device.all("link_event")), key=lambda v: v[0])
    # one change at one clock, shown twice (`dmesg | grep`, then `dmesg | tail`): one event
    timed = sorted({(ts, up) for _line, ts, up in changes if ts is not None})
    untimed = [up for _line, ts, up in changes if ts is None]
    nic.link_downs = drops([up for _ts, up in timed]) + drops(untimed)
    stamps = [ts for _line, ts, _up in changes if ts is not None]
    nic.link_span_s = (max(stamps) - min(stamps)) if len(stamps) > 1 else None
    if changes:
        lines = sorted(device.all("link_event"), key=lambda f: f.order)
        nic.log["link"] = [f.line for f in lines[:2]] + ([lines[-1].line] if len(lines) > 2 else [])


def _no_driver(device: Device, parsed: Parsed) -> bool:
    """A source shows no driver; or a whole kernel log (from boot) enumerates the device and no
    driver ever speaks of it. An excerpt that starts mid-log cannot say."""
    if device.has("driver_none"):
        return True
    log = parsed.dmesg
    logged = any(f.source == "dmesg" for f in device.facts[:1000])
    return log is not None and logged and not log.starts_mid_log and not log.elided


def _queues(nic: Nic, parsed: Parsed) -> None:
    if not nic.name:
        return
    prefix = f"/sys/class/net/{nic.name}/queues/"
    queues = [p for p in parsed.sysfs if p.startswith(prefix)]
    nic.rx_queues = len({p.split("/")[6] for p in queues if "/rx-" in p}) or None
    nic.tx_queues = len({p.split("/")[6] for p in queues if "/tx-" in p}) or None


def is_builtin(nic: Nic, board: Board, catalog: Catalog) -> bool:
    if nic.wireless:
        return nic.driver == "brcmfmac" or nic.bus in ("sdio", "platform")  # the SoC's own radio
    entry = catalog.board(board.catalog_id) if board.catalog_id else None
    builtin = entry.builtin_nic if entry is not None else None
    if builtin is not None and nic.driver and nic.driver == builtin.driver:
        return True
    own = catalog.soc_nic(board.soc) if entry is None else None  # a carrier board of a known SoC
    if own is not None and nic.driver and nic.driver == own.driver:
        return True
    chip = catalog.chip(nic.catalog_id) if nic.catalog_id else None
    if chip is not None and chip.builtin:
        return True  # e.g. SMSC LAN9514: only ever soldered onto a Pi
    # A MAC from the Raspberry Pi OUIs: the board's own NIC.
    return nic.bus == "platform" or bool(_PI_OUI.match(nic.mac or ""))
