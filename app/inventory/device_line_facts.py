"""What a driver's line about its device or interface says (registration, link, errors, chip,
firmware), as facts on the sighting ``device_line_keys`` made of the line: the rules of each
kind of line in a table, in the order they add their facts."""

from __future__ import annotations

from collections.abc import Callable

from sbctune.catalog.asic_revisions import asic_rev_chip
from sbctune.catalog.detected_names import detected_name
from sbctune.catalog.driver_firmware import chip_named_alone, firmware_dir_in
from sbctune.catalog.func_chips import chips_by_function
from sbctune.catalog.probe_names import probe_name
from sbctune.catalog.vendor_formats import vendor_line
from sbctune.catalog.wiphy_chips import revision_chip
from sbctune.inventory.device_line_keys import device_sighting
from sbctune.inventory.log_complaints import firmware_file, firmware_runs, kernel_complaint
from sbctune.inventory.parsers.daemon_lines import carrier_up_states
from sbctune.inventory.parsers.dmesg import DmesgEvent
from sbctune.inventory.sightings import Sighting, iface_key

_HEX_MAC = "0123456789abcdefABCDEF:"
_SRC = "dmesg"
# aqc111's "Link Speed %d, USB %d" (aqc111_configure_rx()): 3 SUPER, 2 HIGH, 1 FULL or LOW
_USB_GENERATION = {"3": 5000.0, "2": 480.0}


def link_facts(event: DmesgEvent, sighting: Sighting, up: bool) -> None:
    f = event.fields
    sighting.add("link_event", (event.line, event.timestamp, up), _SRC, event.text, event.line)
    if f.get("port"):
        # "eth0: port 2 link down" (swconfig-era mtk_soc_eth, mt7530.c's own port lines): a
        # switch port behind the interface, whose drops are the interface's flapping; the
        # interface's own link (its CPU port) is not what the line says
        return
    sighting.add("link", up, _SRC, event.text, event.line)
    if up and f.get("speed"):
        speed = float(f["speed"])
        mbps = int(speed * 1000 if f.get("unit") == "G" else speed)
        sighting.add("link_speed_mbps", mbps, _SRC, event.text, event.line)
    for name, said in (("duplex", f.get("duplex", "").lower()), ("phy", f.get("phy"))):
        if up and said:  # phy: the PHY that says it (dmesg_mii_phy: r8169's PHY downshifted)
            sighting.add(name, said, _SRC, event.text, event.line)
    if mbps_usb := _USB_GENERATION.get(f.get("usb_gen", "")):
        sighting.add("usb_speed_mbps", mbps_usb, _SRC, event.text, event.line)


Rule = Callable[[DmesgEvent, Sighting], None]


def _field(fact: str, name: str) -> Rule:
    """The fact ``fact``: the line's field ``name``."""

    def add(event: DmesgEvent, sighting: Sighting) -> None:
        sighting.add(fact, event.fields.get(name), _SRC, event.text, event.line)

    return add


def _link_up(event: DmesgEvent, sighting: Sighting) -> None:
    link_facts(event, sighting, True)


def _link_down(event: DmesgEvent, sighting: Sighting) -> None:
    link_facts(event, sighting, False)


def _bond_port_link(event: DmesgEvent, sighting: Sighting) -> None:
    """The bond's miimon verdict on its port ("link status definitely down ..."): the port's
    own carrier as the bond last saw it, as /proc/net/bonding's "MII Status" is."""
    if state := event.fields.get("state"):
        link_facts(event, sighting, state == "up")


def _carrier(event: DmesgEvent, sighting: Sighting) -> None:
    """A daemon's carrier line (systemd-networkd's "eth0: Lost carrier", NetworkManager's
    "device (eth0): carrier: link connected"): the interface's link, and a link change that
    counts only where the kernel's own line for it is missing (nic_log._link_changes): the
    daemons write theirs for the same change the kernel's driver reported (walk 24: "went down
    4 times" where the kernel said 2, a dmesg and a networkd journal pasted together)."""
    up = event.fields.get("state") in carrier_up_states()
    sighting.add("daemon_link_event", (event.line, event.timestamp, up), _SRC, event.text,
                 event.line)  # fmt: skip
    sighting.add("link", up, _SRC, event.text, event.line)


def _netifd_link(event: DmesgEvent, sighting: Sighting) -> None:
    """netifd's "Network device 'eth0' link is up": the interface's link, but no link change
    of its own: the kernel's line for the same change (when the log has it) is the one that
    counts toward flapping, so two daemons' words for one drop are not two drops."""
    up = event.fields.get("state") == "up"
    sighting.add("link", up, _SRC, event.text, event.line)


def _said_error(event: DmesgEvent, sighting: Sighting) -> None:
    """The driver's own error line (mt76's "vendor request ... failed:-32", or an older
    kernel's wording with its errno), or net/core's "eth0: hw csum failure"."""
    if kernel_complaint(event.text, event.driver):
        sighting.add("kernel_error", event.text, _SRC, event.text, event.line)


def _complaint(event: DmesgEvent, sighting: Sighting) -> None:
    sighting.add(event.kind, event.text, _SRC, event.text, event.line)


def _firmware_wanted(event: DmesgEvent, sighting: Sighting) -> None:
    if wanted := event.fields.get("firmware") or event.fields.get("firmware2"):
        sighting.add("firmware_wanted", wanted, _SRC, event.text, event.line)


def _no_link(event: DmesgEvent, sighting: Sighting) -> None:
    sighting.add("link", False, _SRC, event.text, event.line)  # the interface could not open


def _firmware(event: DmesgEvent, sighting: Sighting) -> None:
    f = event.fields
    said = f"{f.get('firmware')} v{f.get('version')}"
    sighting.add("firmware", said, _SRC, event.text, event.line)


def _firmware_file(event: DmesgEvent, sighting: Sighting) -> None:
    if named := firmware_file(event.text):
        sighting.add("firmware_file", named, _SRC, event.text, event.line)  # a file it loads


def _chip_alone(event: DmesgEvent, sighting: Sighting) -> None:
    if alone := chip_named_alone(event.text.rpartition(": ")[2]):
        sighting.add("chip_text", alone, _SRC, event.text, event.line)  # ath11k: "qcn9074 hw1.0"


def _detected_name(event: DmesgEvent, sighting: Sighting) -> None:
    """iwlwifi's "Detected Intel(R) Wi-Fi 6E AX211 160MHz": the product its tables name
    (catalog.detected_names), over pci.ids' name of a CNVi chipset function."""
    if name := detected_name(event.driver, event.text.partition(": ")[2]):
        sighting.add("chip_text", name, _SRC, event.text, event.line)


def _probe_name(event: DmesgEvent, sighting: Sighting) -> None:
    """A server NIC driver's probe message naming its adapter (catalog.probe_names): bnxt_en's
    "Broadcom BCM57412 NetXtreme-E 10Gb Ethernet found at mem ...", cxgb4's "Chelsio T62100-SO-CR
    rev 0" (the card's VPD id)."""
    if name := probe_name(event.driver, event.text.partition(": ")[2]):
        sighting.add("chip_text", name, _SRC, event.text, event.line)


def _firmware_dir(event: DmesgEvent, sighting: Sighting) -> None:
    if folder := firmware_dir_in(event.text):
        sighting.add("firmware_dir", folder, _SRC, event.text, event.line)  # "from ath10k/..."


def _firmware_runs(event: DmesgEvent, sighting: Sighting) -> None:
    if firmware_runs(event.text):  # "WLAN FW is active": it runs one
        running = event.text.split(": ", 1)[-1][:120]
        sighting.add("firmware", running, _SRC, event.text, event.line)


def _chip_by_function(event: DmesgEvent, sighting: Sighting) -> None:
    if chips := chips_by_function(event.text):  # "rtl8192eu_parse_efuse: "
        why = f"{event.text[:200]} (printed by a function of {chips[1]}, the file of those chips)"
        sighting.add("chip_by_function", chips[0], _SRC, why, event.line)


def _chip_by_revision(event: DmesgEvent, sighting: Sighting) -> None:
    # mt76's "ASIC revision: 79220010"; tg3's "Tigon3 [partno(BCM95719) rev 5719001]"
    if rev := revision_chip(event.text, event.driver) or asic_rev_chip(event.text, event.driver):
        sighting.add("chip_by_revision", rev[0], _SRC, rev[1], event.line)


def _renamed(event: DmesgEvent, sighting: Sighting) -> None:
    if old := iface_key(event.fields.get("old")):
        sighting.keys.append(old)
        sighting.add("former_name", event.fields.get("old"), _SRC, event.text, event.line)


def _mac(event: DmesgEvent, sighting: Sighting) -> None:
    mac = event.fields.get("mac")
    # a MAC its author masked ("24:xx:xx:xx:xx:xx") is no address: two such adapters would join
    if mac and not mac.strip(_HEX_MAC):
        sighting.keys.append(("mac", mac.lower()))


def _irq_hint(event: DmesgEvent, sighting: Sighting) -> None:
    if event.fields.get("irq"):
        sighting.add("irq_hint", int(event.fields["irq"]), _SRC, event.text, event.line)


def _vendor_facts(event: DmesgEvent, sighting: Sighting) -> None:
    """An out-of-tree driver's line whose format prints the netdev's name (vendor_formats:
    nuc970-emac0's "b0002000.emac0: eth0 is OPENED"): the device's interface; or its chip by
    the row's template over a register the line prints (nrc80211's "SPI probing.
    chip_id:7292 ...": NRC7292)."""
    found = vendor_line(event.driver, event.text)
    if found is None:
        return
    row, fields = found
    key = iface_key(fields.get("iface"))
    if key is not None and key not in sighting.keys:
        sighting.keys.append(key)
    if (chip := row.chip_of(fields)) is not None:
        why = f"{event.text[:200]} (the chipset number {row.source} prints)"
        sighting.add("chip_text", chip, _SRC, why, event.line)


def _seen(event: DmesgEvent, sighting: Sighting) -> None:
    sighting.add("seen", True, _SRC, event.text, event.line)


# Each kind of line's rules, in the order their facts are added; every line is also "seen".
_RULES: dict[str, tuple[Rule, ...]] = {
    "link_up": (_link_up,),
    "carrier_up": (_link_up,),
    "link_down": (_link_down,),
    "carrier": (_carrier,),
    "bond_port": (_bond_port_link,),
    "netifd_link": (_netifd_link,),
    "csum_failure": (_said_error,),
    "device": (
        _said_error,
        _firmware_file,
        _chip_alone,
        _detected_name,
        _probe_name,
        _firmware_dir,
        _firmware_runs,
        _chip_by_function,
        _chip_by_revision,
        _vendor_facts,
    ),
    "phy_failure": (_complaint, _no_link),
    "kevent_dropped": (_complaint,),
    "usb_error": (_complaint, _said_error),
    "tx_timeout": (_complaint,),
    "firmware_missing": (_complaint, _firmware_wanted),
    "probe_failed": (_complaint,),
    "register": (_field("description", "description"), _mac),
    "description": (_field("description", "description"),),
    "chip": (_field("chip_text", "chip"), _mac, _irq_hint),
    "phy_attached": (_field("phy", "phy"),),
    "driver_version": (_field("driver_version", "version"),),
    "firmware": (_firmware,),
    "renamed": (_renamed,),
    "vendor_register": (_mac, _irq_hint, _seen),
    "mac": (_mac,),
}


def on_device(event: DmesgEvent) -> Sighting | None:
    """Lines of a driver about its device or interface (registration, link, errors)."""
    sighting = device_sighting(event)
    if sighting is None:
        return None
    for rule in _RULES.get(event.kind, ()):
        rule(event, sighting)
    sighting.add("seen", True, _SRC, event.text, event.line)
    return sighting
