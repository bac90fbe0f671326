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
from sbctune.catalog.kernel_drivers import KernelDriver, load_kernel_drivers
from sbctune.catalog.model import Chip
from sbctune.catalog.pci_id_macros import id_macro

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


def _covered(model: str, family: set[str]) -> bool:
    """A model of the family, or a letter variant of one ("RTL8187B" of "RTL8187", "RTL8188EE"
    of "RTL8188E"): one name is the other with letters after it ("RTL8153" is no variant
    of "RTL815")."""
    return model in family or any(_variant(model, f) or _variant(f, model) for f in family)


def _variant(longer: str, shorter: str) -> bool:
    return len(shorter) >= 5 and longer.startswith(shorter) and longer[len(shorter) :].isalpha()


def other_chips(driver: str, named: str, own_ids: tuple[str, ...] = ()) -> list[str]:
    """The names of IDs the driver binds that name models none of which is in ``named`` (a
    chip's name and variants), sorted: the driver's other chips."""
    ids = load_ids()
    own = {i.lower() for i in own_ids}
    family = _models(named.replace("/", " "))
    others: set[str] = set()
    for bus, key in bound_ids(driver):
        if key in own:
            continue
        name = (ids.usb_devices if bus == "usb" else ids.pci_devices).get(key, "")
        models = _models(name)
        if models and not any(_covered(m, family) for m in models):
            if bus == "pci" and _kernel_names_family(driver, key, family):
                continue  # a rebrand: pci.ids's product name, the kernel's chip
            others.add(name)
    return sorted(others)


def _kernel_names_family(driver: str, key: str, family: set[str]) -> bool:
    """The driver's own ID table names this PCI ID by a model of the family: 8086:3101 is
    "Killer E3100X ..." in pci.ids, IGC_DEV_ID_I225_K2 in igc (catalog.pci_id_macros)."""
    known = load_kernel_drivers().get(driver.replace("-", "_"))
    if known is None:
        return False
    macro = id_macro(known.file, key.partition(":")[2])
    return any(_covered(m, family) for m in _models(macro.replace("_", " ")))


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
    named = " ".join((chip.name, *chip.variants))
    own = (*chip.usb_ids, *chip.pci_ids)
    return bool(bound_ids(driver)) and not other_chips(driver, named, own)


def names_one_chip(driver: object, name: str) -> bool:
    """A chip named by the driver's own description or name ("RTL8821AE" of rtl8821ae) is its
    one chip unless an ID the driver binds is named as another (rtl8821ae also binds the
    "RTL8812AE", dm9601 the "ADM8515", rtw_8822bu the "RTL8812BU")."""
    return isinstance(driver, str) and not other_chips(driver, name)


# A platform driver named for a chip family: letters, digits, then an "x" for each digit the
# family spans ("wl18xx_driver", "wcn36xx", "ag71xx", "smsc911x", "mt798x-wmac").
_FAMILY = re.compile(r"([a-z]{2,5}\d{1,4}x+)(?:[_-][a-z]+)?")


def family_by_platform_name(driver: object) -> tuple[str, str] | None:
    """(family, why) for a platform driver with no MODULE_DESCRIPTION that is named for its
    chip family (TI's wl18xx_driver, Qualcomm's wcn36xx, Atheros' ag71xx): a platform device
    has no IDs to name a model, and the driver binds that family's chips alone. The family is
    written as the name writes it, letters in capitals: "WL18xx", "AG71xx"."""
    known = load_kernel_drivers().get(driver)
    if known is None or known.about.strip() or known.buses != ("platform",):
        return None
    if (m := _FAMILY.fullmatch(known.name)) is None:
        return None
    family = re.sub(r"^[a-z]+", lambda w: w.group(0).upper(), m.group(1))
    return family, f"the {known.name} driver, named for the {family} family ({known.file})"


# A platform driver named for one chip: letters, 3-5 digits, then what part of it the driver
# drives ("mt7986-wmac", "mt7622-wmac", "bcm4908_enet"): mt76's soc.c registers its
# platform_driver under the name of the one SoC whose Wi-Fi it binds (of_match "mediatek,
# mt7986-wmac"); with no MODULE_DESCRIPTION the name is what names the chip.
_ONE_CHIP = re.compile(r"([a-z]{2,5}\d{3,5})(?:[_-][a-z]+)+")


def chip_by_platform_name(driver: object) -> tuple[str, str] | None:
    """(chip, why) for a platform-only driver with no description named for one chip: a
    platform device has no IDs, and such a driver binds that SoC's block alone. The chip is
    written in capitals: "MT7986"."""
    known = load_kernel_drivers().get(driver)
    if known is None or known.about.strip() or known.buses != ("platform",):
        return None
    if (m := _ONE_CHIP.fullmatch(known.name)) is None:
        return None
    chip = m.group(1).upper()
    return chip, f"the {known.name} driver, named for the {chip} ({known.file})"


_PLACEHOLDER = re.compile(r"\dx")


def _names_model(known: KernelDriver, model: str) -> bool:
    """The driver's own name or MODULE_DESCRIPTION names this model: enc28j60 is
    "microchip,enc28j60"'s, wilc1000_spi "microchip,wilc1000"'s, and qcaspi, whose description
    is "Qualcomm Atheros QCA7000 SPI Driver" (qca_spi.c), "qca,qca7000"'s."""
    word = re.compile(rf"(?<![a-z0-9]){re.escape(model.replace('-', '_'))}(?![a-z0-9])")
    said = (
        known.name.replace("-", "_").lower(),
        known.older_name_of.lower(),  # "WILC_SPI" (5.10's name) is wilc1000_spi
        known.about.replace("-", "_").lower(),
    )
    return any(word.search(text) for text in said)


def chip_by_one_compatible(driver: object) -> tuple[str, str] | None:
    """(chip, why) for an SPI driver whose one device-tree match is named for it (enc28j60's
    { .compatible = "microchip,enc28j60" }, qcaspi's "qca,qca7000" that its description names):
    an SPI device has no USB/PCI IDs, and a driver matching one model binds that chip alone,
    even when its probe fails. The chip is written in capitals: "ENC28J60"."""
    known = load_kernel_drivers().get(driver)
    if known is None or not known.spi or len(known.compatible) != 1:
        return None
    model = known.compatible[0].split(",", 1)[1]
    if not _names_model(known, model) or _PLACEHOLDER.search(model):
        return None  # "ti,tcan4x5x": a family's placeholder, not a model
    why = f'the {known.name} driver, whose one device-tree match is "{known.compatible[0]}"'
    return model.upper(), f"{why} ({known.file})"
