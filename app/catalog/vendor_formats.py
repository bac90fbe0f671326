"""Lines of out-of-tree vendor drivers, by their own format (``resources/kernel_source/
vendor_formats.json``, read by hand from each driver's public source: xradio_wlan's
"[RX] IF=0, Receive failure: 4." is a dev_err() of Icenowy/xradio's rx.c xradio_rx_cb()).

Debian's 6.1/6.12 tables (messages.tsv) cannot know them. A row is tried only on a line of
its own driver (the name the line begins with), so a row never reads another driver's words;
its level says whether the line is a complaint, and an "iface" field names the interface the
line is about ("nuc970-emac0 b0002000.emac0: eth0 is OPENED").

A driver that prints no device and no name of its own but its function's, ``printf("%s: ...",
__FUNCTION__)`` (Broadcom's out-of-tree bcmdhd: "dhd_conf_set_hw_oob_intr: Enable HW OOB for
43362"), has rows with a "function": such a row is read only on a line that begins with that
function's name, a C identifier no other driver's source defines (issue 24, forty-ninth unseen
set)."""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass

from sbctune.catalog.format_fields import format_fields

# What a conversion of these rows prints; a string is a name (dev->name), one word.
_CONVERSION = {"d": r"-?\d+", "i": r"-?\d+", "u": r"\d+", "x": r"[0-9a-fA-F]+", "s": r"[^\s:]+"}


@dataclass(frozen=True)
class VendorFormat:
    driver: str
    bus: str | None
    wireless: bool | None
    level: str  # "error", "warn" or "info", as the printing call says
    format: str
    source: str  # repo@commit file function()
    needle: str
    regex: re.Pattern[str]
    chip: str | None = None  # "NRC{chip_id}": the chip's name, over the line's fields
    function: str | None = None  # the printing function the line begins with ("%s: ", __func__)
    firmware_missing: str | None = None  # the field holding a firmware file it could not open
    # the driver's own word its call prints first by a leading "%s " (sunxi-3.4's CARDNAME
    # "sunxi_emac": "sunxi_emac Using mii phy on PortA"), read as a function's name is
    prefix: str | None = None

    @property
    def complaint(self) -> bool:
        return self.level != "info"

    def chip_of(self, fields: dict[str, str]) -> str | None:
        """The chip the line names by the row's template ("NRC{chip_id}" with chip_id 7292:
        NRC7292); None without a template or a field it needs. The template is the table's
        (read from the driver's source), the values the line's conversions (digits, words)."""
        if self.chip is None:
            return None
        names = re.findall(r"\{(\w+)\}", self.chip)
        if not names:  # no template: the chip the source prints this line for ("BCM43362")
            return self.chip
        if any(not fields.get(n) for n in names):
            return None
        return re.sub(r"\{(\w+)\}", lambda m: fields[m.group(1)].upper(), self.chip)


def _conversion(spec: re.Match[str]) -> str:
    return _CONVERSION.get(spec.group(1), r"\S+")


@functools.cache
def vendor_formats() -> tuple[VendorFormat, ...]:
    from sbctune.resources import resource_root

    try:
        path = resource_root().joinpath("kernel_source", "vendor_formats.json")
        rows = json.loads(path.read_text(encoding="utf-8"))["formats"]
        found = []
        for row in rows:
            fields = [str(f) for f in row["fields"]]
            body, needle = format_fields(str(row["format"]), fields, _conversion)
            wireless = row.get("wireless")
            found.append(
                VendorFormat(
                    str(row["driver"]), str(row["bus"]) if row.get("bus") else None,
                    bool(wireless) if wireless is not None else None, str(row["level"]),
                    str(row["format"]), str(row["source"]), needle,
                    re.compile(r"(?:^|: )" + body + r"\s*$"),  # the message: after "dev: "
                    str(row["chip"]) if row.get("chip") else None,
                    str(row["function"]) if row.get("function") else None,
                    str(row["firmware_missing"]) if row.get("firmware_missing") else None,
                    str(row["prefix"]) if row.get("prefix") else None,
                )
            )  # fmt: skip
        return tuple(found)
    except (OSError, ValueError, KeyError, TypeError, re.error):
        return ()


def vendor_line(driver: str | None, text: str) -> tuple[VendorFormat, dict[str, str]] | None:
    """The row of `driver` that printed this line (its fields), or None."""
    if not driver or len(text) > 400:
        return None
    for row in vendor_formats():
        if row.function or row.prefix or row.driver != driver or row.needle not in text:
            continue
        if m := row.regex.search(text):
            return row, {k: v for k, v in m.groupdict().items() if v is not None}
    return None


@functools.cache
def _by_function() -> dict[str, tuple[VendorFormat, ...]]:
    rows: dict[str, list[VendorFormat]] = {}
    for row in vendor_formats():
        if row.function is not None:
            rows.setdefault(row.function, []).append(row)
        elif row.prefix is not None:
            rows.setdefault(row.prefix, []).append(row)
    return {name: tuple(found) for name, found in rows.items()}


def vendor_function_line(msg: str) -> tuple[VendorFormat, dict[str, str]] | None:
    """The function-keyed row that printed this device-less line ("dhd_conf_set_hw_oob_intr:
    Enable HW OOB for 43362"), with its fields, or None: the line must begin with the row's
    function and a colon, and its rest be the row's format."""
    if len(msg) > 400:
        return None
    head, sep, rest = msg.partition(": ")
    if sep and " " not in head:
        for row in _by_function().get(head, ()):
            if row.function and row.needle in rest and (m := row.regex.search(rest)):
                return row, {k: v for k, v in m.groupdict().items() if v is not None}
    # "sunxi_emac Using mii phy on PortA": the driver's own word, a space, its format
    head, sep, rest = msg.partition(" ")
    for row in _by_function().get(head, ()) if sep else ():
        if row.prefix and row.needle in rest and (m := row.regex.match(rest)):
            return row, {k: v for k, v in m.groupdict().items() if v is not None}
    return None


def vendor_row(function: str, fmt: str) -> VendorFormat | None:
    """The function-keyed row of that function and format (a classified line's)."""
    return next((row for row in _by_function().get(function, ()) if row.format == fmt), None)


def vendor_driver(driver: object) -> VendorFormat | None:
    """A row of `driver` when vendor_formats.json reads that out-of-tree driver: the table
    holds network drivers only (read from their source: xradio_wlan, nuc970-emac0, morse_spi),
    so a device it drives is a NIC, a Wi-Fi one where its rows say so."""
    if not driver:
        return None
    return next((r for r in vendor_formats() if r.driver == driver and r.function is None), None)


@dataclass(frozen=True)
class VendorFirmware:
    prefix: str  # the file's name up to the function's first conversion: "morse/mm6108"
    chip: str
    drivers: tuple[str, ...]
    source: str


@functools.cache
def vendor_firmware() -> tuple[VendorFirmware, ...]:
    """vendor_formats.json's "firmware_prefixes", longest prefix first (the file's name is the
    chip's by the function that builds it: morse_driver's mm6108.c mm610x_get_fw_path())."""
    from sbctune.resources import resource_root

    try:
        path = resource_root().joinpath("kernel_source", "vendor_formats.json")
        rows = json.loads(path.read_text(encoding="utf-8")).get("firmware_prefixes", [])
        found = [
            VendorFirmware(
                str(r["prefix"]), str(r["chip"]), tuple(str(d) for d in r["drivers"]),
                str(r["source"]),
            )
            for r in rows
        ]  # fmt: skip
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return ()
    return tuple(sorted(found, key=lambda row: -len(row.prefix)))


def vendor_firmware_chip(driver: object, firmware: str) -> str | None:
    """The chip an out-of-tree driver's firmware file names ("morse/mm6108.bin": MM6108), when
    the line's driver is one the row names (or no driver is known, as for the kernel's own
    prefixes); None for a file no row's prefix begins."""
    for row in vendor_firmware():
        if firmware.startswith(row.prefix) and (
            not isinstance(driver, str) or driver in row.drivers
        ):
            return row.chip
    return None
