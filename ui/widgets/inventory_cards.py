"""The board card and one card per NIC, as the Inspect page shows them."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QRadioButton, QWidget

from sbctune.inventory.link_words import duplex_words, set_down_words
from sbctune.inventory.model import Board, Finding, Nic
from sbctune.inventory.report import eee_words
from sbctune.inventory.switch_ports import switch_words
from sbctune.kernel_words import FIELD_NOT_KNOWN, release_words
from sbctune.ui.theme import Colors
from sbctune.ui.widgets.common import Badge, Card, FactGrid, label

UNKNOWN = "unknown"

SEVERITY_COLOR = {"info": "info", "warning": "warning", "problem": "problem"}


def _or_unknown(value: object) -> str:
    return UNKNOWN if value is None or value == "" else str(value)


def throttling_text(board: Board) -> str:
    t = board.throttled
    if t is None:
        return "unknown (needs the Pi's vcgencmd tool)"
    now = [
        name
        for flag, name in (
            (t.under_voltage, "under-voltage"),
            (t.frequency_capped, "frequency capped"),
            (t.throttled, "throttled"),
            (t.soft_temp_limit, "soft temperature limit"),
        )
        if flag
    ]
    if now:
        return "NOW: " + ", ".join(now)
    if t.any_since_boot:
        return "fine now, but throttled or under-voltage since boot"
    return "none"


def board_facts(board: Board) -> list[tuple[str, str]]:
    facts = [
        ("Model", _or_unknown(board.model)),
        ("SoC", _or_unknown(board.soc)),
        ("OS", _or_unknown(board.os)),
        ("Kernel", release_words(board.kernel, FIELD_NOT_KNOWN)),
        ("CPU cores", _or_unknown(board.cpu_cores)),
        ("Throttling", throttling_text(board)),
    ]
    if board.soc_nic:
        facts.append(("SoC's Ethernet", board.soc_nic))
    if board.temperature_c is not None:
        facts.append(("Temperature", f"{board.temperature_c:.1f} °C"))
    if board.cpu_governors:
        facts.append(("CPU governor", ", ".join(sorted(set(board.cpu_governors)))))
    return facts


BUS_KIND = {"usb": "USB", "pci": "PCIe", "platform": "built-in", "sdio": "SDIO"}


def nic_kind(nic: Nic) -> str:
    """How the NIC is attached, in a word or three, for the card's title."""
    if nic.wireless:
        return "Wi-Fi"
    if nic.switch_port:  # its own bus is the switch's; "bus not identified" said nothing
        return "switch port"
    if nic.builtin:
        return "built-in"
    return BUS_KIND.get(nic.bus, "bus not identified")


def nic_title(nic: Nic) -> str:
    return f"{nic.name or '(no interface)'} · {nic_kind(nic)}"


def bus_text(nic: Nic) -> str:
    if nic.bus == "usb":
        speed = f", {nic.usb_speed_mbps:g} Mbit/s" if nic.usb_speed_mbps else ""
        gen = {480: " (USB 2.0)", 5000: " (USB 3.0)", 10000: " (USB 3.1 Gen 2)"}.get(
            nic.usb_speed_mbps or 0, ""
        )
        if nic.usb_speed_mbps and nic.usb_speed_at_least:  # a SuperSpeed bus: a floor
            speed, gen = f", {nic.usb_speed_mbps:g} Mbit/s or more", " (USB 3)"
        if not nic.bus_path:  # "USB 480 Mbit/s", not "USB , 480 Mbit/s"
            speed = speed.removeprefix(", ")
        return f"USB {nic.bus_path or ''}{speed}{gen}".replace("  ", " ").strip()
    if nic.bus == "pci":
        p = nic.pcie
        if p is None or p.speed_gts is None:
            return f"PCIe {nic.bus_path or ''}".strip()
        text = f"PCIe {p.speed_gts:g} GT/s x{p.width or '?'}"
        if p.max_speed_gts:
            text += f" (device can do {p.max_speed_gts:g} GT/s x{p.max_width or '?'})"
        if p.downgraded:
            text += " — DOWNGRADED"
        return text
    if nic.bus == "platform":
        return "built into the SoC"
    if nic.bus == "sdio":
        return f"SDIO {nic.bus_path or ''}".strip()
    return "not identified"


def link_text(nic: Nic) -> str:
    if (down := set_down_words(nic)) is not None:
        return down
    if nic.link_detected is False:
        return "no link (cable unplugged?)"
    if nic.link_speed_mbps is None:  # a carrier line (ipheth's "link becomes ready"), no speed
        return "up (speed not known)" if nic.link_detected else UNKNOWN
    text = f"{nic.link_speed_mbps:g} Mbit/s"
    text += duplex_words(nic.duplex, nic.duplex_not_reported)
    if nic.max_link_speed_mbps and nic.max_link_speed_mbps > nic.link_speed_mbps:
        text += f" (NIC can do {nic.max_link_speed_mbps:g})"
    return text


def _port_irqs(nic: Nic) -> str:
    """A DSA user port requests no interrupt for its frames: they arrive tagged on the
    conduit, whose receive path hands them to dsa_switch_rcv (the ETH_P_XDSA packet handler:
    6.1 net/dsa/dsa.c, 6.12 net/dsa/tag.c), so the conduit's IRQs carry them."""
    if nic.switch_port and nic.conduit:
        return f"none of its own: its frames arrive on {nic.conduit}'s"
    return UNKNOWN


def nic_facts(nic: Nic) -> list[tuple[str, str]]:
    driver = _or_unknown(nic.driver)
    if nic.driver is None and nic.driver_state == "none":
        driver = "NONE — no driver is bound to this device"
    elif nic.driver_version:
        driver += f" {nic.driver_version}"
    queues = (
        f"{nic.rx_queues} rx / {nic.tx_queues} tx"
        if nic.rx_queues is not None or nic.tx_queues is not None
        else UNKNOWN
    )
    facts = [
        ("Chip", _or_unknown(nic.chip or nic.chip_family)),
        ("Driver", driver),
        ("Bus", bus_text(nic)),
        ("Link", link_text(nic)),
        ("IRQs", ", ".join(map(str, nic.irqs)) or _port_irqs(nic)),
        ("Queues", queues),
    ]
    if switch := switch_words(nic):  # a DSA port: its conduit carries its traffic
        facts.append(("Switch", switch))
    if nic.mtu is not None:
        facts.append(("MTU", str(nic.mtu)))
    if nic.addresses:
        facts.append(("Addresses", ", ".join(nic.addresses)))
    if nic.firmware:
        facts.append(("Firmware", nic.firmware))
    if nic.eee:  # only where an `ethtool --show-eee` was read
        facts.append(("EEE", eee_words(nic.eee)))
    return facts


class FindingRow(QWidget):
    def __init__(self, finding: Finding, colors: Colors) -> None:
        super().__init__()
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 2, 0, 2)
        self.badge = Badge(finding.severity, SEVERITY_COLOR.get(finding.severity, "info"), colors)
        row.addWidget(self.badge)
        text = label(finding.summary, selectable=True)
        if finding.evidence:
            text.setToolTip("Evidence:\n" + "\n".join(finding.evidence[:6]))
        row.addWidget(text, 1)


class BoardCard(Card):
    def __init__(self, board: Board, colors: Colors) -> None:
        super().__init__("Board")
        self.setObjectName("card")
        self.body.addWidget(FactGrid(board_facts(board)))


class NicCard(Card):
    """A NIC: what it is, how it is attached, its findings; the radio picks it for testing."""

    chosen = Signal(str)

    def __init__(self, nic: Nic, findings: list[Finding], colors: Colors, selected: bool) -> None:
        name = nic.name or "(no interface)"
        super().__init__(nic_title(nic))
        self.nic = nic
        self.pick = QRadioButton("Test this NIC")
        self.pick.setObjectName("pickNic")
        self.pick.setChecked(selected)
        self.pick.setEnabled(nic.name is not None)
        self.pick.setAccessibleName(f"Test {name}")
        self.pick.toggled.connect(self._toggled)
        self.header.addWidget(self.pick)
        self.body.addWidget(FactGrid(nic_facts(nic)))
        self.badges: list[Badge] = []
        for finding in findings:
            row = FindingRow(finding, colors)
            self.badges.append(row.badge)
            self.body.addWidget(row)

    def _toggled(self, on: bool) -> None:
        if on and self.nic.name:
            self.chosen.emit(self.nic.name)

    def apply_theme(self, colors: Colors) -> None:
        for badge in self.badges:
            badge.restyle(colors)
