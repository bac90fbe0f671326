"""The USB modems the kernel's mobile-network drivers list by vendor and product
(``resources/kernel_source/wwan_usb_ids.json``, generated from Debian's linux-source-6.1 and
6.12 by ``scripts/regen_wwan_ids.py``: the ID tables of option, qcserial and sierra under
drivers/usb/serial/ and of qmi_wwan and sierra_net under drivers/net/usb/). One dictionary
look-up per NIC."""

from __future__ import annotations

import functools
import json
import re


@functools.cache
def _table() -> dict[str, list[str]]:
    from sbctune.resources import resource_root

    try:
        path = resource_root().joinpath("kernel_source", "wwan_usb_ids.json")
        ids = json.loads(path.read_text(encoding="utf-8")).get("ids", {})
    except (OSError, ValueError, AttributeError):
        return {}
    return ids if isinstance(ids, dict) else {}


def wwan_drivers(ids: str | None) -> list[str]:
    """The modem drivers whose ID table lists USB IDs ``vvvv:pppp`` (none: not a known modem)."""
    found = _table().get(str(ids or "").lower())
    return [str(d) for d in found] if isinstance(found, list) else []


@functools.cache
def _serial_drivers() -> dict[str, dict[str, str]]:
    from sbctune.resources import resource_root

    try:
        path = resource_root().joinpath("kernel_source", "wwan_usb_ids.json")
        table = json.loads(path.read_text(encoding="utf-8")).get("serial_drivers", {})
    except (OSError, ValueError, AttributeError):
        return {}
    return table if isinstance(table, dict) else {}


def serial_modem_driver(name: str | None) -> str | None:
    """The modem driver module whose usb-serial ports go by this name ("option1": option, its
    struct usb_serial_driver's .driver.name; wwan_usb_ids.json "serial_drivers"), or None."""
    row = _serial_drivers().get(name or "")
    return str(row.get("module")) if isinstance(row, dict) and row.get("module") else None


# the kernel's WWAN drivers say so in their MODULE_DESCRIPTION: qmi_wwan "... (QMI) WWAN
# driver", sierra_net "USB-to-WWAN ...", cdc_mbim "... MBIM ..."; or live in drivers/net/wwan/
_WWAN_DRIVER = re.compile(r"\bWWAN\b|\bMBIM\b|\bQMI\b", re.I)


@functools.cache
def _usbnet_wwan() -> frozenset[str]:
    """usbnet drivers whose every driver_info sets FLAG_WWAN (usbnet names their interfaces
    "wwan%d"): resources/kernel_source/usbnet_wwan_drivers.json, scripts/regen_usbnet_wwan.py."""
    from sbctune.resources import resource_root

    try:
        path = resource_root().joinpath("kernel_source", "usbnet_wwan_drivers.json")
        drivers = json.loads(path.read_text(encoding="utf-8")).get("drivers", {})
    except (OSError, ValueError, AttributeError):
        return frozenset()
    return frozenset(str(d) for d in drivers) if isinstance(drivers, dict) else frozenset()


@functools.cache
def _rawip() -> frozenset[str]:
    """Drivers whose net_device is a raw-IP link (ARPHRD_RAWIP: a modem's data path, Qualcomm's
    IPA among them): resources/kernel_source/rawip_drivers.json, scripts/regen_rawip_drivers.py."""
    from sbctune.resources import resource_root

    try:
        path = resource_root().joinpath("kernel_source", "rawip_drivers.json")
        drivers = json.loads(path.read_text(encoding="utf-8")).get("drivers", {})
    except (OSError, ValueError, AttributeError):
        return frozenset()
    return frozenset(str(d) for d in drivers) if isinstance(drivers, dict) else frozenset()


def is_wwan_driver(name: object) -> bool:
    """A driver of the kernel for mobile-network modems (qmi_wwan, cdc_mbim, sierra_net,
    huawei_cdc_ncm, ipa ...): by its MODULE_DESCRIPTION, its place under drivers/net/wwan/, its
    usbnet driver_infos, all FLAG_WWAN, or its raw-IP net_device."""
    return isinstance(name, str) and _is_wwan_name(name)


# A function of the name and the shipped tables alone, asked for every driver fact of a NIC
# (nic_log._wwan_registered): the 100 000-line bench log asks 3 831 times about 140 names,
# each a driver look-up and a case-blind regex over its description.
@functools.lru_cache(maxsize=4096)
def _is_wwan_name(name: str) -> bool:
    from sbctune.catalog.kernel_drivers import load_kernel_drivers

    if name in _usbnet_wwan() or name in _rawip():
        return True
    known = load_kernel_drivers().get(name)
    return known is not None and bool(
        _WWAN_DRIVER.search(known.about) or known.file.startswith("drivers/net/wwan/")
    )
