"""What an older kernel's line (catalog.old_formats) says, as a sighting: fec's "eth0: Freescale
FEC PHY driver [Generic PHY](mii_bus:phy_addr=1:06, irq=-1)" names eth0's driver and ties eth0
to the PHY 1:06; libphy's "PHY: 1:06 - Link is Up - 1000/Full" is that PHY's (so eth0's) link,
fec's own "eth0: status: link down." eth0's;
a driver's own warning ("fec_stop : Graceful transmit stop did not complete !") is a complaint
of its one device (lone_device_ties.lone_wifi_devices)."""

from __future__ import annotations

from sbctune.catalog.ids import load_ids
from sbctune.catalog.old_formats import old_format_of
from sbctune.inventory.found_index import FoundIndex
from sbctune.inventory.parsers.dmesg import DmesgEvent
from sbctune.inventory.sightings import Fact, Key, Sighting, iface_key

_SRC = "dmesg"


def on_old_format(event: DmesgEvent) -> Sighting | None:
    f = event.fields
    row = old_format_of(f.get("format", ""))
    if row is None:
        return None
    text, no = event.text, event.line
    why = f"{text[:200]} (the format of {row.source})"
    keys: list[Key] = []
    if key := iface_key(f.get("iface")):
        keys.append(key)
    if phy_id := f.get("phy_id"):
        keys.append(("old_phy", phy_id))
    if not keys and row.driver:
        keys.append(("drv", row.driver))
    if not keys and row.library:  # about a device of one of the library's users
        keys.append(("lib", row.library))
    if not keys:
        return None
    sighting = Sighting(keys)
    if row.driver and f.get("iface"):
        sighting.add("driver", row.driver, _SRC, why, no)
    if row.bus and f.get("iface"):  # a vendor tree's driver of no one name still says its bus
        sighting.add("bus", row.bus, _SRC, why, no)
    if f.get("phy"):
        sighting.add("phy", f["phy"], _SRC, why, no)
    if (chip := f.get("chip") or row.chip) and f.get("iface"):  # "eth0: LAN9115 (rev 2) at"
        sighting.add("chip_text", chip, _SRC, why, no)
    if row.driver and (device := f.get("pci_device")):
        _matched_entry(sighting, row.driver, device, why, no)
    if row.probe_exit:  # printed on the probe's way out with an error: a refusal, told by
        sighting.add("probe_exit", text, _SRC, text, no)  # probe-failed with this row's source
    elif row.level != "info" and row.trouble:
        sighting.add("kernel_error", text, _SRC, text, no)  # the line itself, as evidence
    if row.link:  # a link change, as the table says: "up" at the speed and duplex it names
        up = row.link == "up"
        sighting.add("link", up, _SRC, why, no)
        sighting.add("link_event", (no, event.timestamp, up), _SRC, why, no)
        if up and (speed := f.get("speed", "")) and speed.isascii() and speed.isdigit():
            sighting.add("link_speed_mbps", int(speed), _SRC, why, no)
            duplex = f.get("duplex", "").lower().removesuffix("duplex")  # "FullDuplex"
            sighting.add("duplex", duplex, _SRC, why, no)
    return sighting


def _matched_entry(sighting: Sighting, driver: str, device: str, why: str, no: int) -> None:
    """A driver that prints its matched PCI ID entry's device number ("probing pci device:
    0x3e", ath10k-ct's __ath10k_pci_probe()) names the device's IDs when one entry of its alias
    table (resources/ids/drivers.json) has that number: 168c:003e, QCA6174."""
    if (ids := load_ids().driver_entry("pci", driver, device)) is not None:
        said = f"{why}; {driver}'s ID table has one entry of device 0x{device}: {ids}"
        sighting.add("ids", ids, _SRC, said, no)
        sighting.add("bus", "pci", _SRC, said, no)


_WIRELESS_NAME = ("wlan", "wl", "mlan", "ath", "ra", "phy")


def lone_phy_link(found: list[Sighting], index: FoundIndex | None = None) -> list[Sighting]:
    """3.x phy_print_status() names a PHY by its MDIO bus id only ("PHY: himii:01 - Link is Up -
    100/Full"). When no line ties that PHY to a MAC, the log's one PHY and its one wired
    interface are one NIC (a SoC with one MAC: the Hi3518E's eth0); two of either tie none.
    (`index`: found's, when made already.)"""
    said = index or FoundIndex(found)
    phys = {v for s in said.keyed("old_phy") for k, v in s.keys if k == "old_phy"}
    if len(phys) != 1:
        return []
    names = {v for s in said.keyed("if") for k, v in s.keys if k == "if"}
    wired = {n for n in names if not n.startswith(_WIRELESS_NAME)}
    if len(phys) != 1 or len(wired) != 1 or len(names) != 1:
        return []
    (phy,), (name,) = phys, wired
    if any(("old_phy", phy) in s.keys and len(s.keys) > 1 for s in said.keyed("old_phy")):
        return []  # a line already tied it (fec's "mii_bus:phy_addr=1:06")
    why = f"the only PHY of the log ({phy}) and its only interface ({name})"
    return [Sighting([("old_phy", phy), ("if", name)], [Fact("seen", True, _SRC, why, 0)])]
