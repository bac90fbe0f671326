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
