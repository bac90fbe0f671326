"""Shortcuts of the sightings' hot paths (issue 24, speed: session 26) give what the plain code
gave.

- Sighting.add makes its Fact in place (no frozen-dataclass __init__): the same fact, field
  for field, in the same attribute order, as hashable and as frozen as Fact(...) makes it.
- says_any reads a sighting's fact fields in C: any fact's field among those asked.
- device_keys and iface_key keep each name's key (lru_cache): what the function gives.
- The joins after from_dmesg skip a sighting none of whose facts they read
  (lone_device_ties._devices_of_drivers, bus_elimination._without_device): the plain loops
  over every fact, kept below as the reference, give the same.
- lone_device_ties._alias_drivers (session 27) tests its fields by says_any, the IDs first:
  the same drivers as its generator over every fact.
"""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sbctune.catalog.ids import load_ids
from sbctune.inventory import bus_elimination, lone_device_ties
from sbctune.inventory.sightings import Fact, Sighting, device_keys, iface_key, says_any

_FIELDS = ["driver", "refused_by", "probed_by", "firmware_wanted", "bus", "link", "seen"]
_VALUES = st.sampled_from(["r8152", "brcmfmac", "ath9k_htc", "usb", "htc_9271.fw", ""])
_KEYS = st.sampled_from(
    [("usb", "1-1"), ("pci", "0000:01:00.0"), ("sdio", "mmc1"), ("if", "eth0"),
     ("wifi", "brcmfmac"), ("drv", "r8152"), ("platform", "fd580000")]
)  # fmt: skip


@st.composite
def _sightings(draw: st.DrawFn) -> Sighting:
    sighting = Sighting(draw(st.lists(_KEYS, min_size=1, max_size=3)))
    for _ in range(draw(st.integers(0, 6))):
        name = draw(st.sampled_from(_FIELDS))
        sighting.add(name, draw(_VALUES | st.booleans()), "dmesg", "a line", draw(st.integers()))
    return sighting


@given(
    name=st.sampled_from(_FIELDS),
    value=st.one_of(st.text(max_size=4), st.integers(), st.tuples(st.integers(), st.none())),
    line=st.text(max_size=400),
    order=st.integers(),
)
def test_sighting_add_makes_the_fact_of_fact(
    name: str, value: object, line: str, order: int
) -> None:
    sighting = Sighting([("if", "eth0")])
    sighting.add(name, value, "dmesg", line, order)
    if value == "":
        assert sighting.facts == []
        return
    (made,) = sighting.facts
    plain = Fact(name, value, "dmesg", line[:300], order)
    assert made == plain and hash(made) == hash(plain)
    assert list(vars(made).items()) == list(vars(plain).items())
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.value = 1  # type: ignore[misc]


@given(sighting=_sightings(), asked=st.frozensets(st.sampled_from(_FIELDS)))
def test_says_any_is_any_fact_of_those_fields(sighting: Sighting, asked: frozenset[str]) -> None:
    assert says_any(sighting, asked) == any(f.field in asked for f in sighting.facts)


_NAMES = st.sampled_from(
    ["0000:01:00.0", "01:00.0", "1-1.4:1.0", "1-1.4", "mmc1:0001:1", "fd580000.ethernet",
     "wemac.0", "soc@ffe00000:ethernet@b0000", "eth0", "wlan0", "lan1@eth0", "veth1", "2-1.4",
     "docker0", " 1-1 ", "", None]
) | st.text(max_size=12)  # fmt: skip


@given(name=_NAMES)
def test_a_names_key_kept_is_the_key_made(name: str | None) -> None:
    assert device_keys(name) == device_keys.__wrapped__(name)
    assert device_keys(name) == device_keys.__wrapped__(name)  # the kept one, asked again
    assert iface_key(name) == iface_key.__wrapped__(name)
    assert iface_key(name) == iface_key.__wrapped__(name)


def _plain_devices_of_drivers(
    found: list[Sighting], wanted: dict[str, str], used: set[str]
) -> dict[str, set[tuple[str, str]]]:
    devices: dict[str, set[tuple[str, str]]] = {}
    ifaces: dict[str, set[tuple[str, str]]] = {}
    for sighting in found:
        for fact in sighting.facts:
            driver = lone_device_ties._driver_of(fact, sighting)
            if driver is None or (driver not in wanted and driver not in used):
                continue
            kind = wanted.get(driver, "drv")
            devices.setdefault(driver, set()).update(lone_device_ties._bus_keys(sighting, kind))
            if fact.field == "driver" and wanted.get(driver) == "drv":
                ifaces.setdefault(driver, set()).update(k for k in sighting.keys if k[0] == "if")
    for driver, named in ifaces.items():
        if not devices.get(driver):
            devices[driver] = named
    return devices


def _plain_without_device(found: list[Sighting]) -> set[str]:
    wanted = {k[1] for s in found for k in s.keys if k[0] == "wifi"}
    for sighting in found:
        if not wanted:
            break
        on_device = any(k[0] in bus_elimination._BUS_OF_KEY for k in sighting.keys)
        for fact in sighting.facts:
            if on_device and fact.field in bus_elimination._OWNERS and fact.value in wanted:
                wanted.discard(str(fact.value))
    for sighting in found:
        for key in sighting.keys:
            if key[0] == "wifi" and any(f.field == "bus" for f in sighting.facts):
                wanted.discard(key[1])
    return wanted


@given(found=st.lists(_sightings(), max_size=8))
def test_the_joins_skipping_sightings_give_the_plain_loops(found: list[Sighting]) -> None:
    wanted = {"brcmfmac": "wifi", "r8152": "drv"}
    devices = lone_device_ties._devices_of_drivers(found, wanted, {"ath9k_htc"})
    plain = _plain_devices_of_drivers(found, wanted, {"ath9k_htc"})
    assert devices == plain and list(devices) == list(plain)
    assert bus_elimination._without_device(found) == _plain_without_device(found)


_USERS = ["rt2800usb", "ath9k_htc", "ath9k", "carl9170", "r8152"]


def _plain_alias_drivers(sighting: Sighting, used: set[str]) -> list[str]:
    """lone_device_ties._alias_drivers as it was: a generator over every fact."""
    if any(f.field in ("driver", "refused_by") for f in sighting.facts):
        return []
    ids = next((str(f.value) for f in sighting.facts if f.field == "ids"), None)
    buses = {k[0] for k in sighting.keys if k[0] in ("usb", "pci", "sdio")}
    if ids is None or len(buses) != 1:
        return []
    return [d for d in load_ids().drivers_for(buses.pop(), ids) if d in used]


@st.composite
def _id_sightings(draw: st.DrawFn) -> Sighting:
    """A sighting on a bus, with IDs a library user's alias table lists (or not), and any of
    the fields that keep _alias_drivers from naming a driver."""
    sighting = Sighting(draw(st.lists(_KEYS, min_size=1, max_size=3)))
    fields = st.sampled_from([*_FIELDS, "ids", "ids"])
    ids = st.sampled_from(["148f:3070", "0cf3:9271", "168c:002e", "1234:5678", "zz"])
    for _ in range(draw(st.integers(0, 5))):
        name = draw(fields)
        value = draw(ids) if name == "ids" else draw(_VALUES)
        sighting.add(name, value, "dmesg", "a line", draw(st.integers()))
    return sighting


@given(sighting=_id_sightings(), used=st.sets(st.sampled_from(_USERS)))
def test_alias_drivers_read_in_c_give_the_plain_loop(sighting: Sighting, used: set[str]) -> None:
    """_alias_drivers tests its fields in C (says_any): called on every sighting of a log."""
    assert lone_device_ties._alias_drivers(sighting, used) == _plain_alias_drivers(sighting, used)


def test_alias_drivers_name_the_library_user_of_the_ids() -> None:
    """The case the plain loop was written for (rt2x00lib's line beside a 148f:3070)."""
    sighting = Sighting([("usb", "1-1.4")])
    sighting.add("ids", "148f:3070", "dmesg", "a line", 1)
    assert lone_device_ties._alias_drivers(sighting, {"rt2800usb"}) == ["rt2800usb"]
    sighting.add("driver", "rt2800usb", "dmesg", "a line", 2)
    assert lone_device_ties._alias_drivers(sighting, {"rt2800usb"}) == []
