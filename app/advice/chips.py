"""Which catalog chip a NIC is, where the inventory could not say but its driver can.

A driver alone names a chip only if every device the kernel binds to it is that kind of chip:
the premise comes from the kernel's own ID table (resources/ids/drivers.json, modules.alias),
each ID named by the catalog or by usb.ids, never from the catalog's few chips of that driver
(r8152 binds the USB 2.0 RTL8152 too: its chip is read from a version register,
drivers/net/usb/r8152.c rtl8152_get_version, not from the ID). What the NIC itself shows (its
IDs, USB speed, link, supported modes, name) narrows the IDs; an ID nothing names keeps the
question open unless the kernel's speed table (chips_by_speed.json) leaves only known chips at
the NIC's link. Still open: no chip is named and no advice is built on one."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace

from sbctune.catalog import Catalog, Chip
from sbctune.catalog.driver_chips import bound_ids
from sbctune.catalog.ids import load_ids
from sbctune.catalog.kernel_drivers import chip_by_speed
from sbctune.inventory.model import Nic

_USB2_MAX = 480  # Mbit/s: a high-speed enumeration; above it the device is SuperSpeed


@dataclass(frozen=True)
class Bound:
    """One ID the kernel binds to the driver: the catalog chip it is (None: not known), and
    its line rate when the catalog or its usb.ids name says it."""

    ids: str
    chip: Chip | None
    rate_mbps: int | None


def _rate_by_name(name: str | None) -> int | None:
    """The line rate a product name states ("RTL8152 Fast Ethernet Adapter": 100)."""
    text = name or ""
    if re.search(r"\b(?:2\.5\s?G|2500)", text, re.IGNORECASE):
        return 2500
    if re.search(r"\b(?:gigabit|gige|gbe|10/100/1000|1000)\b", text, re.IGNORECASE):
        return 1000
    if re.search(r"\b(?:fast ethernet|10/100)\b", text, re.IGNORECASE):
        return 100
    return None


def _named_chip(catalog: Catalog, name: str | None) -> Chip | None:
    """The catalog chip a usb.ids name's model word names ("... [Realtek RTL8153B]")."""
    for word in re.findall(r"\b[A-Z]*[0-9]{3,}[A-Z0-9]*\b", (name or "").upper()):
        if (chip := catalog.find_chip(word)) is not None and chip.is_nic:
            return chip
    return None


def bound_by_driver(
    catalog: Catalog, driver: str, table: Iterable[str] | None = None
) -> list[Bound]:
    """Every USB ID the kernel binds to this driver (both kernels' tables:
    catalog.driver_chips.bound_ids, unless `table` is given), named as far as is known."""
    names = load_ids().usb_devices
    if table is None:
        table = [key for bus, key in bound_ids(driver) if bus == "usb"]
    found = []
    for ids in sorted(table):
        name = names.get(ids)
        chip = catalog.chip_by_usb_id(ids) or _named_chip(catalog, name)
        rate = chip.line_rate_mbps if chip is not None else _rate_by_name(name)
        found.append(Bound(ids, chip, rate))
    return found


def _fits(bound: Bound, nic: Nic) -> bool:
    """Whether this ID's chip can be the NIC, by what the NIC shows."""
    chip, rate = bound.chip, bound.rate_mbps
    shown = [s for s in (nic.link_speed_mbps, nic.linked_at_mbps) if s]
    if rate is not None and any(s > rate for s in shown):
        return False  # a 1000 Mbit/s link is no Fast Ethernet chip
    # A name caps the rate only when it says Fast Ethernet: "gigabit-capable" in a family's
    # name (chips_by_speed) does not rule out its 2.5GbE chips linked at 1 Gbit/s.
    by_name = _rate_by_name(nic.chip) if _rate_by_name(nic.chip) == 100 else None
    ceiling = nic.max_link_speed_mbps or by_name
    if ceiling is not None and rate is not None and rate > ceiling:
        return False  # a 100 Mbit/s-only NIC ("10baseT/100baseT" modes) is no gigabit chip
    superspeed = (nic.usb_speed_mbps or 0) > _USB2_MAX
    generation = (chip.usb_generation or "") if chip is not None else ""
    return not (superspeed and generation.startswith("2"))


def _by_speed_family(catalog: Catalog, nic: Nic) -> list[Bound] | None:
    """The chips the kernel's speed table leaves for the driver at the NIC's link (r8152 at
    1000 Mbit/s: RTL8153/RTL8156, whatever its IDs; chips_by_speed.json), each named by the
    catalog; None when there is no such row or a chip of it is one the catalog does not know."""
    link = max(filter(None, (nic.link_speed_mbps, nic.linked_at_mbps)), default=None)
    family = chip_by_speed(nic.driver, link)
    if family is None:
        return None
    found = []
    for model in sorted(set(re.findall(r"\b[A-Z]{2,4}[0-9]{3,}[A-Z0-9]*\b", family))):
        chip = catalog.find_chip(model)
        if chip is None or nic.driver not in chip.drivers.in_tree:
            return None
        found.append(Bound(model, chip, chip.line_rate_mbps))
    return found or None


def usb3_only_chips(catalog: Catalog, nic: Nic, table: Iterable[str] | None = None) -> list[Chip]:
    """The chips a USB NIC can be by its driver, when every ID the kernel binds to the driver
    that the NIC's own lines leave possible is a known USB 3 add-in chip (slowest first). Empty
    when any is unknown, USB 2.0 or built-in: then its driver says nothing about USB 3."""
    if nic.bus != "usb" or not nic.driver:
        return []
    bound = bound_by_driver(catalog, nic.driver, table)
    if nic.ids:
        bound = [b for b in bound if b.ids == nic.ids.strip().lower()]
    left = [b for b in bound if _fits(b, nic)]
    if any(b.chip is None for b in left):
        # An ID nothing names may be any of the driver's chips, unless its link leaves few.
        left = [b for b in _by_speed_family(catalog, nic) or [] if _fits(b, nic)]
    chips = [b.chip for b in left if b.chip is not None]
    if not left or len(chips) < len(left):
        return []  # still open: name none
    if not all((c.usb_generation or "").startswith("3") and not c.builtin for c in chips):
        return []
    distinct = {c.id: c for c in chips}
    return sorted(distinct.values(), key=lambda c: (c.line_rate_mbps or 0, c.id))


def chips_said(chips: list[Chip]) -> str:
    """How to name what the driver leaves: the chip, or "one of ..." when several remain."""
    names = [c.name for c in chips]
    if len(names) == 1:
        return names[0]
    return f"adapter (one of {', '.join(names[:-1])} or {names[-1]})"


def chip_of(catalog: Catalog, nic: Nic) -> tuple[Chip | None, bool]:
    """The NIC's chip and whether it was identified (False: inferred from a USB 3-only driver)."""
    if nic.catalog_id:
        chip = catalog.chip(nic.catalog_id)
        if chip is not None:
            return chip, True
    chips = usb3_only_chips(catalog, nic)
    if len(chips) == 1:
        return chips[0], False
    if chips and nic.usb_speed_mbps is not None and nic.usb_speed_mbps <= _USB2_MAX:
        # Several USB 3 chips at USB 2.0: what holds for each (a USB 3 port), said as "one of",
        # with the slowest's figures; at SuperSpeed no one chip's figures are this NIC's.
        return replace(chips[0], name=chips_said(chips)), False
    return None, False


def speed_family(catalog: Catalog, nic: Nic) -> tuple[str, list[Chip]] | None:
    """The NIC's chip when Inspect named it as the family its driver and link speed leave
    (r8169 at 2.5 Gbit/s: "RTL8125/RTL8126 ..."), by the same table the inventory reads
    (catalog.kernel_drivers.chip_by_speed, from inventory.nic_chip.chip_otherwise), with the
    catalog's chips of that family whose line rate is this link (whose figures apply here)."""
    if nic.catalog_id or not nic.chip or not nic.driver or not nic.link_speed_mbps:
        return None
    family = chip_by_speed(nic.driver, nic.link_speed_mbps)
    if family is None or nic.chip != family:
        return None  # the chip came from something else: not this rule's to speak for
    chips = [
        c
        for c in catalog.chips_by_driver(nic.driver)
        if c.is_nic and nic.driver in c.drivers.in_tree and c.line_rate_mbps == nic.link_speed_mbps
    ]
    return (family, chips) if chips else None
