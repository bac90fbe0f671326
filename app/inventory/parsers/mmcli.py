"""ModemManager's ``mmcli -m N`` (``-m any``): a modem's block of ``Section | key: value`` lines,
read into the same records as ``lshw -C network`` (:class:`LshwNetwork`, source ``mmcli``).

mmcli prints each section's name left of a ``|`` column and its keys right-aligned to the
right of it (ModemManager cli/mmcli-output.c build_output_text(): ``key: value``, a multi-value
field such as ``ports`` continued on the next lines with nothing before the ``|`` and no key).
What makes a NIC of a block:

- ``ports:`` lists each port as ``NAME (TYPE)``; a port of type ``net`` is the modem's network
  interface (wwan0, wwan1, usb0), the others are control or AT ports (cdc-wdm0, ttyUSB2);
- ``device:`` is the modem's sysfs device: a USB device (``.../usb6/6-1``, ``.../2-1/2-1.1``:
  the kernel's port path) or a PCI function (``.../0000:08:00.0``, an MHI modem);
- ``drivers:`` names the drivers of the modem's ports: the network port's driver is the one the
  kernel's network-driver table knows (qmi_wwan, cdc_mbim beside option1's serial ports); for a
  PCI modem with one driver listed, that driver has the PCI function (mhi-pci-generic);
- ``model:`` and ``manufacturer:`` are the modem's own answers (RM520N-GL, Quectel).

Pasted blocks keep Markdown backticks and prompts before the first line; lines without a ``|``
are skipped. Bounded: at most MAX_MODEMS blocks, values cut at 300 characters."""

from __future__ import annotations

from dataclasses import dataclass, field

from .common import Parsed, finish, guarded, split_lines
from .lazy_pattern import later
from .lshw import LshwNetwork, LshwResult

MAX_MODEMS = 32
_KEY_VALUE = later(r"^\s*(?P<key>[a-z][a-z0-9 /-]{0,40}):\s?(?P<value>.*)$")
_PORT = later(r"^\s*(?P<name>[\w.:@-]{1,32})\s*\((?P<kind>[a-z]{1,12})\)\s*$")
_USB_PATH = later(r"^\d{1,3}-\d{1,3}(?:\.\d{1,3}){0,6}$")
_PCI_ADDRESS = later(r"^[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]$")


@dataclass
class _Modem:
    fields: dict[str, str] = field(default_factory=dict)
    last: str | None = None  # the key a continuation line belongs to


def parse_mmcli(text: str) -> Parsed[LshwResult]:
    return guarded("mmcli", _parse, text, LshwResult)


def _parse(text: str) -> Parsed[LshwResult]:
    modems: list[_Modem] = []
    read = 0
    for line in split_lines(text):
        left, bar, right = line.partition("|")
        if not bar:
            continue  # a rule (-----), a label, a prompt
        m = _KEY_VALUE.match(right)
        if m:
            key, value = m.group("key").strip(), m.group("value").strip()[:300]
            # a new modem: its General section's path, or a model after one was read
            if not modems or (key == "path" and "path" in modems[-1].fields):
                if len(modems) >= MAX_MODEMS:
                    break
                modems.append(_Modem())
            modem = modems[-1]
            modem.fields.setdefault(key, value)
            modem.last = key
            read += 1
        elif modems and not left.strip() and modems[-1].last == "ports" and right.strip():
            modem = modems[-1]  # the ports list wrapped onto the next line
            modem.fields["ports"] = (modem.fields["ports"] + " " + right.strip())[:600]
            read += 1
    res = LshwResult()
    for modem in modems:
        res.networks.extend(_nodes(modem))
    return res, finish("mmcli", text, read, 0)


def _net_ports(ports: str) -> list[str]:
    names = []
    for part in ports.split(","):
        if (m := _PORT.match(part)) and m.group("kind") == "net":
            names.append(m.group("name"))
    return names


def _bus_info(device: str) -> str | None:
    """The sysfs device path's last part: a USB port path or a PCI address."""
    leaf = device.rstrip("/").rsplit("/", 1)[-1].strip().lower()
    if _USB_PATH.match(leaf):
        bus, _, ports = leaf.partition("-")
        return f"usb@{int(bus)}:{ports}"
    if _PCI_ADDRESS.match(leaf):
        return f"pci@{leaf}"
    return None


def _driver(drivers: str, bus_info: str | None) -> str | None:
    from sbctune.catalog.kernel_drivers import load_kernel_drivers

    names = [d.strip() for d in drivers.split(",") if d.strip()]
    known = load_kernel_drivers()
    for name in names:
        if known.get(name) is not None:
            return name  # the network port's driver (qmi_wwan, cdc_mbim, cdc_ncm ...)
    if bus_info and bus_info.startswith("pci@") and len(names) == 1:
        return names[0]  # the PCI function's one driver (mhi-pci-generic)
    return None


def _nodes(modem: _Modem) -> list[LshwNetwork]:
    f = modem.fields
    bus_info = _bus_info(f.get("device") or f.get("physdev") or "")
    driver = _driver(f.get("drivers", ""), bus_info)
    vendor = f.get("manufacturer") or None
    nodes = []
    for name in _net_ports(f.get("ports", "")):
        node = LshwNetwork(node="network", source="mmcli", logical_name=name)
        node.bus_info = bus_info
        node.product = f.get("model") or None
        node.vendor = vendor if vendor and vendor.lower() != "generic" else None
        if driver:
            node.config["driver"] = driver
        nodes.append(node)
    return nodes
