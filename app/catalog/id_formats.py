"""The kernel's log formats that print a device's USB/PCI vendor:product pair
(``resources/kernel_source/id_formats.tsv``, generated from Debian's linux-source-6.1 and 6.12
by ``scripts/regen_id_formats.py``): a line printed from one gives the IDs of the device it is
about, whatever the driver ("usb 1-1: This Realtek USB WiFi dongle (0x2357:0x0108) is
untested!", rtl8xxxu's dev_info). The table says which two conversions are the pair.

A line is tried against a format only if it holds the format's longest literal (a substring
test: a few dozen per line of a driver that names a device, each distinct line once); a
format becomes a regex when first tried. No text from a Pi is made a regex.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from sbctune.catalog.kernel_messages import _CONVERSION, _SPEC_RE

# "%04x" prints four digits, a bare "%x" (brcmfmac's "Enter %x:%x") one to four
_HEX4 = "([0-9a-fA-F]{1,4})"
_SEEN_LIMIT = 5_000


@dataclass(frozen=True)
class IdFormat:
    format: str
    level: str
    files: tuple[str, ...]
    vendor_at: int  # the vendor's conversion among the format's (%% aside)
    product_at: int


def _regex(item: IdFormat) -> re.Pattern[str]:
    out: list[str] = []
    pos = index = 0
    for m in _SPEC_RE.finditer(item.format):
        out.append(re.escape(item.format[pos : m.start()]))
        pos = m.end()
        if m.group(1) == "%":
            out.append("%")
            continue
        out.append(
            _HEX4
            if index in (item.vendor_at, item.product_at)
            else _CONVERSION.get(m.group(1), ".*?")
        )
        index += 1
    out.append(re.escape(item.format[pos:]))
    return re.compile(r"(?:^|(?<=[\s:\]]))" + "".join(out) + r"\s*$")


class IdFormats:
    def __init__(self, text: str) -> None:
        self._rows: list[tuple[str, IdFormat]] = []  # (longest literal, format)
        for line in text.split("\n"):
            if not line or line.startswith("#"):
                continue
            at, level, _series, files, fmt = line.split("\t", 4)
            vendor, product = (int(x) for x in at.split(","))
            item = IdFormat(fmt, level, tuple(files.split(",")), vendor, product)
            needle = max(_SPEC_RE.split(fmt)[::2], key=len)
            self._rows.append((needle, item))
        self._regex: dict[str, re.Pattern[str]] = {}
        self._seen: dict[str, tuple[str, IdFormat] | None] = {}

    def __len__(self) -> int:
        return len(self._rows)

    def ids_in(self, text: str, driver: str | None = None) -> tuple[str, IdFormat] | None:
        """("2357:0108", the format) when the line was printed from a format of the table. A
        format that prints the PCI device number alone (vendor index -1: iwlwifi's "PCI dev
        %04x/%04x, ...") gives the IDs of the one entry of `driver`'s alias table with that
        number (resources/ids/drivers.json: "2723" -> iwlwifi's 8086:2723); without a driver,
        or with entries of several vendors, it gives none."""
        head = text[:400]
        key = f"{driver}\0{head}" if driver else head
        if key in self._seen:
            return self._seen[key]
        found = None
        for needle, item in self._rows:
            if needle not in head:
                continue
            rx = self._regex.get(item.format)
            if rx is None:
                rx = self._regex[item.format] = _regex(item)
            m = rx.search(head)
            if m is None:
                continue
            if item.vendor_at < 0:
                ids = _driver_entry(driver, m.group(1))
                if ids is None:
                    continue
                found = (ids, item)
                break
            vendor, product = m.group(1), m.group(2)
            first = sorted((item.vendor_at, item.product_at))
            if first[0] != item.vendor_at:
                vendor, product = product, vendor
            found = (f"{vendor.zfill(4)}:{product.zfill(4)}".lower(), item)
            break
        if len(self._seen) < _SEEN_LIMIT:
            self._seen[key] = found
        return found


def _driver_entry(driver: str | None, device: str) -> str | None:
    """The IDs of the one entry of the driver's PCI alias table with this device number."""
    if not driver:
        return None
    from sbctune.catalog.ids import load_ids

    return load_ids().driver_entry("pci", driver, device)


@functools.cache
def load_id_formats() -> IdFormats:
    """The shipped table (cached). A missing file gives an empty table: nothing read."""
    from sbctune.resources import resource_root

    try:
        text = (
            resource_root().joinpath("kernel_source", "id_formats.tsv").read_text(encoding="utf-8")
        )
        return IdFormats(text)
    except (OSError, ValueError):
        return IdFormats("")
