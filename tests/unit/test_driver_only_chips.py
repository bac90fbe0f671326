"""A chip, a USB generation or an "add-in adapter" drawn from a driver alone (issue 24, item 3):
the premise is what the kernel's ID table binds to the driver (resources/ids/drivers.json), not
the catalog's few chips of it. r8152 binds the USB 2.0 RTL8152 (Fast Ethernet) as well as the
USB 3 RTL8153/RTL8156 (drivers/net/usb/r8152.c rtl8152_table; rtl8152_get_version tells them
apart by a register, not by the ID), so r8152 alone is no "USB 3 adapter"."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from sbctune.advice.chips import _rate_by_name, chip_of, chips_said, speed_family, usb3_only_chips
from sbctune.advice.inspect import inspect_bundle
from sbctune.advice.static import add_static_advice
from sbctune.catalog import load_catalog
from sbctune.catalog.kernel_drivers import chip_by_speed
from sbctune.inventory.model import Inventory, Nic
from sbctune.inventory.raw import Parsed
from tests.corpus_support import CORPUS, findings_of

# A NanoPi R2S on OpenWrt: its r8152 reset at high speed on ehci-platform; no IDs, no link.
_R2S = "nanopi_r2s_jayanta_12_r8152_reset_high_speed_ehci_platform_gmac_up"


def _r8152(**fields: object) -> Nic:
    nic = Nic("eth1", driver="r8152", bus="usb", bus_path="1-1")
    for key, value in fields.items():
        setattr(nic, key, value)
    return nic


def _advised(nic: Nic) -> Inventory:
    inv = Inventory(nics=[nic])
    add_static_advice(inv, Parsed(), load_catalog())
    return inv


def _said(inv: Inventory) -> str:
    return " ".join(
        [f.summary for f in inv.findings]
        + [f"{r.title} {r.detail} {r.expected_gain}" for r in inv.recommendations]
    )


def test_the_r2s_pastes_r8152_at_high_speed_is_not_called_a_usb3_adapter() -> None:
    """Nothing in the paste names the chip: no RTL8153, no "USB 3 adapter", no advice to move
    it to a USB 3 port; the reset the lines show is still said."""
    inv = inspect_bundle(CORPUS / _R2S)
    eth1 = inv.nic("eth1")
    assert eth1 is not None and (eth1.driver, eth1.usb_speed_mbps) == ("r8152", 480)
    assert "RTL8153" not in (eth1.chip or "")
    assert findings_of(inv, "usb3-adapter-at-usb2") == []
    said = _said(inv)
    assert "RTL8153" not in said and "USB 3 adapter" not in said
    assert not [r for r in inv.recommendations if "USB 3 port" in r.title]
    assert findings_of(inv, "usb-reset") or "reset" in said


def test_a_high_speed_r8152_whose_link_is_100_mbit_is_not_a_usb3_adapter() -> None:
    """A Fast Ethernet link (and a NIC that supports no more) fits the RTL8152 the kernel binds
    to r8152 as well: no chip is named and nothing built on one is advised."""
    nic = _r8152(usb_speed_mbps=480, link_speed_mbps=100, max_link_speed_mbps=100)
    inv = _advised(nic)
    assert findings_of(inv, "usb3-adapter-at-usb2") == []
    assert "USB 3" not in _said(inv)
    assert chip_of(load_catalog(), nic) == (None, False)


def test_a_gigabit_link_leaves_r8152s_usb3_chips_whatever_the_ids() -> None:
    """r8152 at 1000 Mbit/s is an RTL8153 or RTL8156 (r8152.c: supports_gmii is 0 only for the
    RTL8152s; chips_by_speed.json), both USB 3: at 480M it is a USB 3 adapter in a USB 2.0
    port, said as "one of" the two, with no IDs shown."""
    inv = _advised(_r8152(usb_speed_mbps=480, link_speed_mbps=1000))
    (said,) = findings_of(inv, "usb3-adapter-at-usb2")
    assert "one of Realtek RTL8153/RTL8153B or Realtek RTL8156/RTL8156B" in said
    assert [r for r in inv.recommendations if r.title == "Move the adapter to a USB 3 port"]
    chip, identified = chip_of(load_catalog(), _r8152(usb_speed_mbps=480, link_speed_mbps=1000))
    assert chip is not None and "one of" in chip.name and not identified
    # Inspect's own name for it (the same table) narrows nothing further
    named = _r8152(usb_speed_mbps=480, link_speed_mbps=1000, chip=chip_by_speed("r8152", 1000))
    assert "gigabit" in (named.chip or "")
    assert [c.id for c in usb3_only_chips(load_catalog(), named)] == [
        "realtek-rtl8153",
        "realtek-rtl8156",
    ]
    fast = _r8152(usb_speed_mbps=480, chip="Realtek RTL8152 Fast Ethernet Adapter")
    assert usb3_only_chips(load_catalog(), fast, ["0bda:8153"]) == []


def test_the_ids_narrow_the_driver_to_its_chip() -> None:
    """With its IDs shown, the NIC is that ID's chip: 0bda:8153 at 480M is a USB 3 RTL8153 in a
    USB 2.0 port; 0bda:8152 (usb.ids: "RTL8152 Fast Ethernet Adapter") is not called one."""
    at_usb2 = _advised(_r8152(usb_speed_mbps=480, ids="0bda:8153"))
    assert [s for s in findings_of(at_usb2, "usb3-adapter-at-usb2") if "RTL8153" in s]
    fast = _advised(_r8152(usb_speed_mbps=480, ids="0bda:8152"))
    assert findings_of(fast, "usb3-adapter-at-usb2") == []


def test_an_r8152_at_5000m_with_no_ids_gets_what_the_evidence_allows() -> None:
    """SuperSpeed says USB 3 (no "USB 2.0 port" finding), but not which chip: at a 1000 Mbit/s
    link no chip is guessed (RTL8153 and RTL8156 both link there); at 2500 Mbit/s the kernel's
    speed table says RTL8156, and the advice reads that family's figures."""
    catalog = load_catalog()
    gigabit = _r8152(usb_speed_mbps=5000, link_speed_mbps=1000)
    assert findings_of(_advised(gigabit), "usb3-adapter-at-usb2") == []
    assert chip_of(catalog, gigabit) == (None, False)
    fast = _r8152(usb_speed_mbps=5000, link_speed_mbps=2500, chip="RTL8156 (a 2.5GbE r8152 chip)")
    family = speed_family(catalog, fast)
    assert family is not None and [c.id for c in family[1]] == ["realtek-rtl8156"]


def test_the_premise_holds_only_when_every_bound_id_is_a_known_usb3_chip() -> None:
    """The mechanism, on a table cut down to a few of r8152's IDs: every ID a known USB 3 chip
    names them (figures from the slowest, the name says "one of"); an ID nothing names keeps
    it open; a link above an ID's line rate rules that ID out."""
    catalog = load_catalog()
    at_usb2 = _r8152(usb_speed_mbps=480)
    known = usb3_only_chips(catalog, at_usb2, ["0bda:8153", "0bda:8156"])
    assert [c.id for c in known] == ["realtek-rtl8153", "realtek-rtl8156"]
    assert chips_said(known).startswith("adapter (one of Realtek RTL8153")
    assert usb3_only_chips(catalog, at_usb2, ["0bda:8153", "0bda:8155"]) == []
    both = ["0bda:8152", "0bda:8153"]  # usb.ids: "RTL8152 Fast Ethernet Adapter", the catalog's
    assert usb3_only_chips(catalog, at_usb2, both) == []
    gigabit = _r8152(usb_speed_mbps=480, link_speed_mbps=1000)
    assert [c.id for c in usb3_only_chips(catalog, gigabit, both)] == ["realtek-rtl8153"]
    fast = _r8152(usb_speed_mbps=480, link_speed_mbps=100)
    assert usb3_only_chips(catalog, fast, both) == []


@given(st.text(max_size=200))
def test_a_names_line_rate_is_read_from_any_text(text: str) -> None:
    assert _rate_by_name(text) in (None, 100, 1000, 2500)
