"""May a chip be named from its driver alone? Only when the driver binds one chip family.

A line that shows only a driver ("ixgbe 0000:01:00.0 eth1: ...") does not say which of the
driver's chips it is: ixgbe binds the 82598, 82599, X540, X550, X552 and X553, mlx5_core the
ConnectX-4 to -8 and the BlueFields, smsc95xx the LAN9500 as well as the Pi's LAN9514. The rule
reads the generated tables, not a hand list: every USB/PCI ID the driver's tables list
(resources/ids/drivers.json, the kernels' modules.alias; resources/kernel_source/drivers.json,
the 6.1 and 6.12 source), named by pci.ids/usb.ids (resources/ids/). A catalog chip is the
driver's one family when every ID it binds is the chip's own or has a name that names none
but the chip's models; an ID whose name names another model ("LAN9500/LAN9500i") is another
chip. IDs without a name, or named only as a product ("Gigabit Ethernet Adapter", "DUB-1312"),
say nothing either way.
"""

from __future__ import annotations

import functools
import re

from sbctune.catalog.ids import load_ids
from sbctune.catalog.kernel_drivers import load_kernel_drivers
from sbctune.catalog.model import Chip

# A chip's model number in a pci.ids/usb.ids name: "82599ES", "X540", "LAN9500A", "MT27700",
# "ConnectX-5", also after a slash ("LAN9500/LAN9500i"); not a product code attached by a
# hyphen ("DUB-1312", "LN-028") nor a speed ("10/100/1000", "10GbE").
_MODEL = re.compile(
    r"(?<![\w-])[A-Za-z]{1,4}\d{3,}[A-Za-z0-9]*(?!\w)"
    r"|(?<![\w/-])\d{4,}[A-Za-z0-9]*(?!\w)"
    r"|(?<![\w-])ConnectX-\d+(?!\w)"
)


def _models(text: str) -> set[str]:
    return {m.upper() for m in _MODEL.findall(text)}


@functools.cache
def bound_ids(driver: str) -> tuple[tuple[str, str], ...]:
    """(bus, "vvvv:dddd") of every USB/PCI ID the driver binds, in any kernel the tables hold."""
    wanted = driver.replace("-", "_")
    found = set(load_kernel_drivers().ids_of(wanted))
    for bus, table in load_ids().drivers.items():
        if bus in ("pci", "usb"):
            found.update((bus, key) for key, mods in table.items() if wanted in mods)
    return tuple(sorted((bus, key) for bus, key in found if bus in ("pci", "usb")))


def other_chips(driver: str, chip: Chip) -> list[str]:
    """The names of IDs the driver binds that name models other than the chip's, sorted."""
    ids = load_ids()
    own = {i.lower() for i in (*chip.usb_ids, *chip.pci_ids)}
    family = _models(" ".join((chip.name, *chip.variants)).replace("/", " "))
    others: set[str] = set()
    for bus, key in bound_ids(driver):
        if key in own:
            continue
        name = (ids.usb_devices if bus == "usb" else ids.pci_devices).get(key, "")
        models = _models(name)
        if models and not models & family:
            others.add(name)
    return sorted(others)


def known_in_tree(driver: str) -> bool:
    """A driver of the kernel's tables (not a vendor's out-of-tree one such as r8125)."""
    return load_ids().module(driver) is not None or load_kernel_drivers().get(driver) is not None


def one_family(driver: str, chip: Chip) -> bool:
    """The driver binds no chip but this one's family, by the generated tables. A kernel driver
    that lists no IDs (mlx4_en rides on mlx4_core's device) proves nothing: False. A vendor's
    out-of-tree driver the catalog lists for its chip (r8125) is that chip's own: True."""
    if load_ids().is_generic_usb(driver):
        return False  # cdc_ncm, cdc_ether ...: bind by interface class, any maker's chip
    if not known_in_tree(driver):
        return True
    return bool(bound_ids(driver)) and not other_chips(driver, chip)
