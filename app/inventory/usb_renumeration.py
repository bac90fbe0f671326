"""Which of a USB device's resets, disconnects and re-enumerations are not faults.

- A reset its driver's own probe does (usb_reset_device() in the probe: r8152, mt7921u;
  resources/kernel_source/usb_probe_resets.json, the ``probed_by`` facts) is the driver's doing.
- A device that enumerated with IDs usb_modeswitch switches (a modem or dongle in its
  "driver CD" storage mode, resources/modeswitch/) leaves the bus when it is switched: its
  next disconnect and the enumeration after it are the switch (the device comes back with its
  network IDs), not a lost device. A second switch-and-return is counted again.

Each fact is kept by its order in the log; one pass over the device's facts.
"""

from __future__ import annotations

from sbctune.catalog.modeswitch import storage_mode
from sbctune.inventory.graph import Device


def benign_orders(device: Device) -> set[int]:
    """The orders of ``usb_reset``, ``usb_disconnect`` and ``enumeration`` facts that are no
    fault of the device, its cable or its port."""
    benign = {f.order for f in device.all("probed_by")}
    ids = sorted((f for f in device.all("ids") if f.source == "dmesg"), key=lambda f: f.order)
    switched = [f.order for f in ids if storage_mode(f.value) is not None]
    if not switched:
        return benign
    gone = sorted(device.all("usb_disconnect"), key=lambda f: f.order)
    back = sorted(device.all("enumeration"), key=lambda f: f.order)
    for start in switched:
        leave = next((f for f in gone if f.order > start), None)
        if leave is None:
            continue
        benign.add(leave.order)
        again = next((f for f in back if f.order > leave.order), None)
        if again is not None:
            benign.add(again.order)
    return benign
