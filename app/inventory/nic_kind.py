"""Which joined devices (``sbctune.inventory.graph``) are NICs, and on which bus: the rules
``nics.is_nic`` applies in order, the first that decides wins; then one rule per bus."""

from __future__ import annotations

import re
from collections.abc import Callable

from sbctune.catalog import Catalog, load_catalog
from sbctune.catalog.companion_drivers import card_driver
from sbctune.catalog.ids import IdDatabase
from sbctune.catalog.kernel_drivers import load_kernel_drivers
from sbctune.catalog.link_layers import other_link_layer
from sbctune.catalog.modeswitch import storage_mode
from sbctune.catalog.oot_chips import out_of_tree_chip
from sbctune.catalog.software_drivers import software_driver_file
from sbctune.catalog.vendor_drivers import vendor_module
from sbctune.catalog.vendor_formats import vendor_driver
from sbctune.inventory.graph import Device
from sbctune.inventory.ifnames import bus_from_name, usb_by_mac_name, wireless_from_name
from sbctune.inventory.net_source_lines import net_source
from sbctune.inventory.nic_chip import catalog_chip
from sbctune.inventory.usb_names import named_network, named_usb_nic

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
_NET_CLASS = re.compile(r"ethernet|network|wireless|wi-?fi|802\.11|wlan", re.I)


_SPI_NAME = re.compile(r"spi\d{1,3}\.\d{1,3}")


def _bus_by_driver(driver: object) -> str:
    """The bus a driver alone says: the kernel's table, a vendor driver's chips, an SoC MAC's
    name."""
    known = load_kernel_drivers().get(driver)
    if known is not None and known.bus:
        return known.bus  # r8152 binds only on USB: its NIC is on USB
    if known is not None and known.spi and not known.buses:
        return "unknown"  # an SPI-only driver (enc28j60): no bus of contract 2 (bus_of)
    if known is None and driver and (bus := _vendor_driver_bus(str(driver))):
        return bus  # Realtek's out-of-tree r8125 drives only the PCIe RTL8125 family
    return "platform" if driver and _SOC_DRIVER.search(str(driver)) else "unknown"


def spi_device(device: Device) -> str | None:
    """The device's name when it is an SPI device's ("spi0.0": drivers/spi/spi.c
    spi_dev_set_name() names it by its controller, "spi%u", and chip select)."""
    name = device.value("platform_name") or device.key("platform")
    return str(name) if _SPI_NAME.fullmatch(str(name or "")) else None


def bus_of(device: Device) -> str:
    if spi_device(device):
        # DESIGN.md contract 2's buses have no SPI, and "platform" is the SoC's own block: an
        # SPI NIC (an ENC28J60 module on spi0.0) is on an "unknown" bus, its name its bus_path
        return "unknown"
    bus = device.value("bus")
    if bus in ("usb", "pci", "platform", "sdio"):
        return str(bus)
    for kind in ("pci", "usb", "sdio", "platform"):
        if device.key(kind):
            return kind
    hint = device.value("bus_hint")
    if hint in ("pci", "platform", "usb"):
        return str(hint)
    # a predictable name spells its bus whatever output named it: `ethtool eno2np1` alone is an
    # on-board PCI port (udev-builtin-net_id.c names_pci(): "o<index>n<port>"), not only a name
    # ip listed (listing_sightings' bus_hint)
    named = {bus for name in device.names() if (bus := bus_from_name(name))}
    if len(named) == 1:
        return named.pop()
    bus = _bus_by_driver(device.value("driver"))
    if bus == "unknown" and any(usb_by_mac_name(n) for n in device.names()):
        return "usb"  # enx<MAC>: udev's 73-usb-net-by-mac.rules names USB devices so
    return bus


def _vendor_driver_bus(driver: str) -> str | None:
    """The one bus of every catalog chip a driver the kernel does not have drives."""
    buses = {c.bus for c in load_catalog().chips_by_driver(driver) if c.kind == "nic"}
    return next(iter(buses)) if len(buses) == 1 and buses <= {"pci", "usb", "sdio"} else None


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


def _other_link_device(device: Device) -> bool:
    """Its drivers are all of a link layer other than Ethernet and Wi-Fi (a CAN controller, an
    IEEE 802.15.4 radio: catalog.link_layers): a network device, but no NIC, named (can0) or
    not. With no driver shown, the drivers whose ID tables list its IDs say it (`lsusb` alone:
    1d50:606f, only gs_usb's table lists it: a CAN adapter)."""
    table = load_kernel_drivers()
    found = [table.get(device.value(f)) for f in ("driver", "refused_by")]
    drivers = [d for d in found if d is not None]
    if not drivers and not device.value("driver"):
        ids = device.value("ids")
        drivers = [*table.for_ids("usb", ids), *table.for_ids("pci", ids)]
    return bool(drivers) and all(other_link_layer(d.file) for d in drivers)


def _switch_or_bus_driver(device: Device) -> bool:
    table = load_kernel_drivers()
    found = [table.get(device.value(f)) for f in ("driver", "refused_by")]
    drivers = [d for d in found if d is not None]
    return bool(drivers) and all(
        d.file.startswith(_NOT_NIC_DIRS) or "mdio" in d.file.rsplit("/", 1)[-1] for d in drivers
    )  # davinci_mdio.c, mvmdio.c: MDIO bus drivers kept beside their MAC's driver


def _described(device: Device) -> str:
    return " ".join(str(f.value) for f in device.all("description"))


def _by_names_or_net_driver(device: Device) -> bool | None:
    """A named interface or a network driver decides; a switch's or MDIO bus's device with no
    interface is not a NIC; None: these do not say."""
    names = current_names(device)
    if not names and _switch_or_bus_driver(device):
        return False  # "b53-switch 10700000.switch: Link is Up": a switch, not a host's NIC
    if names or _kernel_net_driver(device) or device.has("wiphy") or device.has("net_device"):
        return True  # a wiphy: a Wi-Fi driver's line named its chip (wiphy_join); a net_device
    if any(vendor_driver(device.value(f)) for f in ("driver", "refused_by")):
        return True  # an out-of-tree network driver read from its source (vendor_formats.json)
    if vendor_module(device.value("driver")) is not None:
        return True  # one whose build names its module (vendor_drivers.json: Broadcom's wl)
    if out_of_tree_chip(device.value("driver")) is not None:
        # an out-of-tree driver named for a chip of a family the kernel's own network drivers
        # name (oot_chips: vendor_chips.json, drivers/net/ and drivers/staging/ only):
        # RinCat's rtl88x2bu bound in `lsusb -t` is the RTL88x2BU's driver
        return True
    if net_source(device) is not None:
        return True  # a driver newer than the tables, printing rtw88's words (net_source_lines)
    return None


def _pci_nic(device: Device, ids: IdDatabase) -> bool:
    driver = device.value("driver")
    klass = str(device.value("pci_class") or "")
    named = (driver, device.value("refused_by"))  # "tc956x_pci-eth": an Ethernet driver
    net_driver = bool(ids.module(driver)) or bool(re.match(r"^r81\d\d$", str(driver)))
    net_driver = net_driver or any(_ETH_DRIVER.search(str(d or "")) for d in named)
    if not net_driver and _bluetooth_function(device, ids, klass):
        return False
    return klass.startswith(("02", "0d")) or bool(_NET_CLASS.search(klass)) or net_driver


# A combo chip's Bluetooth function is in the network class "other" too: hci_bcm4377.c's table
# (drivers/bluetooth, 6.1 and 6.12) matches the BCM4377/4378/4387/4388 Bluetooth functions by
# PCI_CLASS_NETWORK_OTHER (0x0280), beside their Wi-Fi functions (lspci: "Network controller:
# ... BRCM4378 Bluetooth Controller"). Named a Bluetooth one by lspci or pci.ids, no NIC.
_BLUETOOTH = re.compile(r"\bBluetooth\b", re.I)
_OTHER_NETWORK = re.compile(r"^(?:0x)?0280|^Network controller\b", re.I)


def _bluetooth_function(device: Device, ids: IdDatabase, klass: str) -> bool:
    if klass and not _OTHER_NETWORK.match(klass):
        return False  # an Ethernet controller (0200) is one whatever its name says
    name = f"{_described(device)} {ids.name('pci', device.value('ids')) or ''}"
    return bool(_BLUETOOTH.search(name[:400]))


# A device named a hub ("RTL 8153 USB 3.0 hub with gigabit ethernet", 0bda:5401 in usb.ids) is
# the hub: a USB hub's device carries only the hub interface (class 09), and what a hub chip
# embeds (its Ethernet) enumerates as a device of its own on one of its ports (the USB 2.0
# specification's "compound device"), which the kernel's tables bind by its own IDs (0bda:8153).
_HUB_NAME = re.compile(r"\bhub\b", re.I)


def _usb_nic(device: Device, ids: IdDatabase) -> bool:
    driver = device.value("driver")
    described = _described(device)
    own = _own_name(device, described, ids)
    bound = (
        bool(ids.drivers_for("usb", device.value("ids")))
        or bool(ids.module(driver))
        or bool(ids.module(device.value("refused_by")))
        or (not driver and bool(ids.module(device.value("probed_by"))))
        or _storage_mode(device, ids)
    )
    if bound or named_usb_nic(device):
        return True
    if _HUB_NAME.search(own):
        return False  # its name's network words say what sits behind the hub
    return bool(re.search(r"\bLAN\b|Ethernet", described)) or named_network(own)


def _own_name(device: Device, described: str, ids: IdDatabase) -> str:
    """What names the device itself: lsusb's text and usb.ids' entry without the vendor's name
    (lsusb prints "vendor product", and only the vendor when usb.ids has no product: "IMC
    Networks" is a company, not a network device)."""
    usb_ids = str(device.value("ids") or "")
    vendor = ids.usb_vendors.get(usb_ids.partition(":")[0], "")
    own = described.replace(vendor, " ") if vendor else described
    return f"{own} {ids.usb_devices.get(usb_ids, '')}"


def _platform_nic(device: Device, ids: IdDatabase) -> bool:
    name = str(device.value("platform_name") or "")
    if _OTHER_BUS_NODE.search(name.partition(".")[2]):
        return False  # "d0070000.mmc" is an SD/SDIO host, even if its driver says meson
    return bool(_SOC_DRIVER.search(f"{device.value('driver') or ''} {name}"))


def _sdio_nic(device: Device, ids: IdDatabase) -> bool:
    return bool(device.value("wireless")) or sdio_wifi(device)


# The last rule, by the device's bus; a device on no known bus is not a NIC.
_BY_BUS: dict[str, Callable[[Device, IdDatabase], bool]] = {
    "pci": _pci_nic,
    "usb": _usb_nic,
    "platform": _platform_nic,
    "sdio": _sdio_nic,
}


def software_device(device: Device) -> bool:
    """A device only ip shows, as a software one (listing_sightings._software_facts: an upper
    device, or a ``qdisc noqueue`` one), with nothing that shows hardware: no bus device, no
    driver or wiphy, not Wi-Fi (mac80211's interfaces are noqueue: net/mac80211/iface.c
    ieee80211_if_setup_no_queue(); a Wi-Fi name or link type keeps them)."""
    said = {str(f.value) for f in device.all("software")}
    if not said:
        return False
    if any(kind not in ("if", "mac") for kind, _ in device.keys):
        return False
    if device.value("driver") or device.has("wiphy") or device.value("wireless"):
        return False
    if "upper" in said:
        return True
    return not any(wireless_from_name(n) for n in current_names(device))


def software_driver(device: Device) -> bool:
    """An interface whose driver is one of the kernel's software drivers by the name its
    get_drvinfo writes (catalog.software_drivers: a VLAN's "802.1Q VLAN Support", "bridge",
    "veth" ...), with no bus device, wiphy or IDs of its own: software whatever its name."""
    if software_driver_file(device.value("driver")) is None:
        return False
    if any(kind not in ("if", "mac") for kind, _ in device.keys):
        return False
    return not (device.has("wiphy") or device.value("ids"))


def is_nic(device: Device, catalog: Catalog, ids: IdDatabase) -> bool:
    if device.has("hub") or _other_link_device(device) or software_device(device):
        return False
    if software_driver(device):
        return False
    if card_driver(device.value("driver")) and not current_names(device):
        return False  # mt7996e_hif: the second PCIe link of a card its module's driver takes
    bus = bus_of(device)
    chip = catalog_chip(device, bus, catalog)
    if chip is not None:
        return chip.kind == "nic"
    said = _by_names_or_net_driver(device)
    if said is not None:
        return said
    if "South Bridge" in _described(device):
        return False  # the Pi 5's RP1 calls itself an Ethernet controller
    rule = _BY_BUS.get(bus)
    return rule is not None and rule(device, ids)


# Drivers of other kinds that bind SDIO functions, by their names: Bluetooth (drivers/bluetooth
# btsdio, btmrvl_sdio, btmtksdio), serial (drivers/mmc/core/sdio_uart.c), DVB (smssdio).
_SDIO_NOT_NET = re.compile(r"^(?:bt|hci_)|uart|smssdio", re.I)


def sdio_wifi(device: Device) -> bool:
    """An SDIO function that a driver drives or probed: the network drivers on SDIO in the
    6.1/6.12 tables are all Wi-Fi ones, and so are the vendors' out-of-tree ones (esp32_sdio,
    8189fs ...); the drivers of other kinds are told by their names."""
    if bus_of(device) != "sdio":
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


def current_names(device: Device) -> list[str]:
    former = {str(f.value) for f in device.all("former_name")}
    return [n for n in device.names() if n not in former]
