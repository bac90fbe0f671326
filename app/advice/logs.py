"""Findings an expert reads from the kernel log lines the inventory kept on each NIC: a PHY
that cannot be attached, a flapping link, a link that went down last, lan78xx dropping
kevents, USB resets and errors, transmit timeouts, missing firmware; and a generic class
driver (cdc_ncm, cdc_ether) bound to a chip that has its own in-tree driver.

Each finding quotes the lines it rests on; none contradicts a line shown (a link whose last
line says "Link is Up" is not called down).
"""

from __future__ import annotations

import re
from dataclasses import replace

from sbctune.advice.counters import counter_findings
from sbctune.advice.trace_findings import trace_findings
from sbctune.advice.wwan import cellular_findings
from sbctune.catalog.ids import KERNEL_SOURCE, load_ids
from sbctune.catalog.kernel_drivers import (
    KernelDriver,
    for_your_kernel,
    in_tree_since,
    kernel_series,
    load_kernel_drivers,
    other_drivers_message,
    own_files_first,
)
from sbctune.catalog.kernel_messages import (
    KernelMessage,
    errno_hint,
    errno_in,
    explain,
    explain_format,
    load_messages,
)
from sbctune.catalog.library_modules import library_of
from sbctune.catalog.modeswitch import storage_mode
from sbctune.inventory.model import Finding, Nic, Recommendation
from sbctune.wording import counted


def _watchdog(lines: list[str]) -> str:
    """ "NETDEV WATCHDOG, " when the kernel's watchdog said so; a driver's own "transmit timed
    out" (its ndo_tx_timeout handler) is not the watchdog's line."""
    return "NETDEV WATCHDOG, " if any("WATCHDOG" in line for line in lines) else ""


def _label(nic: Nic) -> str:
    if nic.name:
        return nic.name
    what = nic.chip or (f"the {nic.driver} NIC" if nic.driver else "NIC")
    return f"{what} at {nic.bus_path}" if nic.bus_path else what


def _span(seconds: float | None) -> str:
    if seconds is None:
        return ""
    if seconds < 120:
        return f" within {seconds:.0f} s"
    if seconds < 7200:
        return f" within {seconds / 60:.0f} min"
    return f" within {seconds / 3600:.1f} h"


def _times(nic: Nic, kind: str) -> str:
    count = nic.log_counts.get(kind, 0)
    return "once" if count == 1 else counted(count, "time")


def _cite(kind: str) -> str:
    """Where the kernel prints this message: " (net/sched/sch_generic.c dev_watchdog())"."""
    explanation = explain(kind)
    return f" (printed by {explanation.source})" if explanation else ""


def _errno(lines: list[str]) -> str:
    """ "-110 = ETIMEDOUT, Connection timed out: the device did not answer ..." for the first
    line that reports an errno; the kernel's own numbering, whatever machine reads the log."""
    for line in lines:
        value = errno_in(line)
        known = load_messages().errno(value)
        if value is None or known is None:
            continue
        hint = errno_hint(value)
        return f" Error {value} is {known.name} ({known.meaning})" + (f": {hint}." if hint else ".")
    return ""


def _complaints(nic: Nic, found: list[Finding], label: str) -> None:
    """Error- and warning-level lines of the NIC's driver that no rule above explains: what
    the kernel's source says they are (level, file), with the lines as evidence."""
    lines = nic.log.get("kernel_error")
    if not lines:
        return
    table = load_messages()
    matched = [(line, table.match(line)) for line in lines]
    known = [
        (line, replace(m, files=own_files_first(m.files, nic.driver)))
        for line, m in matched
        if m is not None and not other_drivers_message(m.files, nic.driver)
    ]
    count = nic.log_counts.get("kernel_error", len(lines))
    libs = [library_of(line, nic.driver) for line in lines]
    said = sorted(lib for lib in libs if lib is not None)
    if not known and said and len(said) == len(libs):  # "wlcore: ERROR ...": its library's
        lib, makefile = said[0]
        found.append(
            Finding(
                "driver-complaint",
                "warning",
                label,
                f"{label}: {lib}, the library module its driver {nic.driver} uses (built by "
                f"{makefile} in the 6.1/6.12 kernel source), logged "
                f"{counted(count, 'error or warning line')}.{_errno(lines)}",
                lines,
            )
        )
        return
    if not known:  # lines of an older or a vendor kernel: what they report is the errno
        found.append(
            Finding(
                "driver-complaint",
                "warning",
                label,
                f"{label}: its driver logged {counted(count, 'failure line')} "
                "that the 6.1/6.12 kernel source no longer prints (an older or a vendor "
                f"kernel).{_errno(lines)}",
                lines,
            )
        )
        return
    errors = [m for _line, m in known if m.is_error]
    first = (errors or [m for _l, m in known if m.level == "warn"] or [m for _l, m in known])[0]
    kernels = " and ".join(first.series)
    # "usb 2-2: disable of device-initiated U1 failed." is the USB core's line (hub.c) on the
    # NIC's USB device, not its driver's
    who = (
        "the USB core logged"
        if first.source.startswith("drivers/usb/core/")
        else "the kernel's network core logged"  # "eth0: hw csum failure" (net/core/dev.c)
        if first.source.startswith("net/core/")
        else "its driver logged"
    )
    found.append(
        Finding(
            "driver-complaint",
            "warning" if errors else "info",
            label,
            f"{label}: {who} "
            f"{_by_level(count, [m for _l, m in known])}"
            f' such as "{first.format}" (level {first.level}, '
            f"{first.source} in the {kernels} kernel source).{_errno(lines)}{_meaning(first)}",
            lines,
        )
    )


def _by_level(count: int, known: list[KernelMessage]) -> str:
    """ "2 error lines", "1 info-level line", "3 lines (1 error, 2 info-level)": each line
    named by the level the kernel's source prints it at (messages.tsv), never all "error"."""
    words = [m.level_word for m in known]
    kinds = list(dict.fromkeys(words))
    if len(kinds) == 1:
        return counted(count, f"{kinds[0]} line")
    parts = ", ".join(f"{words.count(k)} {k}" for k in kinds)
    return f"{counted(count, 'line')} ({parts}{'' if count == len(words) else ' of those quoted'})"


def _meaning(message: KernelMessage) -> str:
    """ " It means: ..." for a message with a hand-written explanation ("hw csum failure")."""
    known = explain_format(message.format)
    return f" It means: {known.text} ({known.source})." if known else ""


_FAST_PHY = re.compile(r"gigabit|\bgbe\b|1000|2\.5g|nbase-t|10g", re.I)


def _pcie_errors(nic: Nic, found: list[Finding], label: str) -> None:
    """PCIe AER lines about the NIC's device (drivers/pci/pcie/aer.c, err.c)."""
    lines = nic.log.get("pcie_aer")
    if not lines:
        return
    lost = any(w in line for line in lines for w in ("Uncorrect", "Fatal", "recover"))
    summary = (
        f"{label}: its PCIe link reported errors ({_times(nic, 'pcie_aer')})"
        f"{_cite('pcie_aer')}: "
        + (
            "uncorrected ones, which lose data or stop the device. "
            if lost
            else "corrected ones, which the link repairs by resending, at a cost. "
        )
        + "A marginal link (slot, riser, adapter cable, power) or its power saving (ASPM) "
        "causes them: reseat the card, try another slot or cable, or test with pcie_aspm=off."
    )
    severity = "problem" if lost else "warning"
    found.append(Finding("pcie-errors", severity, label, summary, lines))  # type: ignore[arg-type]


def _below_phy(nic: Nic, found: list[Finding], label: str) -> None:
    """A PHY the log names as gigabit (or faster) that linked at 10/100 Mbit/s."""
    speed = nic.link_speed_mbps
    if not nic.phy or not nic.link_detected or speed is None or speed >= 1000:
        return
    if not _FAST_PHY.search(nic.phy):
        return
    found.append(
        Finding(
            "link-below-phy",
            "warning",
            label,
            f"{label} linked at {speed} Mbit/s although its PHY is a {nic.phy}: a gigabit link "
            "needs all four pairs of the cable and a gigabit port at the other end; check the "
            "cable, the switch port, and that no speed is forced (ethtool -s).",
            [line for key in ("link",) for line in nic.log.get(key, [])][-1:],
        )
    )


def log_findings(nic: Nic) -> list[Finding]:
    found: list[Finding] = []
    label = _label(nic)

    def add(id_: str, severity: str, summary: str, lines: list[str]) -> None:
        found.append(Finding(id_, severity, label, summary, lines))  # type: ignore[arg-type]

    if lines := nic.log.get("phy_failure"):
        add(
            "phy-attach-failure",
            "problem",
            f"{label}: the driver could not attach its PHY ({_times(nic, 'phy_failure')}), so "
            f"the port cannot link{_cite('phy_failure')}. Check the device tree's "
            "phy-handle/phy-mode for this board and kernel, and the PHY's reset and power.",
            lines,
        )
    if nic.link_downs >= 2:
        add(
            "link-flapping",
            "warning",
            f"{label}'s link went down {counted(nic.link_downs, 'time')}"
            f"{_span(nic.link_span_s)}: a "
            "cable, switch port, power (EEE) or PHY problem.",
            nic.log.get("link", []),
        )
    if nic.link_detected is False and nic.log.get("link"):
        add(
            "link-down",
            "warning",
            f"{label}'s link is down: the last link line in the kernel log says so.",
            nic.log["link"][-1:],
        )
    elif nic.link_detected is False and (lines := nic.log.get("no_carrier")):
        add(
            "link-down",
            "warning",
            f"{label} is up but has no carrier (NO-CARRIER, or UP without RUNNING): nothing "
            "answers at the other end of the cable. Check the cable, the switch port and the "
            "PHY.",
            lines[-1:],
        )
    if lines := nic.log.get("kevent_dropped"):
        add(
            "lan78xx-kevent-dropped",
            "warning",
            # usbnet's own message (usbnet.c usbnet_defer_kevent) as well as lan78xx's: the
            # NIC's driver is named, never a lan78xx beside a cdc_ether line
            f"{label}: the {nic.driver or 'USB network'} driver dropped deferred work "
            f'("kevent may have been dropped", {_times(nic, "kevent_dropped")}): its USB link '
            "is overloaded or failing.",
            lines,
        )
    resets = nic.log.get("usb_reset", []) + nic.log.get("usb_disconnect", [])
    errors = nic.log.get("usb_error", [])
    if resets or errors:
        # Only a count that is there: "0 USB errors such as -71" beside a driver's own -71
        # line would contradict what the log shows.
        tallies = [counted(len(resets), "reset/disconnect", "resets/disconnects")] if resets else []
        if usb_errors := nic.log_counts.get("usb_error", 0):
            tallies.append(f"{counted(usb_errors, 'USB error')} such as -71/-110")
        add(
            "usb-reset",
            "warning",
            f"{label}: the USB adapter was reset or lost ({', '.join(tallies)}): power, cable "
            f"or port{_cite('usb_reset')}.",
            (resets + errors)[:4],
        )
    if lines := nic.log.get("tx_timeout"):
        add(
            "tx-timeout",
            "problem",
            f"{label}: transmit timed out ({_watchdog(lines)}{_times(nic, 'tx_timeout')}): the "
            f"NIC stopped sending and was reset{_cite('tx_timeout')}.",
            lines,
        )
    switchable = storage_mode(nic.ids) if nic.bus == "usb" else None
    if nic.bus == "usb" and (
        nic.driver == "usb-storage" or (switchable is not None and not nic.driver)
    ):
        how = "(usb-storage)" if nic.driver == "usb-storage" else "(IDs usb_modeswitch knows)"
        add(
            "usb-nic-in-storage-mode",
            "problem",
            f'{label} ({nic.ids}) is a network adapter that came up as its built-in "driver CD" '
            f"{how}, so it gives no network interface: usb_modeswitch (or ejecting the disk) "
            "switches it to its network mode.",
            [e.split(": ", 1)[-1] for e in nic.evidence][:2],
        )
    if (lines := nic.log.get("firmware_missing")) and not nic.firmware:
        add(
            "firmware-missing",
            "problem",
            f"{label}: firmware the driver asked for was not found"
            f"{_cite('firmware_missing')}.{_errno(lines)}",
            lines,
        )
    if lines := nic.log.get("probe_failed"):
        add(
            "probe-failed",
            "problem",
            f"{label}: the driver matched the device but failed to start it "
            f"({_times(nic, 'probe_failed')}), so it gives no network interface"
            f"{_cite('probe_failed')}.{_errno(lines)}",
            lines,
        )
    _pcie_errors(nic, found, label)
    _complaints(nic, found, label)
    found += trace_findings(nic, label)
    _below_phy(nic, found, label)
    found += counter_findings(nic, label)
    found += cellular_findings(nic, label)
    return found


def _protocol_driver(driver: KernelDriver | None) -> bool:
    """cdc_subset lists the Linux USB gadget's IDs, but it is another protocol driver, not
    the chip's own: "use it instead" would promise offloads it does not have."""
    return driver is not None and driver.protocol


def generic_driver(nic: Nic) -> tuple[Finding, Recommendation] | None:
    """A chip with its own in-tree driver, bound to a class driver (cdc_ncm, cdc_ether)."""
    ids = load_ids()
    if nic.bus != "usb" or not ids.is_generic_usb(nic.driver):
        return None
    table = load_kernel_drivers()
    vendor = [
        m
        for m in ids.drivers_for("usb", nic.ids)
        if not ids.is_generic_usb(m) and not _protocol_driver(table.get(m))
    ]
    if not vendor:
        return None
    module = ids.module(vendor[0])
    chip = nic.chip or nic.ids
    finding = Finding(
        "generic-driver",
        "warning",
        _label(nic),
        f"{_label(nic)} ({chip}) runs the generic {nic.driver} driver although the kernel has "
        f"{vendor[0]} for this chip ({nic.ids}).",
        [e for e in nic.evidence if "driver" in e.lower()][:2],
    )
    kernels = ", ".join(ids.kernel_label(k) for k in module.kernels) if module else ""
    recommendation = Recommendation(
        "driver",
        _label(nic),
        f"Use the {vendor[0]} driver",
        f"{vendor[0]} binds {nic.ids} when it is loaded before {nic.driver} claims the "
        f"device (built by {kernels or 'the usual kernels'}); with a generic driver the chip's "
        "offloads and power settings are not used.",
        "the chip's own offloads; often higher throughput and fewer stalls",
        [KERNEL_SOURCE + module.path + ".c"] if module else [],
        steps=[
            f"sudo modprobe {vendor[0]}",
            "unplug and replug the adapter (or reboot)",
            f"check: ethtool -i {nic.name or 'IFACE'} shows driver: {vendor[0]}",
        ],
    )
    return finding, recommendation


def usb_no_driver(nic: Nic) -> tuple[Finding, Recommendation | None] | None:
    """A USB network adapter that a source shows with no driver bound (usb-devices
    "Driver=(none)", a driver that refused the chip): which in-tree module lists its IDs."""
    if nic.bus != "usb" or nic.driver or nic.driver_state != "none":
        return None
    ids = load_ids()
    modules = ids.drivers_for("usb", nic.ids)
    name = nic.chip or nic.ids
    finding = Finding(
        "no-driver",
        "problem",
        _label(nic),
        f"No driver is bound to the USB network adapter{f' {name}' if name else ''}: it is on "
        "the bus but gives no network interface.",
        [e.split(": ", 1)[-1] for e in nic.evidence][:2],
    )
    if not modules and nic.log.get("probe_failed"):
        # A driver matched it and failed (its own finding says so, with the kernel's line):
        # not "no in-tree driver lists its IDs" (the s12 walk: rtw_8822bu on an RTL8822BU).
        return finding, None
    if not modules:
        return finding, Recommendation(
            "driver",
            _label(nic),
            "Find a driver for this adapter",
            f"No in-tree driver of the kernels checked lists {nic.ids or 'its IDs'}: a newer "
            "kernel or the chip maker's driver may; a rebadged chip is often served by the "
            "maker's driver once its IDs are added.",
            "a working NIC",
            [],
        )
    module = ids.module(modules[0])
    kernels = ", ".join(ids.kernel_label(k) for k in module.kernels) if module else ""
    return finding, Recommendation(
        "driver",
        _label(nic),
        f"Load the {modules[0]} driver",
        f"{modules[0]} lists {nic.ids} (built by {kernels}): load it, or update the kernel.",
        "a working NIC",
        [KERNEL_SOURCE + module.path + ".c"] if module else [],
        steps=[f"sudo modprobe {modules[0]}"],
    )


def driver_from_tables(nic: Nic) -> Recommendation | None:
    """ "No driver bound" on a chip the catalog has no figures for: which in-tree module lists
    its IDs (the kernel's modules.alias), whether Debian's arm64 / Raspberry Pi kernels build
    it, and how to get it."""
    ids = load_ids()
    modules = ids.drivers_for(nic.bus, nic.ids)
    if not modules:
        return None
    module = ids.module(modules[0])
    if module is None:
        return None
    built = [ids.kernel_label(k) for k in module.kernels]
    arm = [k for k in module.kernels if k in ("arm64", "rpi")]
    detail = f"The kernel's {modules[0]} driver ({module.path}) lists {nic.ids}. " + (
        f"It is built by {', '.join(built)}: check “modinfo {modules[0]}”, then "
        f"“sudo modprobe {modules[0]}”; if your kernel lacks it, update the kernel."
        if arm
        else f"Debian builds it only for {', '.join(built)}: an ARM board's kernel may "
        "not have it; build it from the kernel source or use the vendor's driver."
    )
    return Recommendation(
        "driver",
        _label(nic),
        f"Load the {modules[0]} driver",
        detail,
        "a working NIC",
        [KERNEL_SOURCE + module.source_dir],
        steps=[f"modinfo {modules[0]}", f"sudo modprobe {modules[0]}"],
    )


def newer_kernel_driver(nic: Nic, kernel: str | None) -> Recommendation | None:
    """A NIC with no driver shown whose IDs an in-tree driver lists only since after 6.1 (the
    kernel source's own ID tables): on an older kernel, the vendor's driver or a newer kernel."""
    if nic.driver or nic.bus not in ("usb", "pci") or not nic.ids:
        return None
    table = load_kernel_drivers()
    listed = [
        (d, table.id_series(nic.bus, nic.ids, d.name)) for d in table.for_ids(nic.bus, nic.ids)
    ]
    newer = [(d, series) for d, series in listed if "6.1" not in series]
    running = kernel_series(kernel)
    if not newer or len(newer) < len(listed) or (running is not None and running >= (6, 12)):
        return None
    driver, series = newer[0]
    yours = for_your_kernel(series, kernel) or (
        "Update to a kernel that has it (6.12 does), or build the chip maker's driver."
    )
    return Recommendation(
        "driver",
        _label(nic),
        f"{driver.name} drives this adapter in newer kernels",
        f"The kernel's {driver.name} ({driver.file}) lists {nic.ids}: {in_tree_since(series)}. "
        + yours,
        "a working NIC",
        [KERNEL_SOURCE + driver.file],
        steps=["uname -r", "update the kernel (or install the maker's driver), then replug"],
    )
