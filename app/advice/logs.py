"""Findings an expert reads from the kernel log lines the inventory kept on each NIC: a PHY
that cannot be attached, a flapping link, a link that went down last, lan78xx dropping
kevents, USB resets and errors, transmit timeouts, missing firmware, PCIe errors, a gigabit
PHY linked slower. One rule per finding, in RULES; their words are in log_words.py, the
driver's other lines in driver_complaints.py; which driver should bind a NIC is
driver_binding.py's.

Each finding quotes the lines it rests on; none contradicts a line shown (a link whose last
line says "Link is Up" is not called down).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from sbctune.advice.counters import counter_findings
from sbctune.advice.driver_complaints import complaints
from sbctune.advice.log_words import (
    cite,
    errno_words,
    label,
    span,
    times,
    usb_errnos,
    watchdog,
)
from sbctune.advice.probe_exit_findings import probe_exit_findings
from sbctune.advice.trace_findings import trace_findings
from sbctune.advice.wwan import cellular_findings
from sbctune.catalog.modeswitch import storage_mode
from sbctune.inventory.brcmfmac_board import first_try_only
from sbctune.inventory.model import Finding, Nic, Severity
from sbctune.wording import counted

Rule = Callable[[Nic, str], list[Finding]]  # (the NIC, what the findings call it)


def _one(
    id_: str, severity: Severity, subject: str, summary: str, lines: list[str]
) -> list[Finding]:
    return [Finding(id_, severity, subject, summary, lines)]


def _phy_failure(nic: Nic, label: str) -> list[Finding]:
    lines = nic.log.get("phy_failure")
    if not lines:
        return []
    return _one(
        "phy-attach-failure",
        "problem",
        label,
        f"{label}: the driver could not attach its PHY ({times(nic, 'phy_failure')}), so "
        f"the port cannot link{cite('phy_failure')}. Check the device tree's "
        "phy-handle/phy-mode for this board and kernel, and the PHY's reset and power.",
        lines,
    )


def _flapping(nic: Nic, label: str) -> list[Finding]:
    if nic.link_downs < 2:
        return []
    return _one(
        "link-flapping",
        "warning",
        label,
        f"{label}'s link went down {counted(nic.link_downs, 'time')}"
        f"{span(nic.link_span_s)}: a "
        "cable, switch port, power (EEE) or PHY problem.",
        nic.log.get("link", []),
    )


def _link_down(nic: Nic, label: str) -> list[Finding]:
    if nic.link_detected is not False:
        return []
    if nic.log.get("link"):
        return _one(
            "link-down",
            "warning",
            label,
            f"{label}'s link is down: the last link line in the kernel log says so.",
            nic.log["link"][-1:],
        )
    if lines := nic.log.get("no_carrier"):
        return _one(
            "link-down",
            "warning",
            label,
            f"{label} is up but has no carrier (NO-CARRIER, or UP without RUNNING): nothing "
            "answers at the other end of the cable. Check the cable, the switch port and the "
            "PHY.",
            lines[-1:],
        )
    if lines := nic.log.get("no_link_state_unshown"):
        # ethtool's "no" is also what a NIC never brought up says (inventory/no_link_unshown.py)
        name = nic.name or "the interface"
        return _one(
            "link-down",
            "warning",
            label,
            f"{label} has no link (ethtool: Link detected: no), and nothing shown says whether "
            f"{name} was brought up. If `ip link show {name}` says DOWN, bring it up (`sudo ip "
            f"link set {name} up`); if it says UP, nothing answers at the other end of the "
            "cable: check the cable, the switch port and the PHY.",
            lines,
        )
    return []


def _kevent_dropped(nic: Nic, label: str) -> list[Finding]:
    lines = nic.log.get("kevent_dropped")
    if not lines:
        return []
    return _one(
        "lan78xx-kevent-dropped",
        "warning",
        label,
        # usbnet's own message (usbnet.c usbnet_defer_kevent) as well as lan78xx's: the
        # NIC's driver is named, never a lan78xx beside a cdc_ether line
        f"{label}: the {nic.driver or 'USB network'} driver dropped deferred work "
        f'("kevent may have been dropped", {times(nic, "kevent_dropped")}): its USB link '
        "is overloaded or failing.",
        lines,
    )


def _usb_reset(nic: Nic, label: str) -> list[Finding]:
    resets = nic.log.get("usb_reset", []) + nic.log.get("usb_disconnect", [])
    errors = nic.log.get("usb_error", [])
    if not (resets or errors):
        return []
    # Only a count that is there: "0 USB errors such as -71" beside a driver's own -71
    # line would contradict what the log shows; and only the errors the lines report: an
    # adapter that stalls every request (-32) was not reset or lost.
    tallies = [counted(len(resets), "reset/disconnect", "resets/disconnects")] if resets else []
    if usb_errors := nic.log_counts.get("usb_error", 0):
        codes = usb_errnos(errors)
        tallies.append(counted(usb_errors, "USB error") + (f": {codes}" if codes else ""))
    what = "the USB adapter was reset or lost" if resets else "USB transfers to the adapter failed"
    # hub_port_init() prints the resets; an error alone is the line that reports it (r8152's
    # "Tx status -71", write_bulk_callback()), not the USB core's
    where = cite("usb_reset") if resets else ""
    return _one(
        "usb-reset",
        "warning",
        label,
        f"{label}: {what} ({', '.join(tallies)}): power, cable or port{where}.",
        (resets + errors)[:4],
    )


def _tx_timeout(nic: Nic, label: str) -> list[Finding]:
    lines = nic.log.get("tx_timeout")
    if not lines:
        return []
    return _one(
        "tx-timeout",
        "problem",
        label,
        f"{label}: transmit timed out ({watchdog(lines)}{times(nic, 'tx_timeout')}): the "
        f"NIC stopped sending and was reset{cite('tx_timeout')}.",
        lines,
    )


def _ptp_tx_timeout(nic: Nic, label: str) -> list[Finding]:
    """linuxptp sk.c sk_receive(): the transmit timestamp of a PTP message did not come back
    from the NIC in tx_timestamp_timeout ms; the port's send fails and it goes FAULTY."""
    lines = nic.log.get("ptp_tx_timeout")
    if not lines:
        return []
    return _one(
        "ptp-tx-timestamp-timeout",
        "problem",
        label,
        f"{label}: ptp4l timed out waiting for the NIC's transmit timestamp "
        f"({times(nic, 'ptp_tx_timeout')}), so its PTP port failed (linuxptp sk.c "
        "sk_receive()): a larger tx_timestamp_timeout may hide it; linuxptp says a driver bug "
        "is the likely cause.",
        lines,
    )


def _storage_mode(nic: Nic, label: str) -> list[Finding]:
    switchable = storage_mode(nic.ids) if nic.bus == "usb" else None
    if not (
        nic.bus == "usb"
        and (nic.driver == "usb-storage" or (switchable is not None and not nic.driver))
    ):
        return []
    how = "(usb-storage)" if nic.driver == "usb-storage" else "(IDs usb_modeswitch knows)"
    return _one(
        "usb-nic-in-storage-mode",
        "problem",
        label,
        f'{label} ({nic.ids}) is a network adapter that came up as its built-in "driver CD" '
        f"{how}, so it gives no network interface: usb_modeswitch (or ejecting the disk) "
        "switches it to its network mode.",
        [e.split(": ", 1)[-1] for e in nic.evidence][:2],
    )


def _firmware_missing(nic: Nic, label: str) -> list[Finding]:
    lines = nic.log.get("firmware_missing")
    if lines and nic.driver == "brcmfmac":
        # the board's own file is brcmfmac's first try before the canonical one
        # (inventory.brcmfmac_board): its absence alone is no missing firmware
        failed = {line: _failed_file(line) for line in lines}
        first = first_try_only([f for f in failed.values() if f])
        lines = [line for line in lines if failed[line] not in first]
    # a later load the log itself shows (nic_log._firmware_loaded); a listing's version
    # (ethtool -i) is what the device runs, often from its flash, not the file that failed
    if not lines or nic.log.get("firmware_loaded"):
        return []
    # the firmware loader's own lines cite its source; a driver's own words ("Open firmware
    # file failed", bcmdhd opening the file itself) are not the loader's
    loader = any(word in line for line in lines for word in _LOADER_WORDS)
    return _one(
        "firmware-missing",
        "problem",
        label,
        f"{label}: firmware the driver asked for was not found"
        f"{cite('firmware_missing') if loader else ''}.{errno_words(lines)}",
        lines,
    )


_LOADER_WORDS = ("Direct firmware load for", "firmware: failed to load")  # firmware_loader/main.c


def _failed_file(line: str) -> str | None:
    """The file a loader's failure line names."""
    for word in _LOADER_WORDS:
        if (at := line.find(word)) != -1:
            return line[at + len(word) :].split()[0] if line[at + len(word) :].split() else None
    return None


def _failed_driver(line: str) -> str | None:
    """The driver a probe-failure line names (drivers/base/dd.c call_driver_probe(): 6.1's
    "%s: probe of %s failed with error %d" with drv->name first, 6.12's "probe with driver %s
    failed with error %d" on the device)."""
    if (at := line.find(" probe with driver ")) != -1:
        return line[at + 19 :].split(" ", 1)[0] or None
    head, sep, _ = line.partition(": probe of ")
    return head.rsplit(" ", 1)[-1] or None if sep else None


def _probe_failed(nic: Nic, label: str) -> list[Finding]:
    lines = nic.log.get("probe_failed")
    if lines and nic.driver and nic.name:
        # a driver that declined the device while another one drives it and registered the
        # NIC's interface (cdc_subset's -EINVAL on a Linux gadget's CDC control interface that
        # cdc_ether then binds) failed nothing of this NIC's
        lines = [line for line in lines if _failed_driver(line) in (None, nic.driver)]
    if not lines:
        return []
    return _one(
        "probe-failed",
        "problem",
        label,
        f"{label}: the driver matched the device but failed to start it "
        f"({times(nic, 'probe_failed')}), so it gives no network interface"
        f"{cite('probe_failed')}.{errno_words(lines)}",
        lines,
    )


def _pcie_errors(nic: Nic, label: str) -> list[Finding]:
    """PCIe AER lines about the NIC's device (drivers/pci/pcie/aer.c, err.c)."""
    lines = nic.log.get("pcie_aer")
    if not lines:
        return []
    lost = any(w in line for line in lines for w in ("Uncorrect", "Fatal", "recover"))
    summary = (
        f"{label}: its PCIe link reported errors ({times(nic, 'pcie_aer')})"
        f"{cite('pcie_aer')}: "
        + (
            "uncorrected ones, which lose data or stop the device. "
            if lost
            else "corrected ones, which the link repairs by resending, at a cost. "
        )
        + "A marginal link (slot, riser, adapter cable, power) or its power saving (ASPM) "
        "causes them: reseat the card, try another slot or cable, or test with pcie_aspm=off."
    )
    return _one("pcie-errors", "problem" if lost else "warning", label, summary, lines)


def _iommu_faults(nic: Nic, label: str) -> list[Finding]:
    """The IOMMU refused the NIC's own DMA (drivers/iommu/amd/iommu.c, intel/dmar.c)."""
    lines = nic.log.get("iommu_fault")
    if not lines:
        return []
    summary = (
        f"{label}: the IOMMU refused its DMA ({times(nic, 'iommu_fault')})"
        f"{cite('iommu_fault')}: the device read or wrote memory that was not mapped for it, "
        "so those transfers were lost; the network stalls or stops until the driver resets it. "
        "The driver (a buffer used after it was unmapped) or the firmware's IOMMU tables are the "
        "usual cause: update the driver and the firmware; booting with iommu=pt confirms it."
    )
    return _one("iommu-fault", "problem", label, summary, lines)


def _dma_api_misuse(nic: Nic, label: str) -> list[Finding]:
    """CONFIG_DMA_API_DEBUG's report on the NIC's device (kernel/dma/debug.c err_printk())."""
    lines = nic.log.get("dma_api_misuse")
    if not lines:
        return []
    summary = (
        f"{label}: the kernel's DMA API checks (CONFIG_DMA_API_DEBUG, kernel/dma/debug.c "
        f"err_printk()) caught its driver misusing DMA ({times(nic, 'dma_api_misuse')}): a "
        "driver bug that can corrupt packets or memory on a machine without such checks; the "
        "line and its trace are what to report to the driver's maintainers, with the kernel "
        "version."
    )
    return _one("driver-complaint", "warning", label, summary, lines)


_FAST_PHY = re.compile(r"gigabit|\bgbe\b|1000|2\.5g|nbase-t|10g", re.I)


def _below_phy(nic: Nic, label: str) -> list[Finding]:
    """A PHY the log names as gigabit (or faster) that linked at 10/100 Mbit/s: now, or the
    last time it came up when the link is down now (each time at 100, then dropped)."""
    speed = nic.link_speed_mbps if nic.link_detected else nic.linked_at_mbps
    if not nic.phy or speed is None or speed >= 1000:
        return []
    if not _FAST_PHY.search(nic.phy):
        return []
    return _one(
        "link-below-phy",
        "warning",
        label,
        f"{label} linked at {speed} Mbit/s although its PHY is a {nic.phy}: a gigabit link "
        "needs all four pairs of the cable and a gigabit port at the other end; check the "
        "cable, the switch port, and that no speed is forced (ethtool -s).",
        [line for key in ("link",) for line in nic.log.get(key, [])][-1:],
    )


# In the order the findings are listed (most specific kernel lines first).
RULES: tuple[Rule, ...] = (
    _phy_failure,
    _flapping,
    _link_down,
    _kevent_dropped,
    _usb_reset,
    _tx_timeout,
    _ptp_tx_timeout,
    _storage_mode,
    _firmware_missing,
    _probe_failed,
    probe_exit_findings,
    _pcie_errors,
    _iommu_faults,
    _dma_api_misuse,
    complaints,
    trace_findings,
    _below_phy,
    counter_findings,
    cellular_findings,
)


def log_findings(nic: Nic, kernel: str | None = None) -> list[Finding]:
    """`kernel`: the running kernel's release, read by the rules whose driver facts are dated
    (counter_findings: what a driver counts in rx_errors changed with a release, audit 31)."""
    said = label(nic)
    found: list[Finding] = []
    for rule in RULES:
        found += (
            counter_findings(nic, said, kernel) if rule is counter_findings else rule(nic, said)
        )
    return found
