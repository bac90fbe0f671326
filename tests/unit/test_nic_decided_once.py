"""Whether a device is a NIC is decided once per device (issue 24, speed): build_inventory
asked is_nic of every device, then again of each NIC before making it, ~10^5 instructions a
device on a long log. A device the joins after the first list change (join_returned, the USB
pairing by bus) is asked again: its facts and keys are new."""

from __future__ import annotations

from pathlib import Path

import pytest

from sbctune.catalog import load_catalog
from sbctune.inventory import build
from sbctune.inventory.graph import Device
from sbctune.inventory.inspect import identify, read_bundle_raw
from sbctune.inventory.sightings import Fact

PROFILES = Path(__file__).resolve().parents[2] / "resources" / "lab" / "profiles"


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    asked: list[int] = []
    real = build.is_nic

    def is_nic(device: Device, *args: object) -> bool:
        asked.append(id(device))
        return real(device, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(build, "is_nic", is_nic)
    return asked


def test_each_device_is_asked_once_and_the_nics_are_the_same(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    raw, _ = read_bundle_raw(PROFILES / "cm4-i340-nodriver")  # four NICs and the board's
    plain, _ = identify(raw, load_catalog())
    asked = _counting(monkeypatch)
    inventory, _ = identify(raw, load_catalog())
    assert len(asked) == len(set(asked))  # the code before asked each NIC's device twice
    assert inventory.to_json() == plain.to_json()
    assert len(inventory.nics) > 1


def test_a_device_a_later_join_changed_is_asked_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pairing adds the other device's facts: its answer may differ, so it is asked."""
    asked = _counting(monkeypatch)
    joined = Device(keys={("if", "eth1")}, facts=[Fact("driver", "r8152", "ip", "eth1", 0)])
    monkeypatch.setattr(build, "devices", lambda parsed: [joined])

    def join_returned(found: list[Device]) -> list[Device]:
        joined.keys.add(("usb", "1-1"))
        joined.facts.append(Fact("bus", "usb", "dmesg", "usb 1-1: ...", 1))
        return found

    monkeypatch.setattr(build, "join_returned", join_returned)
    raw, _ = read_bundle_raw(PROFILES / "cm4-i340-igb")
    inventory, _ = identify(raw, load_catalog())
    assert asked.count(id(joined)) == 2
    assert [(n.name, n.bus) for n in inventory.nics] == [("eth1", "usb")]


def test_a_platform_devices_chip_is_the_first_a_scan_of_the_catalog_finds() -> None:
    """catalog.chip_on_platform reads an index of the platform names made once, not every chip
    per NIC: the same chip as the scan in the catalog's order it replaced, for every name and
    driver the catalog lists, and none for a driver the chip does not list."""
    from sbctune.catalog.catalog import _normalize_driver

    catalog = load_catalog()
    chips = catalog._ranked

    def scan(driver: str, name: str) -> object:
        wanted = _normalize_driver(driver)
        for chip in chips:
            drives = {_normalize_driver(d) for d in chip.drivers.all()}
            if chip.is_nic and name in chip.platform_names and wanted in drives:
                return chip
        return None

    asked = [
        (driver, name)
        for chip in chips
        for name in chip.platform_names
        for driver in (*chip.drivers.all(), "e1000e", "R8169")
    ]
    assert len(asked) > 5  # the catalog's platform names (the Pi 4's GENET, the Pi 5's GEM)
    assert [catalog.chip_on_platform(d, n) for d, n in asked] == [scan(d, n) for d, n in asked]
    assert catalog.chip_on_platform("macb", "no.such.ethernet") is None
