"""Advice cites a published test only on the boards it was measured on (s13: the tweak advice
and the over-clock gain cited the Pi 4 test, "Raspberry PI 4B USB Network Performance", and its
736 -> 834 Mbit/s on any board, a Pi 5 or a Pi 1 too)."""

from __future__ import annotations

from sbctune.advice import advise
from sbctune.advice.inspect import inspect_bundle
from sbctune.advice.static import add_static_advice
from sbctune.catalog import load_catalog
from sbctune.inventory.inspect import identify, read_bundle_raw
from sbctune.inventory.model import Board, Inventory, Nic
from tests.unit.test_advice_parts import _cores, _run
from tests.unit.test_advice_seeds import PROFILES
from tests.unit.test_advice_seeds import _run as _seed_run

PI4_TEST = "pi 4b usb network performance"  # the source's title, any case
# Seed 000, "ASIX ax88179" results table, 1500 Mhz row.
AX88179_1500 = {
    ("pi_to_pc", "half"): 736.0,
    ("pc_to_pi", "half"): 949.0,
    ("pi_to_pc", "full"): 163.0,
    ("pc_to_pi", "full"): 902.0,
}


def _tweak_sources(inventory: Inventory, nic: str) -> list[str]:
    run = _run(nic, {("pc_to_pi", "half"): 620}, pi_cpu=_cores((98, 90), (10, 1), (6, 0)))
    advice = advise(inventory, [run], load_catalog())
    recs = [r for r in advice.recommendations if r.kind == "tweak"]
    named = {t for r in recs for t in r.tweak_ids}
    assert "rps-rfs" in named  # on any board; irq-affinity where the interrupt can move (not
    # the seed's eth1 behind the Pi 4's PCIe MSI, which the Tune page refuses: issue 21)
    nic_obj = inventory.nic(nic)
    movable = nic_obj is not None and set(nic_obj.irqs) - set(nic_obj.fixed_irqs)
    assert ("irq-affinity" in named) == bool(movable or not (nic_obj and nic_obj.irqs)), named
    return [s for r in recs for s in r.sources]


def test_pi5_and_pi1_cpu_bound_advice_cites_no_pi4_test() -> None:
    for board, driver, bus in (("pi5", "macb", "platform"), ("pi1-b", "smsc95xx", "usb")):
        nic = Nic(name="eth0", driver=driver, bus=bus, link_speed_mbps=1000)
        inventory = Inventory(board=Board(model="a board", catalog_id=board), nics=[nic])
        sources = _tweak_sources(inventory, "eth0")
        assert not [s for s in sources if PI4_TEST in s.lower()], (board, sources)


def test_pi4_seed_profile_cpu_bound_advice_keeps_the_pi4_test() -> None:
    inventory = inspect_bundle(PROFILES / "pi4-ax88179")  # the board is not read: "unknown"
    inventory.nic("eth1").link_speed_mbps = 1000  # type: ignore[union-attr]
    assert [s for s in _tweak_sources(inventory, "eth1") if PI4_TEST in s.lower()]
    inventory.board.catalog_id = "pi4b"
    assert [s for s in _tweak_sources(inventory, "eth1") if PI4_TEST in s.lower()]


def test_overclock_gain_of_the_pi4_test_is_not_offered_on_a_pi5() -> None:
    inventory = inspect_bundle(PROFILES / "pi4-ax88179")
    inventory.nic("eth1").link_speed_mbps = 1000  # type: ignore[union-attr]
    advice = advise(inventory, [_seed_run("eth1", AX88179_1500)], load_catalog())
    titles = [r.title for r in advice.recommendations]
    assert "Raise the CPU clock (over-clock)" in titles
    inventory.board.catalog_id = "pi5"  # the same adapter on a Pi 5
    advice = advise(inventory, [_seed_run("eth1", AX88179_1500)], load_catalog())
    assert "Raise the CPU clock (over-clock)" not in [r.title for r in advice.recommendations]
    tune = next(r for r in advice.recommendations if r.title.startswith("Tune the Pi"))
    assert not [s for s in tune.sources if PI4_TEST in s.lower()]


def _static_rps_sources(board: str | None) -> list[str]:
    """The bundle's own advice (interrupts all on CPU0: RPS) with the board as given."""
    raw, _ = read_bundle_raw(PROFILES / "pi4-ax88179")
    catalog = load_catalog()
    inventory, parsed = identify(raw, catalog)
    inventory.board.catalog_id = board
    add_static_advice(inventory, parsed, catalog)
    rps = [r for r in inventory.recommendations if "rps-rfs" in r.tweak_ids]
    assert rps  # the advice stays on every board
    return [s for r in rps for s in r.sources]


def test_static_rps_advice_cites_the_pi4_test_only_where_it_fits() -> None:
    assert [s for s in _static_rps_sources(None) if PI4_TEST in s.lower()]  # the seed's lab
    assert [s for s in _static_rps_sources("pi4b") if PI4_TEST in s.lower()]
    assert not [s for s in _static_rps_sources("pi5") if PI4_TEST in s.lower()]
