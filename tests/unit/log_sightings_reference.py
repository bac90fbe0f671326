"""log_sightings.from_dmesg's loop as it was before session 30 (main at e20058c8, with corpus63's
threaded-IRQ dump line merged beside it): one step per
event of the log, in order, every repeat's facts made where it comes. The product's reading
(per distinct message, the repeats' facts made afterwards from the columns) must give the
same sightings; the handlers, watchers and the steps after the loop are the product's,
shared by both."""

from __future__ import annotations

from sbctune.inventory.irq_thread import irq_thread_sighting
from sbctune.inventory.log_sightings import (
    _COUNTED,
    _PCIE_LINK,
    _SKIP,
    _WATCHED,
    BOOT_FIRMWARE_KINDS,
    LINUXPTP_KINDS,
    TEARDOWN_KINDS,
    TRACE_KINDS,
    WIPHY_KINDS,
    ProbeWatch,
    _old_link_change,
    _Reading,
    again,
)
from sbctune.inventory.parsers.dmesg import DmesgResult
from sbctune.inventory.sightings import Sighting


def reference_from_dmesg(dmesg: DmesgResult | None) -> list[Sighting]:
    if dmesg is None:
        return []
    reading = _Reading()
    found, firsts, seen, complaints = (
        reading.found,
        reading.firsts,
        reading.seen,
        reading.complaints,
    )
    probes, traces, wiphys = reading.probes, reading.traces, reading.wiphys
    stamped, repeats = reading.stamps, reading.repeats
    probe_kinds = ProbeWatch.KINDS
    # One loop over a long log's ~10^5 lines, its steps inline (no method call per line; the
    # wiphy watcher reads the lines naming a device when one of its KINDS comes): the watchers
    # see each line first (an IP configuration line is theirs alone); then a line said before
    # says nothing new (a long log repeats itself), except that a counted line counts, and a
    # driver's error line is counted as often as the log shows it.
    events = dmesg.events
    for index, event in enumerate(events):
        kind = event.kind
        if kind not in _WATCHED:  # ~7 of 8 lines of a long log: only an open probe sees them
            if probes.open and (probed := probes.see(event)) is not None:
                found.append(probed)
        else:
            if kind == "ip_config":
                if (configured := reading.ip_config.see(event)) is not None:
                    found.append(configured)
                continue
            if kind in LINUXPTP_KINDS and (timed_out := reading.ptp.see(event)) is not None:
                found.append(timed_out)  # then read as any line: a port line names its NIC
            if kind in BOOT_FIRMWARE_KINDS:
                if (booted := reading.boot_firmware.see(event)) is not None:
                    found.append(booted)
                continue
            if (kind in probe_kinds or probes.open) and (probed := probes.see(event)) is not None:
                found.append(probed)
            if kind in TRACE_KINDS and (traced := traces.see(event)) is not None:
                found.append(traced)
                firsts.append(traced)
            if kind in TEARDOWN_KINDS and (port := reading.teardown.see(event)) is not None:
                found.append(port)
            # corpus63 (merged beside this reference): a dump's task line naming a threaded
            # interrupt handler, its driver ran there
            if (
                kind == "kernel_version"
                and " Comm: irq/" in event.text
                and (threaded := irq_thread_sighting(events.__getitem__, index)) is not None
            ):
                found.append(threaded)
                firsts.append(threaded)
            # corpus81 (beside this reference): the SDIO interrupt thread's task line in an
            # unknown module's trace
            if (
                kind == "kernel_version"
                and " Comm: ksdioirqd/" in event.text
                and (sdio := traces.sdio_thread(event)) is not None
            ):
                found.append(sdio)
                firsts.append(sdio)
            # the wiphy watcher reads a wiphy line, a disconnect and the lines naming a device
            # before it (WiphyWatch.at)
            if kind in WIPHY_KINDS and (wiphy := wiphys.at(events, index)) is not None:
                found.append(wiphy)
                firsts.append(wiphy)
            if kind in _SKIP or kind in _PCIE_LINK:
                continue
        key = (kind, event.text)
        if key not in seen:
            reading.first(key, event)
        elif kind in _COUNTED or (kind == "old_format" and _old_link_change(event)):
            # a counted line's repeats after its first: its stamps' copies, without a call
            if (stamps := stamped.get(key)) is not None:
                repeats[key].facts += again(stamps, event)
            else:
                reading.counted_again(key, event)
        elif (complaint := complaints.get(key)) is not None:
            complaint.facts += again(complaint.stamps, event)
    return reading.sightings()
