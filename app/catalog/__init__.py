"""Knowledge of network chips, boards and buses, loaded from ``resources/catalog/`` with sources.

>>> from sbctune.catalog import load_catalog
>>> catalog = load_catalog()
>>> catalog.chip_by_usb_id("0b95:1790").name
'ASIX AX88179/AX88179A'
"""

from .catalog import Catalog, load_catalog, normalize_device_id
from .loader import CatalogError
from .model import (
    Board,
    BuiltinNic,
    Bus,
    Chip,
    Drivers,
    EthernetFraming,
    Expansion,
    Figure,
    Measurement,
    ModelExample,
    Note,
    PcieLink,
    Problem,
    Source,
)

__all__ = [
    "Board",
    "BuiltinNic",
    "Bus",
    "Catalog",
    "CatalogError",
    "Chip",
    "Drivers",
    "EthernetFraming",
    "Expansion",
    "Figure",
    "Measurement",
    "ModelExample",
    "Note",
    "PcieLink",
    "Problem",
    "Source",
    "load_catalog",
    "normalize_device_id",
]
