"""Issue 21, the table's mechanisms audit 34b lacked (resources/tuning/driver_caps_audit34b.md rows
6-10). Each test below failed before its change.

Row 8: a list fact read in a later tree ("extends") adds to the earlier series' list instead of
being ignored: 7.2's rtl_is_8125 also covers the RTL9151A and the 10 GbE RTL8127A, whose
coalescing get/set are EOPNOTSUPP as the RTL8125's.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sbctune.inventory.model import Board, Inventory, Nic
from sbctune.remote import batch
from sbctune.remote.batch import StepResult
from sbctune.tuning import catalog
from sbctune.tuning.kinds import PLANNERS, Context
from sbctune.tuning.model import PlannedTweak
from sbctune.tuning.probe import Facts
from tests.fake_ethtool_support import ethtool, lab_state

POSIX = pytest.mark.posix_only("the lab's fake ethtool (Linux-only lab) locks its state with fcntl")
CAPTURES = Path(__file__).resolve().parents[1] / "captures"


def _coalescing_plan(chip: str, kernel: str) -> PlannedTweak:
    """irq-coalescing planned over a real `ethtool -c` of an r8169 chip that has coalescing
    (the Pi's own answer is not what is tested here: the table's refusal is)."""
    found = Facts("eth0")
    coalesce = (CAPTURES / "ethtool_c/tuned_726_enp1s0.txt").read_bytes()
    found.steps["ethtool -c"] = StepResult(batch.Step(("true",), "ethtool -c"), 0, coalesce, b"")
    tweak = catalog.tweak("irq-coalescing")
    nic = Nic("eth0", driver="r8169", chip=chip)
    inventory = Inventory(board=Board(kernel=kernel), nics=[nic])
    return PLANNERS[tweak.kind](Context(tweak, found, inventory, nic, {}, {}, ("irq-coalescing",)))


# --- row 8: a 7.2 list fact extends 6.12's ----------------------------------------------------


@POSIX
@pytest.mark.parametrize("chip", ["RTL8127A", "RTL9151A"])
def test_the_72_chips_refuse_coalescing_in_the_lab(tmp_path: Path, chip: str) -> None:
    """rtl_get_coalesce / rtl_set_coalesce (7.2): EOPNOTSUPP where rtl_is_8125; the lab answered
    `-c` and took `-C` on these chips."""
    path = lab_state(tmp_path, "r8169", chip, "7.2.0-1-arm64")
    out, err, code = ethtool(path, "-c", "eth0")
    assert (out, code, err) == ("", 1, ["netlink error: Operation not supported"])
    _, err, code = ethtool(path, "-C", "eth0", "rx-usecs", "50")
    assert (code, err) == (1, ["netlink error: Operation not supported"])


@pytest.mark.parametrize("chip", ["RTL8127A", "RTL9151A"])
def test_the_plan_says_the_72_chips_refuse_coalescing(chip: str) -> None:
    item = _coalescing_plan(chip, "7.2.0-1-arm64")
    assert not item.applicable
    assert f"r8169 refuses coalescing on the {chip[:7]} (EOPNOTSUPP;" in item.reason, item.reason
    assert "r8169_main.c: rtl_set_coalesce" in item.reason


@pytest.mark.parametrize("chip", ["RTL8125B", "RTL8126A"])
def test_the_612_list_still_holds_beside_the_extension(chip: str) -> None:
    """The control: the 6.1/6.12 chips keep their refusal on 7.2 (extended, not replaced)."""
    item = _coalescing_plan(chip, "7.2.0-1-arm64")
    assert not item.applicable and f"on the {chip[:7]} (EOPNOTSUPP" in item.reason


def test_a_gigabit_chip_still_takes_coalescing_on_72() -> None:
    item = _coalescing_plan("RTL8168h/8111h", "7.2.0-1-arm64")
    assert "refuses coalescing" not in item.reason
