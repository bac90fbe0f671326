"""What the kernel log says about a NIC (``Nic.log``, ``log_counts``, its link's drops): one
function per kind of trouble, from the joined device's facts in log order."""

from __future__ import annotations

from operator import attrgetter

from sbctune.catalog.tx_timeout_formats import tx_timeout_message
from sbctune.catalog.wwan_ids import is_wwan_driver
from sbctune.inventory.graph import Device
from sbctune.inventory.link_drops import drops
from sbctune.inventory.model import Nic
from sbctune.inventory.sightings import Fact
from sbctune.inventory.tx_timeout_events import timeout_events
from sbctune.inventory.usb_renumeration import benign_orders

LOG_KINDS = (
    "phy_failure", "kevent_dropped", "usb_error", "usb_reset", "usb_disconnect", "tx_timeout",
    "firmware_missing", "not_top_speed", "probe_failed", "kernel_error", "no_carrier", "pcie_aer",
    "kernel_trace", "probe_exit", "ptp_tx_timeout", "iommu_fault",
    "dma_api_misuse",
)  # fmt: skip
# a fact's place in its source, read in C (a flapping link's NIC has a fact per repeat)
_ORDER = attrgetter("order")
_LINE = attrgetter("line")


def _once_per_record(facts: list[Fact]) -> list[Fact]:
    """A USB device's enumerations, each kernel record once: the same message at the same
    kernel clock twice is one record shown twice (`tail -f /var/log/syslog /var/log/messages`
    prints each line under both files' headers; a journal and its syslog copy), not the device
    dropping off and coming back. The same message at another clock is another record
    (hub_port_init()'s retries print "new ... device number N" again with the same N:
    corpus/x86_bbqq_29_*), and lines without the kernel's clock cannot be told apart: all count."""
    seen: set[object] = set()
    once = []
    for fact in facts:
        value = fact.value  # (message, kernel clock): bus_line_sightings.on_usb
        if isinstance(value, tuple) and value[1] is not None:
            if value in seen:
                continue
            seen.add(value)
        once.append(fact)
    return once


def _handler_lines(nic: Nic, device: Device) -> set[int]:
    """The orders of the driver's error lines that its transmit-timeout handler prints
    (catalog.tx_timeout_formats): the timeout in the driver's own words, not a complaint.
    Each distinct line is asked once: a counted error's repeats share its line (a long log's
    NIC holds thousands of them: 15 206 asks for 543 lines on the 100 000-line bench log)."""
    errors = device.all("kernel_error")
    handled = {line for line in set(map(_LINE, errors)) if tx_timeout_message(line, nic.driver)}
    return {f.order for f in errors if f.line in handled} if handled else set()


def _complaints(nic: Nic, device: Device, benign: set[int]) -> None:
    """The first three lines and the count of each kind, less the benign resets."""
    timeouts = _handler_lines(nic, device)
    for kind in LOG_KINDS:
        facts = sorted(device.all(kind), key=_ORDER)
        if timeouts and kind == "tx_timeout":
            handled = [f for f in device.all("kernel_error") if f.order in timeouts]
            facts = sorted([*facts, *handled], key=_ORDER)
        elif timeouts and kind == "kernel_error":
            facts = [f for f in facts if f.order not in timeouts]
        if kind in ("usb_reset", "usb_disconnect") and benign:
            facts = [f for f in facts if f.order not in benign]
        if facts:
            nic.log[kind] = [f.line for f in facts[:3]]
            nic.log_counts[kind] = len(facts)
            if kind == "tx_timeout":  # the watchdog's line and its handler's: one event
                nic.log_counts[kind] = timeout_events((f.line for f in facts), nic.driver)


def _wwan_registered(nic: Nic, device: Device) -> None:
    wwan = [f.line for f in device.all("driver") if f.source == "dmesg" and is_wwan_driver(f.value)]
    if wwan and not is_wwan_driver(nic.driver):  # qmi_wwan's wwan2, then rndis_host's usb0
        nic.log["wwan_registered"] = wwan[:1]


def _modem_port(nic: Nic, device: Device) -> None:
    """A modem driver's serial port of the device (usb_teardown.py): the line that says so."""
    if ports := device.all("modem_port"):
        nic.log["modem_port"] = [ports[0].line]


def _enumerated_again(nic: Nic, device: Device, benign: set[int]) -> None:
    enumerations = sorted(device.all("enumeration"), key=_ORDER)
    enumerations = _once_per_record([f for f in enumerations if f.order not in benign])
    if len(enumerations) > 1:  # enumerated again: the device dropped off the bus
        nic.log["usb_reset"] = nic.log.get("usb_reset", []) + [f.line for f in enumerations[1:3]]
        nic.log_counts["usb_reset"] = nic.log_counts.get("usb_reset", 0) + len(enumerations) - 1


def _link_changes(nic: Nic, device: Device) -> None:
    kernel = device.all("link_event")
    daemons = device.all("daemon_link_event")
    # One change, one count: the kernel's line where the log has any for this NIC; a daemon's
    # carrier lines (networkd, NetworkManager) only in a journal of the daemon alone. The
    # window is from both: their [uptime] clocks are one clock (journalctl -o short-monotonic).
    counted = kernel or daemons
    changes = sorted((f.value for f in counted), key=lambda v: v[0])
    # one change at one clock, shown twice (`dmesg | grep`, then `dmesg | tail`): one event
    timed = sorted({(ts, up) for _line, ts, up in changes if ts is not None})
    untimed = [up for _line, ts, up in changes if ts is None]
    nic.link_downs = drops([up for _ts, up in timed]) + drops(untimed)
    stamps = [ts for f in (*kernel, *daemons) if (ts := f.value[1]) is not None]
    nic.link_span_s = (max(stamps) - min(stamps)) if len(stamps) > 1 else None
    if changes:
        lines = sorted((*kernel, *daemons), key=_ORDER)
        nic.log["link"] = [f.line for f in lines[:2]] + ([lines[-1].line] if len(lines) > 2 else [])


def _firmware_loaded(nic: Nic, device: Device) -> None:
    """The log's own lines of a firmware the NIC loaded or runs: what a missing file's
    fallback became. A listing's firmware version (ethtool -i, lshw) is no such line: it is
    what runs on the device, often from its flash (bnx2x's "bc 7.10.4" bootcode,
    bnx2x_cmn.c bnx2x_fill_fw_str()), whatever file the driver failed to load."""
    loaded = [f.line for f in device.all("firmware") if f.source == "dmesg"]
    if loaded:
        nic.log["firmware_loaded"] = loaded[:3]


def log_of(nic: Nic, device: Device) -> None:
    benign = benign_orders(device)  # a driver's probe reset, a mode switch (usb_renumeration)
    _complaints(nic, device, benign)
    _firmware_loaded(nic, device)
    _wwan_registered(nic, device)
    _modem_port(nic, device)
    _enumerated_again(nic, device, benign)
    _link_changes(nic, device)
