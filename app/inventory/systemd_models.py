"""A NIC named by systemd's device unit: in a journal or a console, "systemd[1]: Found device
MT27710 Family [ConnectX-4 Lx]." is a device unit's "Found device %s." (systemd src/core/device.c,
the unit type's finished-start-job status message), its description udev's ID_MODEL_FROM_DATABASE
(device_update_description()): pci.ids' device name, without the vendor. A PCI NIC whose driver
is known and whose chip nothing else names is that model when the name is one pci.ids entry, its
driver's modules.alias binds those IDs, and no other such model was found (two ports of one card
print the same name twice)."""

from __future__ import annotations

from sbctune.catalog.ids import IdDatabase
from sbctune.inventory.model import Inventory

_MARK = "systemd[1]: Found device "
_MAX_UNITS = 200  # a journal's device units; more is no paste of one machine's boot


def found_models(text: str) -> dict[str, str]:
    """model -> the line that names it (device paths, "/sys/...", "/dev/...", are no models)."""
    models: dict[str, str] = {}
    at = text.find(_MARK)
    while at != -1 and len(models) < _MAX_UNITS:
        end = text.find("\n", at)
        line = text[at : end if end != -1 else len(text)][:300]
        name = line[len(_MARK) :].strip().removesuffix(".")
        if name and not name.startswith("/"):
            models.setdefault(name, line)
        at = text.find(_MARK, at + len(_MARK))
    return models


def _module(name: str | None) -> str:
    return (name or "").replace("-", "_")


def name_by_device_units(inventory: Inventory, text: str, ids: IdDatabase) -> None:
    models = found_models(text) if _MARK in text else {}
    if not models:
        return
    by_ids = {i: m for m in models if (i := ids.ids_by_device_name("pci", m))}
    for nic in inventory.nics:
        if nic.chip or nic.ids or nic.bus != "pci" or not nic.driver:
            continue
        bound = [
            i
            for i in by_ids
            if _module(nic.driver) in {_module(d) for d in ids.drivers_for("pci", i)}
        ]
        if len({by_ids[i] for i in bound}) == 1:
            nic.chip = ids.name("pci", bound[0]) or by_ids[bound[0]]
            nic.chip_family = None  # the family stood in for the chip nothing had named
            nic.evidence.append(f"dmesg: {models[by_ids[bound[0]]]}")
