"""The driver that asked for a device's firmware, when no line names the device's driver.

The firmware loader prints "Direct firmware load for %s failed with error %d" on the device the
driver passed to request_firmware() (drivers/base/firmware_loader/main.c _request_firmware(),
6.1 and 6.12), and a driver asks for the firmware of a device it is probing or bound to:
mwifiex's usb.c mwifiex_usb_probe() -> mwifiex_add_card() -> request_firmware_nowait(...,
adapter->fw_name, adapter->dev, ...) on the USB device ("usb 1-1.2: Direct firmware load for
mrvl/usbusb8997_combo_v4.bin ..."). So the one driver of the device's bus that declares that
file (MODULE_FIRMWARE, resources/kernel_source/drivers.json "firmware") is the device's driver,
unless it said it gave up (a probe failure: refused_by): a missing file is no unbinding.
"""

from __future__ import annotations

from sbctune.catalog.kernel_drivers import load_kernel_drivers
from sbctune.inventory.graph import Device


def firmware_requester(device: Device, bus: str | None) -> str | None:
    """The driver whose firmware file the device asked for, if exactly one driver on the
    device's bus declares it and none refused the device."""
    if bus is None or device.value("refused_by"):
        return None
    wanted = device.value("firmware_wanted")
    on_bus = {d.name for d in load_kernel_drivers().for_firmware(wanted) if bus in d.buses}
    return on_bus.pop() if len(on_bus) == 1 else None
