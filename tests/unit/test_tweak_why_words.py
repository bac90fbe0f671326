"""A tweak's why names this Pi's NIC driver and cites only the published tests that fit its board
and bus (the s13 walk: a Pi 5 with macb was told about "the Pi's own bcmgenet" and a Pi 4 test)."""

from __future__ import annotations

import pytest

from sbctune.advice.inspect import inspect_bundle
from sbctune.catalog import load_catalog
from sbctune.cli.tune_plan_text import plan_lines
from sbctune.inventory.model import Board, Inventory, Nic
from sbctune.tuning import catalog
from sbctune.tuning.model import PlannedTweak, TuningPlan
from sbctune.tuning.why_words import why_for
from tests.unit.test_advice_seeds import PROFILES


def _inventory(board: str, nic: Nic) -> Inventory:
    inv = Inventory()
    inv.board = Board(model="a board", catalog_id=board)
    inv.nics = [nic]
    return inv


def test_pi5_macb_rps_why_names_macb_and_cites_no_pi4_test() -> None:
    nic = Nic("eth0", driver="macb", bus="platform", builtin=True, rx_queues=1)
    why, sources = why_for(catalog.tweak("rps-rfs"), _inventory("pi5", nic), nic)
    assert "eth0 runs the macb driver with one receive queue" in why
    assert "bcmgenet" not in why
    assert "Pi 4" not in why
    assert not [s for s in sources if "seed 000" in s]
    assert [s for s in sources if "scaling.rst" in s]


def test_pi4_usb_adapter_keeps_the_published_pi4_test() -> None:
    nic = Nic("eth1", driver="ax88179_178a", bus="usb")
    why, sources = why_for(catalog.tweak("rps-rfs"), _inventory("pi4b", nic), nic)
    assert "eth1 runs the ax88179_178a driver." in why
    assert "Raspberry PI 4B USB Network Performance" in why
    assert [s for s in sources if "seed 000" in s]


def test_pi4_builtin_nic_gets_no_usb_adapter_test() -> None:
    nic = Nic("eth0", driver="bcmgenet", bus="platform", builtin=True)
    why, sources = why_for(catalog.tweak("rps-rfs"), _inventory("pi4b", nic), nic)
    assert "bcmgenet" in why and "USB Network Performance" not in why
    assert not [s for s in sources if "seed 000" in s]


def test_no_nic_read_gives_the_general_why() -> None:
    tweak = catalog.tweak("rps-rfs")
    why, sources = why_for(tweak, None, None)
    assert why == tweak.why and sources == tweak.sources


# -- the CPU clock, governor, PCIe payload and interrupt tweaks (s13: they cited the Pi 4 test on
# any board) ---------------------------------------------------------------------------------
BOARD_TWEAKS = ("boot-arm-freq", "cpu-governor-performance", "boot-pcie-bus-perf", "irq-affinity")
PI4_TEST = "Raspberry PI 4B USB Network Performance"
PI4_FIGURES = ("736", "834", "xhci_hcd", "fixed clock", "on a Pi 4")


@pytest.mark.parametrize("tweak_id", BOARD_TWEAKS)
@pytest.mark.parametrize(
    ("board", "nic"),
    [
        ("pi5", Nic("eth0", driver="macb", bus="platform", builtin=True, rx_queues=1)),
        ("pi1-b", Nic("eth0", driver="smsc95xx", bus="usb", builtin=True)),
        (None, Nic("eth0", driver="smsc95xx", bus="usb", builtin=True)),  # lab pi1b: board unknown
    ],
    ids=["pi5-macb", "pi1-b", "pi1b-lab"],
)
def test_other_boards_get_no_pi4_test(tweak_id: str, board: str | None, nic: Nic) -> None:
    inventory = _inventory(board, nic) if board else Inventory()
    why, sources = why_for(catalog.tweak(tweak_id), inventory, nic)
    assert PI4_TEST not in why
    assert not [f for f in PI4_FIGURES if f in why]
    assert not [s for s in sources if "seed 000" in s or "seed 004" in s]
    assert sources  # the general source stays


@pytest.mark.parametrize("tweak_id", BOARD_TWEAKS)
@pytest.mark.parametrize("driver", ["ax88179_178a", "r8152"])  # the seed's Pi 4 profiles
def test_pi4_usb_adapters_keep_the_published_test(tweak_id: str, driver: str) -> None:
    nic = Nic("eth1", driver=driver, bus="usb")
    why, sources = why_for(catalog.tweak(tweak_id), _inventory("pi4b", nic), nic)
    assert PI4_TEST in why
    assert [s for s in sources if "seed 000" in s]


def test_pi4_adapter_figures_and_the_refused_interrupt() -> None:
    nic = Nic("eth1", driver="ax88179_178a", bus="usb")
    inventory = _inventory("pi4b", nic)
    assert "736 to 834 Mbit/s" in why_for(catalog.tweak("boot-arm-freq"), inventory, nic)[0]
    assert "xhci_hcd" in why_for(catalog.tweak("irq-affinity"), inventory, nic)[0]


def test_cm4_keeps_its_own_published_test() -> None:
    nic = Nic("eth0", driver="bcmgenet", bus="platform", builtin=True)
    why, sources = why_for(catalog.tweak("irq-affinity"), _inventory("cm4", nic), nic)
    assert "Compute Module 4" in why and "xhci_hcd" not in why
    assert [s for s in sources if "seed 004" in s]
    assert not [s for s in sources if "seed 000" in s]


@pytest.mark.parametrize("tweak_id", BOARD_TWEAKS)
def test_general_why_names_no_board_test(tweak_id: str) -> None:
    tweak = catalog.tweak(tweak_id)
    assert "published test" not in tweak.why and "Pi 4" not in tweak.why
    assert not [s for s in tweak.sources if s.startswith("seed ")]


def test_tune_plan_shows_the_why_for_this_board() -> None:
    nic = Nic("eth0", driver="macb", bus="platform", builtin=True, rx_queues=1)
    tweak = catalog.tweak("boot-arm-freq")
    item = PlannedTweak(tweak, True, "arm_freq 2800")
    item.why, item.sources = why_for(tweak, _inventory("pi5", nic), nic)
    text = "\n".join(plan_lines(TuningPlan("eth0", [item])))
    assert "Why: On a Pi the NIC's receive work is CPU-bound" in text
    assert PI4_TEST not in text and "834" not in text


@pytest.mark.parametrize("tweak_id", ("rps-rfs", *BOARD_TWEAKS))
@pytest.mark.parametrize("profile", ["pi4-ax88179", "pi4-rtl8153"])
def test_seed_labs_of_the_pi4_test_keep_it(tweak_id: str, profile: str) -> None:
    """The lab's Pi 4 profiles: the board is a Pi 4 Model B (a real Pi 4 B's /proc/cpuinfo
    since walk 25; the write-up names it only in prose), the adapter the published test's own."""
    inventory = inspect_bundle(PROFILES / profile)
    assert inventory.board.catalog_id == "pi4b"
    nic = inventory.nic("eth1")
    why, sources = why_for(catalog.tweak(tweak_id), inventory, nic)
    assert PI4_TEST in why
    assert [s for s in sources if "seed 000" in s]


@pytest.mark.parametrize("tweak_id", ("rps-rfs", *BOARD_TWEAKS))
def test_pi1b_seed_lab_gets_no_pi4_test(tweak_id: str) -> None:
    inventory = inspect_bundle(PROFILES / "pi1b-smsc95xx")
    why, sources = why_for(catalog.tweak(tweak_id), inventory, inventory.nic("eth0"))
    assert PI4_TEST not in why
    assert not [s for s in sources if "seed 000" in s]


def test_evidence_names_catalog_boards() -> None:
    boards = {b.id for b in load_catalog().boards} | {"unknown"}
    for tweak in catalog.load_tweaks():
        for evidence in tweak.evidence:
            assert set(evidence.boards) <= boards, (tweak.id, evidence.boards)


def test_a_multi_queue_nic_whose_interrupts_cannot_move_is_told_why_rps_still_helps() -> None:
    """Walk 18 on the CM4 + I340 lab: the why spoke of "a NIC with a single receive queue", then
    said "eth1 runs the igb driver with 4 receive queues." and stopped: a contradiction to a new
    user. The CM4's PCIe controller cannot move MSIs, so the 4 queues meet on one CPU."""
    fixed = list(range(46, 55))
    nic = Nic("eth1", driver="igb", bus="pci", rx_queues=4, irqs=fixed, fixed_irqs=fixed)
    why, _ = why_for(catalog.tweak("rps-rfs"), _inventory("cm4", nic), nic)
    assert "igb driver with 4 receive queues, but the kernel cannot spread their" in why
    assert "meets on one CPU as with a single queue" in why
    movable = Nic("eth1", driver="igb", bus="pci", rx_queues=4, irqs=fixed)
    why, _ = why_for(catalog.tweak("rps-rfs"), _inventory("cm4", movable), movable)
    assert "with 4 receive queues: RPS helps while their interrupts are taken by fewer" in why
