"""The catalog's USB generation and line rate of every chip, read against the kernel's own words
(resources/kernel_source/usb_chip_words.json, by scripts/regen_usb_chip_words.py from Debian's
linux-source-6.1 and -6.12: the comment above each USB_DEVICE*() entry of a driver's ID table,
the driver_info `.description` it binds, a comment "<MODEL> is USB n.n" in a driver's function;
failing those, the driver's MODULE_DESCRIPTION, resources/kernel_source/drivers.json: lan78xx's
"LAN78XX USB 3.0 Gigabit Ethernet Devices") and usb.ids' product names (resources/ids/usb.json).
One catalog entry is one generation: a variant the kernel calls USB 2.0 is no member of a USB
3.0 entry (lan78xx.c lan78xx_init_ltm: "LAN7850 is USB 2.0 and does not support LTM"). Facts no
word settles are the catalog's curated ones, listed below with why."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from sbctune.catalog import Chip, load_catalog
from sbctune.catalog.ids import load_ids
from sbctune.inventory.model import Nic
from tests.corpus_support import dmesg_inventory, inventory_of

_KS = Path(__file__).resolve().parents[2] / "resources/kernel_source"
_WORDS = _KS / "usb_chip_words.json"
_DRIVERS = _KS / "drivers.json"

# (chip, fact): why the kernel's words cannot settle it; the catalog's source stands.
CURATED = {
    ("smsc-lan951x", "builtin"): "soldered on Pi 1-3 boards: a board fact (rpi-doc-hardware)",
    (
        "realtek-rtl8156",
        "usb_generation",
    ): "r8152.c binds 0bda:8156 by REALTEK_USB_DEVICE, no words",
    (
        "realtek-rtl8156",
        "line_rate_mbps",
    ): "r8152.c binds 0bda:8156 by REALTEK_USB_DEVICE, no words",
    ("usb2-root-hub", "usb_generation"): "a root hub is no drivers/net/usb device (core/hcd.c)",
    ("usb3-root-hub", "usb_generation"): "a root hub is no drivers/net/usb device (core/hcd.c)",
}
# PCI and SoC chips' line rates and "built in" are outside drivers/net/usb: curated, unchecked.


def _generation(words: str) -> str | None:
    three = re.search(r"USB\s?3|SuperSpeed", words, re.IGNORECASE)
    two = re.search(r"USB\s?2\.0", words, re.IGNORECASE)
    if three and not two:
        return "3"
    return "2" if two and not three else None


def _rate(words: str) -> int | None:
    if re.search(r"\b5G\b", words):
        return 5000
    if re.search(r"\b2\.5G", words):
        return 2500
    if re.search(r"gigabit|\bGBit\b|10/100/1000", words, re.IGNORECASE):
        return 1000
    if re.search(r"fast ethernet|\b10/100\b(?!/)", words, re.IGNORECASE):
        return 100
    return None


def kernel_says(chip: Chip) -> dict[str, set[object]]:
    """What the kernel's words (and usb.ids) say of the chip's generation and rate, each a set
    of the values said (two values: the entry mixes chips)."""
    table = json.loads(_WORDS.read_text(encoding="utf-8"))
    names = load_ids().usb_devices
    said: dict[str, set[object]] = {"usb_generation": set(), "line_rate_mbps": set()}
    for ids in chip.usb_ids:
        texts = [w for row in table["ids"].get(ids, {}).values() for w in row["words"]]
        texts += [names[ids]] if names.get(ids) else []
        gens = {g for t in texts if (g := _generation(t))}
        rates = {r for t in texts if (r := _rate(t))}
        said["usb_generation"] |= gens
        said["line_rate_mbps"] |= rates
    for model in (*chip.variants, *re.findall(r"[A-Z]{2,}[0-9]{3,}\w*", chip.name)):
        if (statement := table["models"].get(model)) is not None:
            said["usb_generation"] |= {_generation(statement["says"])} - {None}
    if not said["usb_generation"]:
        # The driver's own description speaks for every chip it binds that nothing excepts.
        drivers = json.loads(_DRIVERS.read_text(encoding="utf-8"))["drivers"]
        about = [drivers.get(d, {}).get("about") or "" for d in chip.drivers.in_tree]
        said["usb_generation"] |= {g for a in about if (g := _generation(a))}
    return said


def _usb_chips() -> list[Chip]:
    return [c for c in load_catalog().chips if c.bus == "usb"]


def disagreements(chip: Chip) -> list[str]:
    """Each fact the catalog states of the chip that the kernel's words contradict, or that
    no word settles and is not marked curated."""
    said = kernel_says(chip)
    stated = {
        "usb_generation": (chip.usb_generation or "")[:1] or None,
        "line_rate_mbps": chip.line_rate_mbps,
    }
    found = []
    if chip.builtin and (chip.id, "builtin") not in CURATED:
        found.append(f"{chip.id} builtin: a board fact no driver states; mark it curated")
    for fact, value in stated.items():
        if value is None:
            continue
        if not said[fact] and (chip.id, fact) not in CURATED:
            found.append(f"{chip.id} {fact}: no kernel word; mark it curated")
        elif said[fact] and said[fact] != {value}:
            found.append(
                f"{chip.id} {fact}={value}: the kernel says {sorted(map(str, said[fact]))}"
            )
    return found


@pytest.mark.parametrize("chip", _usb_chips(), ids=lambda c: c.id)
def test_every_usb_chip_states_what_the_kernel_says(chip: Chip) -> None:
    assert disagreements(chip) == []


def test_every_curated_fact_is_one_no_word_settles() -> None:
    """A fact marked curated that the kernel's words now settle is no longer curated."""
    chips = {c.id: c for c in _usb_chips()}
    for chip_id, fact in CURATED:
        if fact in ("usb_generation", "line_rate_mbps"):
            assert not kernel_says(chips[chip_id])[fact], (chip_id, fact)


def test_the_lan7850_is_its_own_usb2_chip() -> None:
    """0424:7850 is the LAN7850, which lan78xx_init_ltm calls USB 2.0: not the USB 3.0
    LAN7800 entry (chips24)."""
    chip = load_catalog().chip_by_usb_id("0424:7850")
    assert chip is not None and (chip.name, chip.usb_generation) == ("Microchip LAN7850", "2.0")
    lan7800 = load_catalog().chip_by_usb_id("0424:7800")
    assert lan7800 is not None and "LAN7850" not in lan7800.variants


def test_a_mixed_entry_is_caught() -> None:
    """The check can fail: the old entry (LAN7850 among the USB 3.0 LAN7800's variants)."""
    old = load_catalog().chip("microchip-lan78xx")
    assert old is not None
    mixed = Chip(**{**old.__dict__, "variants": (*old.variants, "LAN7850")})
    assert disagreements(mixed) == ["microchip-lan78xx usb_generation=3: the kernel says ['2']"]


def test_a_lan78xx_nic_without_ids_at_usb2_is_not_called_a_usb3_chip() -> None:
    """advice.chips.usb3_only_chips reads every ID lan78xx binds: the LAN7850 is USB 2.0, so
    a lan78xx NIC at 480M without IDs may be one, and no USB 3 chip is named."""
    from sbctune.advice.chips import usb3_only_chips

    nic = Nic(name="eth1", bus="usb", driver="lan78xx", usb_speed_mbps=480)
    assert usb3_only_chips(load_catalog(), nic) == []
    named = Nic(name="eth1", bus="usb", driver="lan78xx", usb_speed_mbps=480, ids="0424:7800")
    assert [c.id for c in usb3_only_chips(load_catalog(), named)] == ["microchip-lan78xx"]


def _lan78xx_tree(speed: str) -> str:
    """A `lsusb -t` (its shape as the Pi 3 B+ corpus bundle prints it) of a lan78xx NIC at
    `speed` on a root hub of that speed; no IDs shown."""
    return (
        f"/:  Bus 02.Port 1: Dev 1, Class=root_hub, Driver=xhci_hcd/4p, {speed}\n"
        f"    |__ Port 1: Dev 2, If 0, Class=Vendor Specific Class, Driver=lan78xx, {speed}\n"
    )


def test_a_lan78xx_nic_without_ids_is_named_only_as_far_as_its_facts_go() -> None:
    """By its driver alone a lan78xx NIC may be the USB 2.0 LAN7850: at 480M or with no speed
    it is the family, with no one chip's figures; at 5000M only the USB 3.0 LAN7800/LAN7801
    entry is left, and it is named (inventory.nic_chip._by_driver_family, the rule of
    advice.chips.usb3_only_chips)."""
    (slow,) = inventory_of({"lsusb -t": _lan78xx_tree("480M")}).nics
    assert (slow.chip, slow.catalog_id) == ("Microchip LAN78xx", None)
    (fast,) = inventory_of({"lsusb -t": _lan78xx_tree("5000M")}).nics
    assert (fast.chip, fast.catalog_id) == ("Microchip LAN7800/LAN7515", "microchip-lan78xx")
    (bare,) = dmesg_inventory(
        "[   18.67] lan78xx 1-1.1.1:1.0 eth0: kevent 4 may have been dropped"
    ).nics
    assert (bare.chip, bare.catalog_id) == ("Microchip LAN78xx", None)
