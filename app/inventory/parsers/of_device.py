"""A device-tree device as sysfs shows it: ``/sys/class/net/IFACE/device/modalias``, its
``uevent`` and ``of_node/compatible``.

- modalias of a device made from a device-tree node: ``of:N<name>T<type>C<compatible>...``
  (drivers/of/device.c of_device_get_modalias() in 6.1, drivers/of/module.c of_modalias() in
  6.12: ``"of:N%pOFn%c%s"`` with 'T' and the node's device_type, ``(null)`` when it has none,
  then ``"C%s"`` per compatible in the node's order, spaces made '_');
- uevent: ``DRIVER=``, ``OF_NAME=``, ``OF_COMPATIBLE_<n>=``, ``MODALIAS=`` lines
  (drivers/of/device.c of_device_uevent());
- of_node/compatible: the property itself, strings NUL-separated (a terminal shows them run
  together; one per line when the NULs were made newlines).

The same file of a device on another bus holds its IDs instead: ``pci:v%08Xd%08X...``
(drivers/pci/pci-sysfs.c modalias_show()), ``usb:v%04Xp%04X...`` (drivers/usb/core/sysfs.c
modalias_show(), usb_if_uevent()), ``sdio:c%02Xv%04Xd%04X`` (drivers/mmc/core/sdio_bus.c
sdio_bus_uevent()): read as the bus and "vendor:device" IDs.

A compatible holding a capital "C" cannot be told from the separator in a modalias (the kernel
does not escape it); such a node's list is split there (a devicetree compatible is
conventionally lowercase, "manufacturer,model": devicetree specification 2.3.1).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .common import Parsed, ParseWarning, guarded, split_lines

_MAX_COMPATIBLES = 32
_MAX_VALUE = 128
# what a node name, a device_type and a compatible hold (printable, no blanks: spaces are '_')
_VALUE = re.compile(r"^[\x21-\x7e]{1,128}$")
_MODALIAS = re.compile(r"(?:MODALIAS=)?of:N(\S{0,2000})$")  # matched at a line's start only
_ID_MODALIAS = re.compile(
    r"(?:MODALIAS=)?(?:(pci):v0000([0-9A-F]{4})d0000([0-9A-F]{4})"
    r"|(usb):v([0-9A-F]{4})p([0-9A-F]{4})|(sdio):c[0-9A-F]{2}v([0-9A-F]{4})d([0-9A-F]{4}))"
)
_UEVENT = re.compile(r"^(DRIVER|OF_NAME|OF_TYPE|OF_COMPATIBLE_\d{1,2})=(\S{1,128})$")


@dataclass
class OfDevice:
    node: str | None = None  # the node's name ("ethernet")
    device_type: str | None = None  # None for "(null)"
    compatibles: list[str] = field(default_factory=list)  # the node's order
    driver: str | None = None  # uevent's DRIVER= (the bound driver)
    bus: str | None = None  # "pci", "usb", "sdio": a modalias of another bus than the OF one
    ids: str | None = None  # its "vvvv:dddd", lower case


def parse_modalias(text: str) -> tuple[str, str | None, list[str]] | None:
    """(node name, device_type, compatibles) of an ``of:`` modalias, or None."""
    line = text.strip()
    if not line.startswith("of:N") or len(line) > 4096:
        return None
    name, sep, rest = line[4:].partition("T")
    if not sep:
        return None
    dtype, _, compat = rest.partition("C")
    compatibles = [c for c in compat.split("C") if c][:_MAX_COMPATIBLES] if compat else []
    if not all(_VALUE.match(c) for c in compatibles):
        return None
    return name, None if dtype in ("(null)", "") else dtype, compatibles


def parse_of_device(text: str) -> Parsed[OfDevice]:
    """A modalias, a uevent or a compatible property of a device-tree device."""
    return guarded("device modalias", _parse, text, OfDevice)


def _parse(text: str) -> Parsed[OfDevice]:
    found = OfDevice()
    listed: dict[int, str] = {}
    plain: list[str] = []
    for raw in split_lines(text.replace("\x00", "\n"))[:200]:
        line = raw.strip()
        if not line or len(line) > 4096:
            continue
        if m := _MODALIAS.match(line):
            read = parse_modalias("of:N" + m.group(1))
            if read is not None and not found.compatibles:
                found.node, found.device_type, found.compatibles = read[0] or None, *read[1:]
            continue
        if (m := _ID_MODALIAS.match(line)) and found.ids is None:
            groups = [g for g in m.groups() if g]
            found.bus, found.ids = groups[0], f"{groups[1]}:{groups[2]}".lower()
            continue
        if m := _UEVENT.match(line):
            key, value = m.groups()
            if key == "DRIVER":
                found.driver = value
            elif key == "OF_NAME":
                found.node = found.node or value
            elif key.startswith("OF_COMPATIBLE_"):
                listed[int(key.rsplit("_", 1)[1])] = value
            continue
        if "=" not in line and _VALUE.match(line) and "," in line:
            plain.append(line)  # of_node/compatible, one string a line
    if not found.compatibles:
        found.compatibles = [listed[i] for i in sorted(listed)][:_MAX_COMPATIBLES] or plain[
            :_MAX_COMPATIBLES
        ]
    if not found.compatibles and found.driver is None and found.ids is None:
        return found, [ParseWarning("device modalias", "no device-tree modalias or compatible")]
    return found, []
