"""A duplex that the NIC's driver never reports (audit 22 row 1).

``__ethtool_get_link_ksettings`` (net/ethtool/ioctl.c) zeroes the settings before the driver's
get_link_ksettings fills them, and ``ethtool IFACE`` and /sys/class/net/IFACE/duplex both read
them from there. A driver whose get_link_ksettings writes no duplex (cdc_ncm's and cdc_ether's
``usbnet_get_link_ksettings_internal``: the speed only) therefore shows DUPLEX_HALF (0),
"Duplex: Half", on every link: the two OpenWrt reports on a Pi 4 (openwrt/openwrt issues 14731
and 23085, an RTL8156B and an AX88179A on cdc_ncm) measured full-duplex rates beside it.

Which functions write none is the table's ``_kernel`` fact ``ksettings_without_duplex`` (cited
to the function and checked against both series by tests/test_driver_caps_source.py); which
function a driver uses is the table's generated ``ops``. Nothing here names a driver.
"""

from __future__ import annotations

from typing import Any

from sbctune.tuning import driver_caps

FACT = "ksettings_without_duplex"


def unreported_duplex(driver: str | None, kernel: str | None) -> str | None:
    """The "file: function" of the driver's get_link_ksettings where, in every series the running
    kernel may be (both where it does not say), it leaves the duplex as zeroed; else None."""
    if not driver:
        return None
    found = driver_caps.kernel_fact(FACT, kernel)
    if found is None:
        return None
    functions, cite = found
    data: dict[str, Any] = driver_caps.table()
    entry = data["drivers"].get(driver_caps.seen_as().get(driver, driver)) or {}
    series = [s for s in driver_caps.series_of(kernel) if s in entry]
    used = {str((entry[s].get("ops") or {}).get("get_link_ksettings")) for s in series}
    if not series or not used <= set(functions):
        return None
    return cite
