"""A NIC's driver complaints (split from logs.py): its error- and warning-level kernel lines
that no rule of logs.py explains, named by what the kernel's source says they are
(messages.tsv: level, file, series) or by the library module that printed them."""

from __future__ import annotations

import functools
import re
from dataclasses import replace

from sbctune.advice.log_words import errno_words
from sbctune.catalog.kernel_drivers import (
    load_kernel_drivers,
    other_drivers_message,
    own_files_first,
    sibling_driver_dir,
)
from sbctune.catalog.kernel_messages import KernelMessage, explain_format, load_messages
from sbctune.catalog.library_modules import library_of
from sbctune.catalog.property_defaults import PropertyDefault, default_taken, firmware_words
from sbctune.catalog.vendor_formats import vendor_line
from sbctune.inventory.model import Finding, Nic
from sbctune.wording import counted


def complaints(nic: Nic, label: str) -> list[Finding]:
    """Error- and warning-level lines of the NIC's driver that no rule of logs.py explains:
    what the kernel's source says they are (level, file), with the lines as evidence."""
    lines = nic.log.get("kernel_error")
    if not lines:
        return []
    driver = nic.driver or _printing_driver(lines, nic.bus_path)
    matched = [(line, _own_match(line[:400], driver)) for line in lines]
    # a line its driver prints where it takes its own default for an absent firmware property
    # ("set rx_delay to 0x%x", dwmac-rk.c) is no complaint: the probe went on
    taken = [
        (line, found)
        for line, m in matched
        if m is not None and (found := default_taken(m.format, m.files)) is not None
    ]
    defaults = [_defaults(label, taken)] if taken else []
    if taken:
        said = {line for line, _d in taken}
        matched = [(line, m) for line, m in matched if line not in said]
        lines = [line for line in lines if line not in said]
        if not lines:
            return defaults
    known = [
        (line, replace(m, files=own_files_first(m.files, driver)))
        for line, m in matched
        if m is not None and not other_drivers_message(m.files, driver)
    ]
    count = max(nic.log_counts.get("kernel_error", len(lines)) - len(taken), len(lines))
    if not known:
        return [_unknown(nic, label, lines, count), *defaults]
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
    return [
        Finding(
            "driver-complaint",
            "warning" if errors else "info",
            label,
            f"{label}: {who} "
            f"{_by_level(count, [m for _l, m in known])}"
            f' such as "{first.format}" (level {first.level}, '
            f"{first.source} in the {kernels} kernel source{_sibling(first, nic.driver)})."
            f"{errno_words(lines)}{_meaning(first)}",
            lines,
        ),
        *defaults,
    ]


@functools.lru_cache(maxsize=4096)  # a flooding line (thousands of "Tx status -71") once
def _own_match(line: str, driver: str | None) -> KernelMessage | None:
    """The format the line was printed from: the most specific the table has, unless one its
    driver's own file prints matches too (r8152.c's netdev_warn "Tx status %d", not
    rtl8150.c's longer dev_info "%s: Tx status %d", for an r8152 line)."""
    table = load_messages()
    known = load_kernel_drivers().get(driver)
    if known is None or not known.file:
        return table.match(line)
    found = table.candidates(line)
    own = [m for m in found if known.file in m.files]
    best = own or found
    return best[0] if best else None


# dev_printk()'s prefix, "<driver> <device>: " (drivers/base/core.c: dev_driver_string(),
# dev_name()): the driver that printed a line about the NIC's device, where no driver is bound
# to it any more (igc whose probe failed)
def _printing_driver(lines: list[str], bus_path: str | None) -> str | None:
    if not bus_path:
        return None
    for line in lines[:20]:
        found = re.search(rf"(?:^|\s)([\w-]{{2,32}}) {re.escape(bus_path)}[\s:]", line)
        if found and load_kernel_drivers().get(found.group(1)) is not None:
            return found.group(1)
    return None


def _sibling(message: KernelMessage, driver: object) -> str:
    """Where only the same vendor's other driver prints the format (ath11k/ for an ath12k_pci
    line): the driver's own files in that source do not, so the line is another kernel's."""
    other = sibling_driver_dir(message.files, driver)
    if other is None:
        return ""
    name = other.rstrip("/").rsplit("/", 1)[-1]
    return (
        f", where {name}, the same vendor's other driver, prints it: {driver}'s own files "
        "there do not, so the line comes from another kernel"
    )


def _defaults(label: str, taken: list[tuple[str, PropertyDefault]]) -> Finding:
    """The firmware properties the driver found absent and replaced by its own defaults, named
    by where its source reads them (property_defaults.json): what it printed, not a failure."""
    props = list(dict.fromkeys(d.property for _l, d in taken))
    first = taken[0][1]
    where = f"{first.file} {first.function}()" if first.function else first.file
    named = " and ".join(f'"{p}"' for p in props)
    return Finding(
        "property-default",
        "info",
        label,
        f"{label}: {firmware_words(first)} gives no {named}, so the driver used its own default "
        f"({where} in the {' and '.join(first.series)} kernel source prints that at level "
        f"{first.level}, then goes on): not a failure. A board that needs another value sets "
        "it in its device tree.",
        [line for line, _d in taken],
    )


def _unknown(nic: Nic, label: str, lines: list[str], count: int) -> Finding:
    """Lines the 6.1/6.12 source does not print: a library module's ("wlcore: ERROR ..."), or
    an older or a vendor kernel's, where what they report is the errno."""
    libs = [library_of(line, nic.driver) for line in lines]
    said = sorted(lib for lib in libs if lib is not None)
    if said and len(said) == len(libs):
        lib, makefile = said[0]
        return Finding(
            "driver-complaint",
            "warning",
            label,
            f"{label}: {lib}, the library module its driver {nic.driver} uses (built by "
            f"{makefile} in the 6.1/6.12 kernel source), logged "
            f"{counted(count, 'error or warning line')}.{errno_words(lines)}",
            lines,
        )
    if vendor := _vendor(nic, label, lines, count):
        return vendor
    return Finding(
        "driver-complaint",
        "warning",
        label,
        f"{label}: its driver logged {counted(count, 'failure line')} "
        "that the 6.1/6.12 kernel source no longer prints (an older or a vendor "
        f"kernel).{errno_words(lines)}",
        lines,
    )


def _vendor(nic: Nic, label: str, lines: list[str], count: int) -> Finding | None:
    """Lines an out-of-tree driver prints by its own public source (vendor_formats.json):
    named by that source's format, level and file, as the kernel's own lines are."""
    rows = [found[0] for line in lines if (found := vendor_line(nic.driver, line))]
    if not rows:
        return None
    errors = [r for r in rows if r.level == "error"]
    first = (errors or rows)[0]
    return Finding(
        "driver-complaint",
        "warning" if errors else "info",
        label,
        f"{label}: its driver {nic.driver}, out of the kernel's tree (in neither the 6.1 nor "
        f"the 6.12 source), logged {counted(count, 'error or warning line')} such as "
        f'"{first.format}" (level {first.level}, {first.source.split(";")[0]}, its public '
        f"source).{errno_words(lines)}",
        lines,
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
