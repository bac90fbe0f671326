"""Lines of older kernels (2.6.x, 3.x) that 6.1/6.12 no longer print, by their own format
(``resources/kernel_source/old_formats.json``, read by hand from the cited public source of
such kernels, since apt offers no linux-source older than 6.1 here): fec's "eth0: Freescale FEC
PHY driver [Generic PHY](mii_bus:phy_addr=1:06, irq=-1)" (fec_enet_mii_probe()) and libphy's
"PHY: 1:06 - Link is Up - 1000/Full" (phy_print_status()), the 2.6-era fec's own "eth0: status:
link up, 100MBit Full Duplex." (mii_display_status()). A line is tried only when no other shape
read it, and only against the formats whose longest literal it holds."""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass

from sbctune.catalog.format_fields import format_fields

_CONVERSION = {"d": r"-?\d+", "i": r"-?\d+", "u": r"\d+", "x": r"[0-9a-fA-F]+", "s": r"\S.*?"}


@dataclass(frozen=True)
class OldFormat:
    format: str
    driver: str | None
    bus: str | None  # for a driver the 6.1/6.12 tables do not have
    level: str
    source: str
    needle: str
    regex: re.Pattern[str]
    chip: str | None = None  # the chip a format's own words name ("OEM i82557/i82558 ...")
    link: str | None = None  # "up" or "down": the line is a link change (the table says which)
    # a library module that prints the line about the device of one of its users (rt2x00lib's
    # "phy0 -> rt2x00lib_probe_dev: ..."), and whether the line is printed on its probe's way
    # out with an error (a refusal: no driver bound)
    library: str | None = None
    probe_exit: bool = False
    # False: a line printed above info level that reports no failure (IgH ec_generic's
    # KERN_ERR "Binding socket to interface ..."): no complaint of it
    trouble: bool = True


def _literal(text: str) -> str:
    """A literal of the format; a space may be missing or doubled (vendor trees print "[%s]"
    and "(mii_bus:..." as adjacent strings with and without a space between them)."""
    return r"\s*".join(re.escape(word) for word in text.split(" "))


def _conversion(spec: re.Match[str]) -> str:
    conversion = _CONVERSION.get(spec.group(1), ".*?")
    if "#" in spec.group(0) and spec.group(1) == "x":  # "%#lx" prints "0x2c000000"
        conversion = f"0x{conversion}"
    return conversion


def _compile(fmt: str, fields: list[str]) -> tuple[re.Pattern[str], str]:
    body, needle = format_fields(fmt, fields, _conversion, _literal)
    return re.compile("^" + body + r"\s*$"), needle


@functools.cache
def old_formats() -> tuple[OldFormat, ...]:
    from sbctune.resources import resource_root

    try:
        path = resource_root().joinpath("kernel_source", "old_formats.json")
        rows = json.loads(path.read_text(encoding="utf-8"))["formats"]
        found = []
        for row in rows:
            regex, needle = _compile(str(row["format"]), [str(f) for f in row["fields"]])
            driver = row.get("driver")
            found.append(
                OldFormat(
                    str(row["format"]), str(driver) if driver else None,
                    str(row["bus"]) if row.get("bus") else None, str(row["level"]),
                    str(row["source"]), needle, regex,
                    str(row["chip"]) if row.get("chip") else None,
                    str(row["link"]) if row.get("link") in ("up", "down") else None,
                    str(row["library"]) if row.get("library") else None,
                    row.get("probe_exit") is True,
                    row.get("trouble") is not False,
                )
            )  # fmt: skip
        return tuple(found)
    except (OSError, ValueError, KeyError, TypeError, re.error, StopIteration):
        return ()


def old_format_line(msg: str) -> tuple[str, dict[str, str]] | None:
    """("old_format", its fields and the format) for a line an older kernel printed."""
    if len(msg) > 300:
        return None
    for row in old_formats():
        if row.needle in msg and (m := row.regex.match(msg)):
            fields = {k: v for k, v in m.groupdict().items() if v is not None}
            return "old_format", {**fields, "format": row.format}
    return None


def old_format_of(fmt: str) -> OldFormat | None:
    return next((row for row in old_formats() if row.format == fmt), None)


def old_probe_exit(line: str) -> OldFormat | None:
    """The row of a line an older kernel printed on a probe's way out with an error."""
    found = old_format_line(line)
    row = old_format_of(found[1]["format"]) if found is not None else None
    return row if row is not None and row.probe_exit else None
