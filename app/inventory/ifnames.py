"""What an interface's own name says, by the schemes that made it.

systemd-udevd's predictable names (src/udev/udev-builtin-net_id.c): a two-letter kind
(``en`` Ethernet, ``wl`` Wi-Fi, ``ww`` WWAN), then the path: ``[P<domain>]p<bus>s<slot>
[f<function>][d<dev_port>]`` for a PCI device (``names_pci``), the same followed by
``u<port>[u<port>...][c<config>][i<interface>]`` for a USB device below that PCI host
(``names_usb``: the port chain ``2-2.4`` with each ``.`` replaced by ``u``, so a device behind a
hub is ``…u2u4``, as udevadm shows ``1-1.3:1.0/net/wlp1s0u1u3``) and, for a USB host that
is no PCI device (an SoC's: the naming scheme's NAMING_USB_HOST, "use the USB specifier as
is"), the USB part alone (``enu1u1``: a Raspberry Pi 3's Ethernet at port 1-1.1), ``d<index>`` for a
device-tree alias (``names_devicetree``, systemd 251+: ``end0``). ``x<MAC>`` names
(``enx…``/``wlx…``) are given, by default, to USB devices alone (``usb_by_mac_name``)."""

from __future__ import annotations

import functools
import json
import re

_KIND = r"(en|wl|ww)"
_PCI = r"(?:P\d+)?p\d+s\d+(?:f\d+)?(?:n\S+)?(?:d\d+)?"
_USB_NAME = re.compile(rf"^{_KIND}(?:{_PCI})?u\d+(?:[.u]\d+)*(?:c\d+)?(?:i\d+)?$")
_PCI_NAME = re.compile(rf"^{_KIND}{_PCI}$")
_DT_NAME = re.compile(rf"^{_KIND}d\d+$")
# names_pci()'s other two names are PCI's too: dev_pci_onboard()'s "o<index>" (the firmware's
# on-board index, ACPI _DSM or SMBIOS type 41, read for a PCI device only: ``eno1``) and
# dev_pci_slot()'s hotplug-slot name "s<slot>[f<function>][n<port_name>|d<dev_port>]" (PCI
# hotplug slots: VMware's ``ens224``, a VM's ``ens3``), each with the optional P<domain>
_PCI_INDEX_NAME = re.compile(rf"^{_KIND}(?:P\d+)?[os]\d+(?:f\d+)?(?:n\S+|d\d+)?$")


# dev_pci_onboard()'s name alone: the firmware lists the device as on-board (SMBIOS type 41
# "Onboard Devices Extended Information", or ACPI _DSM's index); a card in a slot gets none
_ONBOARD_NAME = re.compile(rf"^{_KIND}(?:P\d+)?o\d+(?:n\S+|d\d+)?$")


def onboard_name(name: str | None) -> bool:
    """``eno1``/``eno2np1``: udev named the device by the firmware's on-board index."""
    return bool(_ONBOARD_NAME.match(name or ""))


def bus_from_name(name: str | None) -> str | None:
    """``enp1s0``/``eno1``/``ens224`` → ``pci``, ``enp0s20f0u1``/``enu1u1`` → ``usb``,
    ``end0`` → ``platform``; else None."""
    text = name or ""
    if _USB_NAME.match(text):
        return "usb"
    if _PCI_NAME.match(text) or _PCI_INDEX_NAME.match(text):
        return "pci"
    if _DT_NAME.match(text):
        return "platform"
    return None


# systemd's rules.d/73-usb-net-by-mac.rules renames a net device "directly or indirectly on USB"
# whose MAC is universally administered (ATTR{address}=="?[014589cd]:*") to net_id's
# ID_NET_NAME_MAC, "<kind>x<MAC>"; the default 99-default.link's NamePolicy has no "mac" (the MAC
# name is every device's altname there, not its name). An image that sets NamePolicy=mac names
# others so too (a Yocto Pi's SDIO brcmfmac as wlxb827eb…): bus_of asks this last.
_MAC_NAME = re.compile(r"^(?:en|wl|ww)x[0-9a-f][014589cd][0-9a-f]{10}$")


def usb_by_mac_name(name: str | None) -> bool:
    """``enxbc8385f8358d`` as an interface's own name: udev's default rules gave it to a USB
    device (``enx02a159562cc2`` as an altname says nothing)."""
    return bool(_MAC_NAME.match(name or ""))


def wireless_from_name(name: str | None) -> bool:
    """``wl…`` names are Wi-Fi interfaces (systemd's kind prefix, and the kernel's ``wlan%d``);
    so are the names only Wi-Fi drivers give their interfaces (mwifiex's ``mlan%d``, libertas'
    ``msh%d``: kernel_source/wifi_ifname_templates.json, scripts/regen_wifi_ifnames.py)."""
    text = name or ""
    # "wl<digit>": the radios of router firmwares (Broadcom's out-of-tree wl driver, the
    # vendor builds on Xiaomi routers: wl0, wl1); no wired driver or naming scheme gives it
    if re.match(r"^(wl[a-z]|wlan|wl\d)", text):
        return True
    m = re.match(r"^([a-z]{2,8})\d{1,3}$", text)
    return m is not None and m.group(1) in _wifi_templates()


@functools.cache
def _wifi_templates() -> frozenset[str]:
    from sbctune.resources import resource_root

    try:
        path = resource_root().joinpath("kernel_source", "wifi_ifname_templates.json")
        found = json.loads(path.read_text(encoding="utf-8")).get("templates", {})
    except (OSError, ValueError, AttributeError):
        return frozenset()
    return frozenset(str(k) for k in found) if isinstance(found, dict) else frozenset()


_PCI_PATH = re.compile(rf"^{_KIND}(?:P(\d{{1,5}}))?p(\d{{1,3}})s(\d{{1,2}})(?:f(\d))?$")


def pci_address_from_name(name: str | None) -> str | None:
    """The PCI address a path name spells (names_pci(): ``P%u`` domain when not 0, ``p%us%u``
    bus and device, ``f%u`` function; decimal): ``enP1p44s0f3`` → ``0001:2c:00.3``,
    ``enp130s0f0`` → ``0000:82:00.0``. Names with a ``d<dev_port>``/``n<port name>`` suffix
    (one PCI function, several ports) and USB names (their PCI part is the host's) give None."""
    m = _PCI_PATH.match(name or "")
    if m is None:
        return None
    domain, bus, dev, fn = (int(g) if g else 0 for g in m.group(2, 3, 4, 5))
    if domain > 0xFFFF or bus > 0xFF or dev > 0x1F or fn > 7:
        return None
    return f"{domain:04x}:{bus:02x}:{dev:02x}.{fn}"
