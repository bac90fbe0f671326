"""``lspci -t`` (``-tv``, ``-tvnn``): the bus tree, each device at the place of its bus.

pciutils' ls-tree.c draws it column by column: show_tree_bridge() prints a root bus as
``-[DDDD:BB]-`` (``+-[DDDD:BB]-`` and ``\\-[DDDD:BB]-`` for several), show_tree_bus() a bus's
devices as ``--`` (one) or ``+-`` ... ``\\-`` (several), show_tree_dev() a device as ``%02x.%x``,
a bridge's secondary bus as ``-[%02x]-`` (``-[%02x-%02x]-`` with its subordinates), then
show_tree_bridge()'s ``-`` and that bus's devices, and with -v the device's pci.ids name after
two spaces (-nn adds ``[vvvv:dddd]``). print_it() then blanks the line for the next one,
keeping each ``+`` and ``|`` as ``|``: a continuation line's ``+-`` or ``\\-`` stands in the
column of the bus it belongs to. No class and no driver is printed: a device is known by its
address and its name (or IDs)."""

from __future__ import annotations

from .common import Parsed, finish, guarded, split_lines
from .lazy_pattern import later
from .lspci import LspciResult, PciDevice

_ROOT = later(r"[+\\]?-\[([0-9a-fA-F]{4,8}):([0-9a-fA-F]{2})\]-")
_DEVICE = later(r"([0-9a-fA-F]{2})\.([0-7])")
_BRIDGE = later(r"-\[([0-9a-fA-F]{2})(?:-[0-9a-fA-F]{2})?\]-")
_IDS_END = later(r"\s*\[([0-9a-fA-F]{4}):([0-9a-fA-F]{4})\]$")
_IDS_ONLY = later(r"^([0-9a-fA-F]{4}):([0-9a-fA-F]{4})$")
_MAX_LINE = 400  # ls-tree.c's line buffer is 256 characters; a longer line is not its


def parse_lspci_tree(text: str) -> Parsed[LspciResult]:
    return guarded("lspci -t", _parse, text, LspciResult)


def _parse(text: str) -> Parsed[LspciResult]:
    result = LspciResult()
    bus_at: dict[int, tuple[str, str]] = {}  # column of a bus's "+-"/"\-"/"--" -> its bus
    unreadable = 0
    for line in split_lines(text):
        devices = _read_line(line, bus_at) if len(line) <= _MAX_LINE else None
        if devices is None:
            unreadable += line.strip() != ""
            continue
        result.devices += devices
    found = len(result.devices)
    return result, finish("lspci -t", text, found, 0 if found else unreadable)


def _read_line(line: str, bus_at: dict[int, tuple[str, str]]) -> list[PciDevice] | None:
    """The devices one drawn line adds, or None for a line that is no part of a tree."""
    pos = len(line) - len(line.lstrip(" |"))
    bus: tuple[str, str] | None = None
    if (root := _ROOT.match(line, pos)) is not None:
        bus, pos = (root.group(1).lower(), root.group(2).lower()), root.end()
    elif line[pos : pos + 2] in ("+-", "\\-") and pos in bus_at:
        bus = bus_at[pos]
    if bus is None:
        return None
    devices: list[PciDevice] = []
    while pos < len(line):
        if line[pos : pos + 2] not in ("+-", "\\-", "--"):
            break
        bus_at[pos] = bus
        device = _DEVICE.match(line, pos + 2)
        if device is None:
            break
        found = PciDevice(
            slot=f"{bus[0]}:{bus[1]}:{device.group(1).lower()}.{device.group(2)}",
            domain=bus[0], bus=bus[1], device=device.group(1).lower(),
            function=int(device.group(2)),
        )  # fmt: skip
        devices.append(found)
        pos = device.end()
        if (bridge := _BRIDGE.match(line, pos)) is not None:
            # show_tree_bridge()'s own "-" before its bus's "--", "+-" or "\-"
            bus, pos = (bus[0], bridge.group(1).lower()), bridge.end() + 1
            continue
        _name(found, line[pos:])
        break
    return devices


def _name(device: PciDevice, rest: str) -> None:
    """-v's "  <vendor> <device>", -nn's "[vvvv:dddd]" at its end, -n's "vvvv:dddd" alone."""
    name = rest.strip()
    if not name:
        return
    if (ids := _IDS_ONLY.match(name)) is not None:  # -n: the IDs alone
        device.vendor_id, device.device_id = ids.group(1).lower(), ids.group(2).lower()
        return
    if (ids := _IDS_END.search(name)) is not None:  # -nn: the name, then its IDs
        device.vendor_id, device.device_id = ids.group(1).lower(), ids.group(2).lower()
        name = name[: ids.start()].strip()
    if name:
        device.description = name
