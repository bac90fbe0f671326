"""Issue 24, class 1: lines printed by a device the kernel registers BELOW a NIC's own device
("mhi mhi0", the MHI controller ath11k_pci registers below its PCI device; "ieee80211 phy0", a
Wi-Fi PHY) join the device that owns it, and say how. Real lines come from the corpus bundle
named below (its SOURCE.md gives the public source)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sbctune.advice.inspect import inventory_from_raw
from sbctune.advice.logs import log_findings
from sbctune.catalog.child_devices import child_kinds, child_name
from sbctune.inventory.child_join import CHILD, child_key, join_children
from sbctune.inventory.raw import RawOutputs
from sbctune.inventory.sightings import Sighting
from sbctune.resources import resource_root

ROOT = Path(__file__).resolve().parents[2]
BUNDLE = ROOT / "tests/captures/corpus/qcom_linux_pr832_caller_id_ath11k_wcn6855_ethqos"
LINES = (BUNDLE / "commands" / "000-dmesg.txt").read_text(encoding="utf-8").splitlines()
MHI = [line for line in LINES if "mhi mhi0:" in line]
ATH11K = [line for line in LINES if line.strip().startswith("[") and "ath11k_pci" in line]
ETHQOS = [line for line in LINES if "qcom-ethqos" in line]


def _inventory(lines: list[str]):  # type: ignore[no-untyped-def]
    return inventory_from_raw(RawOutputs(commands={"dmesg": "\n".join(lines) + "\n"}))


def test_the_mhi_controllers_missing_firmware_is_the_pci_devices_and_says_how() -> None:
    assert len(MHI) == 4 and ATH11K
    (nic,) = [n for n in _inventory(LINES).nics if n.bus == "pci"]
    assert (nic.bus_path, nic.chip) == ("0000:01:00.0", "wcn6855 hw2.1")
    (missing,) = [f for f in log_findings(nic) if f.id == "firmware-missing"]
    assert "amss.bin" in missing.evidence[0]
    assert "MHI controller that ath11k_pci registers below 0000:01:00.0" in missing.evidence[0]
    assert "the only device in this log whose driver registers one" in missing.evidence[0]


def test_mhi_lines_alone_make_no_nic_and_join_no_other_driver() -> None:
    """Without ath11k_pci's lines nothing says whose controller mhi0 is: no NIC, no guess; the
    SoC's Ethernet (qcom-ethqos registers no MHI controller) does not take its lines."""
    assert _inventory(MHI).nics == []
    (end0,) = _inventory([*MHI, *ETHQOS]).nics
    assert end0.name == "end0" and "firmware_missing" not in end0.log


def test_every_child_name_is_read_as_the_device_its_channels_share() -> None:
    assert child_key("mhi", "mhi0") == (CHILD, "mhi mhi0")
    assert child_key("mhi", "mhi0_IPCR") == (CHILD, "mhi mhi0")  # main.c "%s_%s"
    assert child_key("ieee80211", "phy1") == (CHILD, "ieee80211 phy1")
    assert child_key("ieee80211", "mhi0") is None and child_key("usb", "phy0") is None
    assert child_key("r8169", "0000:01:00.0") is None


_DEVICES = st.sampled_from(
    [("pci", "0000:01:00.0"), ("pci", "0000:02:00.0"), ("usb", "1-1"), ("platform", "fe300000")]
)
_DRIVERS = st.sampled_from(["ath11k_pci", "ath12k_pci", "mhi-pci-generic", "r8169", "rt2800usb"])


@st.composite
def _logs(draw: st.DrawFn) -> list[Sighting]:
    found: list[Sighting] = []
    for order in range(draw(st.integers(1, 12))):
        if draw(st.booleans()):
            child = draw(st.sampled_from(["mhi mhi0", "mhi mhi1", "ieee80211 phy0"]))
            sighting = Sighting([(CHILD, child)])
            sighting.add("seen", True, "dmesg", f"{child}: line {order}", order)
        else:
            sighting = Sighting([draw(_DEVICES)])
            sighting.add("driver", draw(_DRIVERS), "dmesg", f"line {order}", order)
        found.append(sighting)
    return found


def _joined(found: list[Sighting]) -> list[tuple[tuple[tuple[str, str], ...], str]]:
    return sorted((tuple(s.keys), f.line) for s in join_children(found) for f in s.facts)


@given(_logs(), st.randoms())
def test_joining_children_is_order_independent_and_only_to_their_parents_drivers(
    found: list[Sighting], rnd: object
) -> None:
    joined = _joined(found)
    shuffled = list(found)
    rnd.shuffle(shuffled)  # type: ignore[attr-defined]
    assert _joined(shuffled) == joined
    drivers = {(s.keys[0], f.value) for s in found if s.keys[0][0] != CHILD for f in s.facts}
    for keys, line in joined:
        if not line.startswith(("mhi ", "ieee80211 ")):
            continue
        if keys[0][0] == CHILD:
            continue  # joined to none
        owner = re.search(r"that (\S+) registers below", line)
        assert owner is not None and (keys[0], owner.group(1)) in drivers
        kind = child_kinds()[line.split(" ")[0]]
        assert owner.group(1) in kind.parents or not kind.parents


def test_child_names_of_the_table_compile_and_a_broken_name_is_none() -> None:
    assert set(child_kinds()) == {"mhi", "ieee80211", "stmmac"}
    assert child_name("mhi", "mhi0:") is None and child_name(None, "mhi0") is None


@pytest.mark.posix_only("obtains Debian's kernel source with apt-get and dpkg")
def test_the_child_table_is_what_the_source_says() -> None:
    sys.path.insert(0, str(ROOT / "scripts"))
    from kernel_source import SERIES, obtain

    data = json.loads(
        resource_root().joinpath("kernel_source", "child_devices.json").read_text(encoding="utf-8")
    )
    globs = ("drivers/bus/mhi/*", "net/wireless/*", "drivers/net/*")
    trees = [obtain(series, globs).root for series in SERIES]
    for child in data["children"]:
        for rel, function, literal in child["named_in"]:
            for tree in trees:
                text = (tree / rel).read_text(encoding="utf-8", errors="replace")
                assert function in text and literal in text, (tree, rel, function, literal)
        # each parent driver is registered in a directory that calls the registering function
        calls = f"{child['registered_by']}("
        homes = {
            path.parent
            for tree in trees
            for top in ("drivers/net/wireless", "drivers/bus/mhi")
            for path in (tree / top).rglob("*.c")
            if calls in path.read_text(encoding="utf-8", errors="replace")
        }
        named = " ".join(
            re.sub(r"\s+", " ", p.read_text(encoding="utf-8", errors="replace"))
            for home in homes
            for p in home.glob("*.c")
        )
        for parent in child["parents"]:
            assert f'.name = "{parent}"' in named, parent
        if child.get("parent_dir"):  # the registering function is called in that directory
            assert any(
                calls in p.read_text(encoding="utf-8", errors="replace")
                for tree in trees
                for p in (tree / child["parent_dir"]).glob("*.c")
            ), child["parent_dir"]


def test_a_parents_driver_is_asked_once_per_driver(monkeypatch: pytest.MonkeyPatch) -> None:
    """The corpus log's mhi0 lines after 200 lines of its own ath11k_pci and of r8169: whether
    a driver registers such children is asked once per driver and child kind (issue 24: a long
    log's ~2 500 owner lines, each asked; 200 asks before), the same parent found."""
    from sbctune.inventory import child_join

    asked: list[str] = []
    fits = child_join._fits
    monkeypatch.setattr(
        child_join, "_fits", lambda kind, driver: asked.append(driver) or fits(kind, driver)
    )
    found = []
    owners = [(("usb", "1-1"), "r8169"), (("pci", "0000:01:00.0"), "ath11k_pci")]
    for order in range(200):
        key, driver = owners[order % 2]
        sighting = Sighting([key])
        sighting.add("driver", driver, "dmesg", f"line {order}", order)
        found.append(sighting)
    child = Sighting([(CHILD, "mhi mhi0")])
    child.add("seen", True, "dmesg", MHI[0], 201)
    joined = join_children([*found, child])
    assert sorted(asked) == ["ath11k_pci", "r8169"]
    assert joined[-1].keys == [("pci", "0000:01:00.0")]
