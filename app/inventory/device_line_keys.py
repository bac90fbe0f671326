"""Which device, interface and driver a driver's kernel-log line names (the sighting that
``log_sightings`` then adds the line's own facts to): each step below in the order a line is
read, the facts in the order they are added (the first of them is the line's driver, as
``child_join`` reads it)."""

from __future__ import annotations

from sbctune.catalog.catalog import load_catalog
from sbctune.catalog.gadget_ether import gadget_driver
from sbctune.catalog.kernel_drivers import load_kernel_drivers
from sbctune.catalog.netdev_info_formats import driver_by_words
from sbctune.catalog.of_node_formats import of_node_named
from sbctune.catalog.oot_chips import out_of_tree_chip
from sbctune.catalog.probe_exits import probe_exit
from sbctune.inventory.child_join import child_key
from sbctune.inventory.dsa_ports import dsa_port
from sbctune.inventory.log_complaints import (
    driver_on_its_device,
    driver_speaks_on_its_device,
    firmware_not_got,
)
from sbctune.inventory.parsers.dmesg import DmesgEvent
from sbctune.inventory.sightings import Key, Sighting, device_keys, iface_key

_SRC = "dmesg"
_NAMED_BY_DRIVER = {"link_up", "link_down", "tx_timeout"}  # "r8125: eth0: link up"
_NOT_DRIVERS = {"pci", "usb", "usbcore", "IPv6", "libphy", "systemd-udevd", "hwmon"}


def _driver_by_words(event: DmesgEvent, sighting: Sighting) -> None:
    known = driver_by_words(event.text)
    if known is None:
        return
    driver, message = known
    why = f"{event.text[:200]} (printed from {driver.name}'s format in {message.source})"
    sighting.add("driver", driver.name, _SRC, why, event.line)
    if driver.bus is not None:
        sighting.add("bus", driver.bus, _SRC, why, event.line)


def _tag_is_driver(tag: str | None) -> bool:
    """A line with no device ("r8125: eth0: link up") names its driver by its tag alone, and so
    does a program's own message in the same shape ("ONIE: ni0: link down." of ONIE's network
    script, pasted with the kernel's lines): the tag is a driver only when a driver table knows
    it (the 6.1/6.12 kernels', the catalog's vendor drivers, an out-of-tree name of a chip)."""
    if not tag:
        return False
    return bool(
        load_kernel_drivers().get(tag)
        or load_catalog().chips_by_driver(tag)
        or out_of_tree_chip(tag)
    )


def _refused(text: str, driver: str | None) -> bool:
    """The driver tried the device and gave up (a probe failure), so none is bound; a missing
    firmware file alone is not that (the driver may fall back to another file). Its own probe
    function's words on an error exit say so too (probe_exits.json: rtw88's "failed to setup
    chip information", whose -ENODEV the driver core logs at debug level only)."""
    probe = "probe" in text and "failed with error" in text
    failed = "Unknown version" in text or probe or "probe failed" in text
    return failed or probe_exit(driver, text) is not None


def _keys(event: DmesgEvent, found: tuple[str, Key] | None) -> list[Key]:
    """The device's key (or its MAC's, by the PHY's MDIO bus), the interface's, and an SDIO
    Wi-Fi driver's own key."""
    keys: list[Key] = []
    if found is not None:
        keys.append(found[1])
    elif (bus_id := event.fields.get("mdio")) and (child := child_key(bus_id[:-2], bus_id)):
        keys.append(child)  # "eth0: PHY ID ... (stmmac-0:00)": eth0 is stmmac-0's MAC's
    if key_if := iface_key(event.iface):
        keys.append(key_if)
    driver = event.driver
    if found is not None and found[0] == "sdio" and driver and driver not in _NOT_DRIVERS:
        keys.append(("wifi", driver))  # its lines without a device ("brcmfmac: ...") join it
    return keys


def _by_interface_alone(event: DmesgEvent, sighting: Sighting) -> None:
    """A line on an interface whose device it does not name: an OF node it prints, or the
    driver whose own words it is."""
    if node := of_node_named(event.text):
        # "eth0: EMAC-0 /plb/opb/ethernet@ef600c00" (%pOF): the OF core makes a node's device a
        # platform device (drivers/of/platform.c)
        sighting.add("bus", "platform", _SRC, event.text, event.line)
        sighting.add("of_node", node, _SRC, event.text, event.line)
    if not event.driver:
        _driver_by_words(event, sighting)  # "eth0: Atheros AG71xx at ...": ag71xx's own words
        _gadget_interface(event, sighting)  # "usb0: HOST MAC ...": the USB gadget's u_ether


def _gadget_interface(event: DmesgEvent, sighting: Sighting) -> None:
    """u_ether's own line on the interface it registered: the driver ethtool reports for it."""
    head = f"{event.iface}: "
    if not event.iface or not event.text.startswith(head):
        return
    known = gadget_driver(event.text[len(head) :])
    if known is not None:
        driver, source = known
        why = f"{event.text[:200]} (the USB gadget's Ethernet layer, {source})"
        sighting.add("driver", driver, _SRC, why, event.line)


def _where(event: DmesgEvent, sighting: Sighting, bus: str | None) -> bool:
    """The SDIO function or platform device the line names; True: a platform device's child
    (an MDIO bus: "8000000.ethernet:mdio@f00"), of another driver, so nothing more is read."""
    device = event.device or ""
    if bus == "sdio" and device.count(":") == 2:  # sdio_bus.c: "mmc1:0001:1", card and function
        sighting.add("sdio_function", device, _SRC, event.text, event.line)
    if bus != "platform":
        return False
    of_path = "@" in device.split(":")[0]  # "soc@ffe00000:ethernet@b0000" is one device
    name = device if of_path else device.split(":")[0]
    sighting.add("platform_name", name, _SRC, event.text, event.line)
    return ":" in device and not of_path


def _tried(event: DmesgEvent, sighting: Sighting) -> str | None:
    """A driver that says it tried this device (and the firmware it did not get)."""
    if (tried := driver_on_its_device(event.text, event.device)) is not None:
        sighting.add("refused_by", tried, _SRC, event.text, event.line)
        if wanted := firmware_not_got(event.text):  # the driver's own "Failed to get firmware"
            sighting.add("firmware_missing", event.text, _SRC, event.text, event.line)
            sighting.add("firmware_wanted", wanted, _SRC, event.text, event.line)
    return tried


def _speaker(event: DmesgEvent, bus: str | None, tried: str | None) -> str | None:
    """Only a line on the whole USB device ("usb 1-1: ..."): a line a driver printed on its
    interface ("smsc95xx 1-1.1:1.0: eth0: ...") already names its driver."""
    if bus == "usb" and tried is None and event.driver in (None, "usb"):
        return driver_speaks_on_its_device(event.text, event.device)
    return None


def _named_by_its_driver(event: DmesgEvent, key_if: Key | None, driver: str | None) -> bool:
    """dev_watchdog() prints the driver's own name (netdev_drivername(), sch_generic.c); a
    link line's tag is a driver's when a table knows it."""
    if event.kind not in _NAMED_BY_DRIVER or key_if is None:
        return False
    return event.kind == "tx_timeout" or _tag_is_driver(driver)


def _bound_driver(
    event: DmesgEvent, sighting: Sighting, found: tuple[str, Key] | None, tried: str | None
) -> None:
    bus = found[0] if found else None
    speaks = _speaker(event, bus, tried)
    driver = event.driver if speaks is None else speaks  # "usb 1-1: rtl8xxxu: Loading ..."
    key_if = iface_key(event.iface)
    named = found is not None or speaks is not None or _named_by_its_driver(event, key_if, driver)
    if not driver or driver in _NOT_DRIVERS or not named:
        return
    sighting.add("driver", driver, _SRC, event.text, event.line)
    sighting.add("bus", bus, _SRC, event.text, event.line)
    if bus == "usb" and key_if is not None:
        # huawei_cdc_ncm's wwan0 on 1-1.4:1.2: a later usb-storage line on 1-1.4:1.3 keeps it
        sighting.add("net_driver", driver, _SRC, event.text, event.line)


def _platform_named_alone(event: DmesgEvent) -> tuple[str, Key] | None:
    """The driver core's "nrc80211: probe of nrc80211 failed with error -22": a device named
    as its driver, with no bus form, is a platform device added with no id, which
    platform_device_add() names "%s" alone (drivers/base/platform.c, 6.1 and 6.12) and
    platform_match() binds to the driver of that name (corpus/halow_pi4_nrc7292_76_*). A
    network driver of the kernel's tables printing on such a device about the interface it
    registered says the same: a board file's DM9000, "dm9000 dm9000: eth0: link up, 100Mbps,
    ..." (corpus/netboot48_tiny210_*). Not without the interface: wcn36xx's "wcn36xx wcn36xx:
    Direct firmware load ..." joins its driver's own device-less lines as before (the device
    would split them; corpus/db410c_meta_qcom_pr2_*)."""
    device = event.fields.get("device")
    if not device:
        return None
    # __netdev_printk()'s own "driver name iface: " (parsers/dmesg_named_alone.py) ties the
    # interface to the device whatever the driver (an out-of-tree one: sprdwl_ng's unisoc_wifi)
    if event.fields.get("named_alone") and event.iface:
        return "platform", ("platform", device)
    if device != event.fields.get("driver"):
        return None
    if event.kind != "probe_failed" and not (event.iface and load_kernel_drivers().knows(device)):
        return None  # "bcm2835-codec bcm2835-codec: ...": a device named alone, but no NIC's
    return "platform", ("platform", device)


def device_sighting(event: DmesgEvent) -> Sighting | None:
    if port := dsa_port(event):
        return port  # "qca8k mdio.0:00 lan1: ...": a switch's port, not the MDIO bus's device
    found = device_keys(event.device) or _platform_named_alone(event)
    if found is None and (child := child_key(event.driver, event.device)):
        return Sighting([child])  # "mhi mhi0: ...": joined to its parent by join_children()
    keys = _keys(event, found)
    if not keys:
        return None
    sighting = Sighting(keys)
    if event.fields.get("unnamed"):  # __netdev_printk() before register_netdev(): a NIC's line
        sighting.add("net_device", True, _SRC, event.text, event.line)
    if found is None and iface_key(event.iface) is not None:
        _by_interface_alone(event, sighting)
    if _where(event, sighting, found[0] if found else None):
        return sighting
    if _refused(event.text, event.driver):
        sighting.add("driver_none", True, _SRC, event.text, event.line)
        sighting.add("refused_by", event.driver, _SRC, event.text, event.line)
        if probe_exit(event.driver, event.text) is not None:  # its own probe's way out
            sighting.add("probe_exit", event.text, _SRC, event.text, event.line)
        return sighting  # "r8152 1-10:2.0: Unknown version 0x7410": probed, not bound
    _bound_driver(event, sighting, found, _tried(event, sighting))
    return sighting
