"""What the kernel log says about devices, as sightings (see ``sbctune.inventory.sightings``).

Each event line names its device the way the kernel does (PCI address, USB interface, platform
device, SDIO function) and often the interface; facts carry the line as evidence and its place,
so the newest line wins (a link that went down last is down). Cheap on a long log: the rules in
parsers/dmesg.py's docstring."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sbctune.catalog.old_formats import old_format_of
from sbctune.inventory.boot_firmware_sightings import KINDS as BOOT_FIRMWARE_KINDS
from sbctune.inventory.boot_firmware_sightings import BootFirmwareWatch
from sbctune.inventory.bus_elimination import buses_by_elimination
from sbctune.inventory.bus_line_sightings import (
    on_mmc_card,
    on_pci,
    on_pci_seen,
    on_phy_link,
    on_usb,
    on_wifi,
)
from sbctune.inventory.child_join import join_children
from sbctune.inventory.daemon_sightings import on_daemon_iface
from sbctune.inventory.device_line_facts import on_device
from sbctune.inventory.driver_line_sightings import (
    lone_wifi_devices,
    on_bcmdhd_line,
    on_driver_message,
    on_library_message,
    on_vendor_function,
    on_wiphy,
)
from sbctune.inventory.found_index import FoundIndex
from sbctune.inventory.iommu_faults import on_dma_api_misuse, on_iommu_fault
from sbctune.inventory.ip_config import IpConfigWatch
from sbctune.inventory.irq_thread import irq_thread_sighting
from sbctune.inventory.linuxptp_sightings import KINDS as LINUXPTP_KINDS
from sbctune.inventory.linuxptp_sightings import PtpWatch
from sbctune.inventory.log_complaints import ids_said
from sbctune.inventory.lone_device_ties import untied_info
from sbctune.inventory.mdio_bus_sightings import (
    on_mdio_bus,
    on_mdio_usb_bus,
    shown_elsewhere,
    usb_bus_ties,
)
from sbctune.inventory.mdio_phy_ties import on_phy_on_mdio
from sbctune.inventory.old_format_sightings import lone_phy_link, on_old_format
from sbctune.inventory.parsers.dmesg import DmesgEvent, DmesgResult
from sbctune.inventory.pcie_aer import on_pcie_aer
from sbctune.inventory.pcie_bandwidth import on_pcie_bandwidth
from sbctune.inventory.sightings import Fact, Sighting, _new
from sbctune.inventory.trace_watch import KINDS as TRACE_KINDS
from sbctune.inventory.trace_watch import TraceWatch, tie_traces
from sbctune.inventory.usb_probe_watch import ProbeWatch
from sbctune.inventory.usb_teardown import TeardownWatch
from sbctune.inventory.version_chips import version_chip_said
from sbctune.inventory.wiphy_join import KINDS as WIPHY_KINDS
from sbctune.inventory.wiphy_join import NamedLines, WiphyWatch

TEARDOWN_KINDS = TeardownWatch.KINDS


_LEAN = {
    "link", "link_event", "daemon_link_event", "link_speed_mbps", "duplex", "enumeration",
    "usb_speed_mbps",
}  # fmt: skip


def _repeat(event: DmesgEvent) -> Sighting | None:
    """A repeated line's template: its keys and the facts a repeat says again."""
    return _lean(_HANDLERS.get(event.kind, on_device)(event), event.kind)


def _lean(full: Sighting | None, kind: str) -> Sighting | None:
    """``_repeat`` of a line from its first reading's sighting: a handler reads a line's kind,
    fields and text (the same for every repeat of it), its line and clock only for the facts
    a repeat's stamps change (link events, enumeration) or its order; so the first reading's
    keys and lean facts are what the repeat's own reading gives, without reading it again."""
    if full is None:
        return None
    facts = [f for f in full.facts if f.field in _LEAN or f.field == kind]
    return Sighting(list(full.keys), facts)


_LINK_EVENTS = ("link_event", "daemon_link_event")  # (line, clock, up): the repeat's own clock
# How a repeat changes a template fact's value: kept, its link event's (line, clock), its
# enumeration's clock.
_KEEP, _LINK, _ENUMERATION = 0, 1, 2
# A repeated line's template facts, each as its fields and how a repeat changes its value.
Stamps = list[tuple[dict[str, Any], int]]


def stamps_of(template: Sighting) -> Stamps:
    """Made once per repeated line (what ``again`` copies for each of its ~10^4 repeats)."""
    return [
        (
            f.__dict__,
            _LINK
            if f.field in _LINK_EVENTS
            else _ENUMERATION
            if f.field == "enumeration"
            else _KEEP,
        )
        for f in template.facts
    ]


def again(stamps: Stamps, event: DmesgEvent) -> list[Fact]:
    """The template's facts said again by a repeat of its line (at the repeat's position):
    each a copy of its fields with the repeat's line (and clock), made in place as Fact.at
    does, without a method call and a field test per fact."""
    return again_at(stamps, event.line, event.timestamp)


def again_at(stamps: Stamps, no: int, clock: float | None) -> list[Fact]:
    """``again`` of a repeat at line ``no`` with that clock (no event made for it)."""
    facts = []
    for said, how in stamps:
        fact = _new(Fact)
        now = fact.__dict__
        now.update(said)
        now["order"] = no
        if how == _LINK:
            now["value"] = (no, clock, said["value"][2])
        elif how == _ENUMERATION:
            now["value"] = (said["value"][0], clock)
        facts.append(fact)
    return facts


_HANDLERS: dict[str, Callable[[DmesgEvent], Sighting | None]] = {
    "pci_device": on_pci,
    "pci_bar": on_pci_seen,
    "usb_new_device": on_usb,
    "usb_ids": on_usb,
    "usb_product": on_usb,
    "usb_serial": on_usb,
    "usb_reset": on_usb,
    "usb_disconnect": on_usb,
    "usb_not_top_speed": on_usb,
    "usb_unsupported": on_usb,
    "phy_link_up": on_phy_link,
    "phy_link_down": on_phy_link,
    "wifi_chip": on_wifi,
    "driver_message": on_driver_message,
    "library_message": on_library_message,
    "vendor_function": on_vendor_function,
    "bcmdhd": on_bcmdhd_line,
    "old_format": on_old_format,
    "wiphy": on_wiphy,
    "mmc_card": on_mmc_card,
    "pcie_aer": on_pcie_aer,
    "iommu_fault": on_iommu_fault,
    "dma_api_misuse": on_dma_api_misuse,
    "pcie_bandwidth": on_pcie_bandwidth,
    "daemon_iface": on_daemon_iface,
    "ptp_port": on_daemon_iface,  # a linuxptp port line names its interface (seen)
    "mdio_bus_probed": on_mdio_bus,
    "phy_on_mdio": on_phy_on_mdio,  # a PHY named by its MDIO bus alone (mdio_phy_ties.py)
    "mdio_usb_bus": on_mdio_usb_bus,
}
# Lines whose every occurrence counts (flapping, resets, errors); others are read once.
_COUNTED = {
    "link_up", "link_down", "carrier", "carrier_up", "phy_link_up", "phy_link_down",
    "netifd_link", "usb_new_device", "usb_reset", "usb_disconnect", "usb_error", "kevent_dropped",
    "phy_failure", "tx_timeout", "firmware_missing", "usb_not_top_speed", "probe_failed",
    "pcie_aer", "iommu_fault", "dma_api_misuse",
}  # fmt: skip


def _old_link_change(event: DmesgEvent) -> bool:
    """An older kernel's link line (its format's row says "link"), counted like link_up/down:
    fec's "eth0: status: link down." three times is three drops."""
    if event.kind != "old_format":
        return False
    row = old_format_of(event.fields.get("format", ""))
    return row is not None and row.link is not None


_PCIE_LINK = ("pcie_link_up", "pcie_link_down")  # the host bridge's link: advice/static_pcie.py
_SKIP = {
    "under_voltage", "voltage_normalised", "driver_registered", "kernel_version",
    *TRACE_KINDS,
}  # fmt: skip


_UNREAD = Sighting([])  # no first reading kept (a reader that did not go through first())


@dataclass
class _Repeats:
    template: Sighting
    facts: list[Fact] = field(default_factory=list)
    stamps: Stamps = field(default_factory=list)

    def __post_init__(self) -> None:
        self.stamps = stamps_of(self.template)


@dataclass
class _Reading:
    """One log's reading, line by line: what each distinct line says once, what a repeated
    line says again (counted lines and driver errors), and the watchers that read across lines."""

    found: list[Sighting] = field(default_factory=list)
    firsts: list[Sighting] = field(default_factory=list)  # each distinct line's: tie_traces
    seen: set[tuple[str, str]] = field(default_factory=set)
    lean: dict[tuple[str, str], Sighting | None] = field(default_factory=dict)
    # each distinct line's first reading (None: it said nothing), for its repeats' template
    said: dict[tuple[str, str], Sighting | None] = field(default_factory=dict)
    repeats: dict[tuple[str, str], Sighting] = field(default_factory=dict)
    stamps: dict[tuple[str, str], Stamps] = field(default_factory=dict)  # of lean's templates
    complaints: dict[tuple[str, str], _Repeats] = field(default_factory=dict)
    # a USB reset that a just-registered driver's probe made
    probes: ProbeWatch = field(default_factory=ProbeWatch)
    ip_config: IpConfigWatch = field(default_factory=IpConfigWatch)
    # U-Boot's and the Pi bootloader's network lines, each read after the ones before it
    boot_firmware: BootFirmwareWatch = field(default_factory=BootFirmwareWatch)
    ptp: PtpWatch = field(default_factory=PtpWatch)
    # a chip named on a wiphy, joined to the device that made it
    wiphys: WiphyWatch = field(default_factory=WiphyWatch)
    # a trace's frames that name the NIC driver it ran in
    traces: TraceWatch = field(default_factory=TraceWatch)
    # a modem's serial port removed in the teardown of a USB disconnect
    teardown: TeardownWatch = field(default_factory=TeardownWatch)
    named: NamedLines | None = None  # the lines naming a device, for the wiphy watcher

    def watch(
        self,
        dmesg: DmesgResult,
        event_at: Callable[[int], DmesgEvent],
        index: int,
        event: DmesgEvent,
    ) -> bool:
        """A line of a kind a watcher reads, given to its watchers; whether it is then read as
        any line (its own sighting)."""
        found, kind = self.found, event.kind
        if kind == "ip_config":
            if (configured := self.ip_config.see(event)) is not None:
                found.append(configured)
            return False
        if kind in LINUXPTP_KINDS and (timed_out := self.ptp.see(event)) is not None:
            found.append(timed_out)  # then read as any line: a port line names its NIC
        if kind in BOOT_FIRMWARE_KINDS:
            if (booted := self.boot_firmware.see(event)) is not None:
                found.append(booted)
            return False
        probes = self.probes
        if (kind in ProbeWatch.KINDS or probes.open) and (probed := probes.see(event)) is not None:
            found.append(probed)
        if kind in TRACE_KINDS and (traced := self.traces.see(event)) is not None:
            found.append(traced)
            self.firsts.append(traced)
        if kind in TEARDOWN_KINDS and (port := self.teardown.see(event)) is not None:
            found.append(port)
        # a dump's task line naming a threaded interrupt handler: its driver ran there
        if (
            kind == "kernel_version"
            and " Comm: irq/" in event.text
            and (threaded := irq_thread_sighting(event_at, index)) is not None
        ):
            found.append(threaded)
            self.firsts.append(threaded)
        # the SDIO interrupt thread's task line in an unknown module's trace: an SDIO driver
        if (
            kind == "kernel_version"
            and " Comm: ksdioirqd/" in event.text
            and (sdio := self.traces.sdio_thread(event)) is not None
        ):
            found.append(sdio)
            self.firsts.append(sdio)
        # the wiphy watcher reads a wiphy line, a disconnect and the lines naming a device
        # before it (WiphyWatch.at_columns)
        if kind in WIPHY_KINDS:
            self.named = self.named or NamedLines(dmesg)  # made when the first wiphy line comes
            if (wiphy := self.wiphys.at_columns(self.named, event_at, index)) is not None:
                found.append(wiphy)
                self.firsts.append(wiphy)
        return not (kind in _SKIP or kind in _PCIE_LINK)

    def counted_again(self, key: tuple[str, str], event: DmesgEvent) -> None:
        """Its keys and the counted facts only, from the first repeat: every repeat's facts in
        one sighting (where the first repeat was), joined once however often a long log says
        the line."""
        if key not in self.lean:
            first = self.said.get(key, _UNREAD)
            self.lean[key] = _repeat(event) if first is _UNREAD else _lean(first, event.kind)
            if (template := self.lean[key]) is not None:
                self.repeats[key] = Sighting(template.keys)
                self.stamps[key] = stamps_of(template)
                self.found.append(self.repeats[key])
        if (stamps := self.stamps.get(key)) is not None:
            self.repeats[key].facts += again(stamps, event)

    def first(self, key: tuple[str, str], event: DmesgEvent) -> None:
        self.seen.add(key)
        sighting = self.said[key] = _HANDLERS.get(event.kind, on_device)(event)
        if sighting is None:
            return
        self.found.append(sighting)
        self.firsts.append(sighting)
        if (
            event.kind == "device"
            and (said := ids_said(event.text, sighting, event.driver)) is not None
        ):
            self.found.append(said)
        if event.kind == "device" and (chip := version_chip_said(event, sighting)) is not None:
            self.found.append(chip)
        if errors := [f for f in sighting.facts if f.field == "kernel_error"]:
            self.complaints[key] = _Repeats(Sighting(sighting.keys, errors))

    def sightings(self) -> list[Sighting]:
        # One sighting per repeated line with a fact per repeat: counted, and cheap to join.
        found = self.found + [
            Sighting(r.template.keys, r.facts) for r in self.complaints.values() if r.facts
        ]
        # the joins read the few sightings of the key kinds and fields they ask for, indexed
        # once (a joined child replaced in it, each join's ties added to it as to `found`)
        index = FoundIndex(found)
        joined = join_children(found, index)
        found = shown_elsewhere(joined, index)
        if found is not joined:  # an MDIO bus left out: the index renumbered
            index = index.keeping(found)
        for join in (usb_bus_ties, lone_wifi_devices, lone_phy_link):
            ties = join(found, index)
            found += ties
            index.extend(ties)
        if (kept := untied_info(found)) is not found:  # a report about no one device
            found, index = kept, index.keeping(kept)
        traced = tie_traces(self.firsts)
        found += traced
        index.extend(traced)
        return found + buses_by_elimination(found, index)


# Every kind a watcher or a skip in from_dmesg's loop tests for: a line of any other kind
# (device, iface_named, link_up ...: 50 025 of the bench log's 57 081 events) is read only
# the first time its message comes (and a second time when it is counted), or while a probe
# is open.
_WATCHED = frozenset(
    {"ip_config", *BOOT_FIRMWARE_KINDS, *LINUXPTP_KINDS, *ProbeWatch.KINDS, *TRACE_KINDS,
     *TEARDOWN_KINDS, *WIPHY_KINDS, *_SKIP, *_PCIE_LINK}
)  # fmt: skip
# kinds whose lines say nothing of their own (a watcher's alone, or skipped)
_UNSAID = frozenset({"ip_config", *BOOT_FIRMWARE_KINDS, *_SKIP, *_PCIE_LINK})


def _counted(kind: str, text: str, fields: dict[str, str]) -> bool:
    return kind in _COUNTED or (
        kind == "old_format" and _old_link_change(DmesgEvent(kind, 0, None, text, fields))
    )


def from_dmesg(dmesg: DmesgResult | None) -> list[Sighting]:
    """Per distinct message, not per line: a long log's ~10^5 lines are ~5 000 distinct
    messages. The lines read in order are those a watcher reads (its kinds), each message's
    first line, a counted message's second (where its repeats' sighting stands) and, while a
    probe's reset is open, every line; a counted or complaining message's further repeats
    only add facts, made afterwards from the columns (line number and clock)."""
    if dmesg is None:
        return []
    texts, said, nos, clocks = dmesg.said()
    # each distinct message's places (its key: the message, or (kind, message) where a caller
    # gave the events), made by one loop over the events; all else here is per message
    places = dmesg.places()
    read, counted = _places_to_read(places, texts, said)
    reading = _Reading()
    found, seen, probes = reading.found, reading.seen, reading.probes

    def event_at(i: int) -> DmesgEvent:
        kind, fields = said[i]
        return DmesgEvent(kind, nos[i], clocks[i], texts[i], fields)

    after, end = 0, len(texts)  # the first place not read yet; the end (the last "read")
    key_at = dmesg.key_at
    for index in (*sorted(read), end):
        if probes.open and after < index:
            _probe_between(reading, event_at, after, index)
        if index == end:
            break
        after = index + 1
        event = event_at(index)
        if event.kind not in _WATCHED:
            if probes.open and (probed := probes.see(event)) is not None:
                found.append(probed)
        elif not reading.watch(dmesg, event_at, index, event):
            continue
        key = key_at(index)
        if key not in seen:
            reading.first(key, event)
        elif key in counted and key not in reading.lean:
            reading.counted_again(key, event)  # its first repeat: where its sighting stands
    _further_repeats(reading, counted, places, nos, clocks)
    return reading.sightings()


def _places_to_read(
    places: dict[Any, list[int]], texts: list[str], said: list[tuple[str, dict[str, str]]]
) -> tuple[list[int], set[Any]]:
    """The places read in order (each message's first, a counted one's second, and every
    place of a kind a watcher reads) and the keys of the counted messages."""
    counted: set[Any] = set()
    read: list[int] = []
    for key, at in places.items():
        first = at[0]
        kind, fields = said[first]
        if kind in _WATCHED:
            read += at
        else:
            read.append(first)
        if kind not in _UNSAID and _counted(kind, texts[first], fields):
            counted.add(key)
            if len(at) > 1 and kind not in _WATCHED:
                read.append(at[1])
    return read, counted


def _probe_between(
    reading: _Reading, event_at: Callable[[int], DmesgEvent], after: int, index: int
) -> None:
    """The lines between two places read, while a reset is open: the probe watch reads them (a
    line of another kind never opens one)."""
    probes = reading.probes
    for between in range(after, index):
        if (probed := probes.see(event_at(between))) is not None:
            reading.found.append(probed)
        if not probes.open:
            break


def _further_repeats(
    reading: _Reading,
    counted: set[Any],
    places: dict[Any, list[int]],
    nos: list[int],
    clocks: list[float | None],
) -> None:
    """The further repeats of a counted line, and a driver's error line's repeats: facts
    only."""
    for key in counted:
        if (stamps := reading.stamps.get(key)) is not None:
            facts = reading.repeats[key].facts
            for i in places[key][2:]:
                facts += again_at(stamps, nos[i], clocks[i])
    for key, complaint in reading.complaints.items():
        if key not in counted:
            for i in places[key][1:]:
                complaint.facts += again_at(complaint.stamps, nos[i], clocks[i])
