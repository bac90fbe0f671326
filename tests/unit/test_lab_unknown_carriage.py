"""Issue 21: the lab is never kinder than the kernel it may be. Where the driver table does not
know whether the running Raspberry Pi kernel carries an op (driver_caps.json `rpi_series`: macb's
RP1 coalescing is carried from rpi-6.18.y on and on rpi-6.1.y (audit 24), unknown on
rpi-6.6.y/6.12.y and without a kernel version), the
lab answers as the less capable kernel ("Operation not supported"), and the planner tries it and
says in plain words that this kernel may not support it. A kernel the table says carries an op
gets it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sbctune.inventory.model import Board, Inventory, Nic
from sbctune.remote import batch
from sbctune.remote.batch import StepResult
from sbctune.tuning import catalog, driver_caps
from sbctune.tuning.kinds import PLANNERS, Context
from sbctune.tuning.model import PlannedTweak
from sbctune.tuning.probe import Facts
from sbctune.ui.reason_words import without_sources
from tests.fake_ethtool_support import ethtool, lab_state
from tests.plain_words import jargon
from tests.rpi_branches import CARRYING_KERNEL, carrying

pytestmark = pytest.mark.posix_only("the lab's fake ethtool locks its state with fcntl")

PI5 = "Cadence GEM in RP1"
NOT_SUPPORTED = "netlink error: Operation not supported"
# a real `ethtool --show-eee` with EEE enabled and active (a Pi 3 B+, its source beside it): the
# answer a Pi 5 whose kernel has macb_get_eee would give in the same format
EEE_ON = (
    Path(__file__).resolve().parents[1]
    / "captures/ethtool_eee/pi3bplus_lan78xx_enabled_active_2882.txt"
).read_text(encoding="utf-8")
# the kernels whose branch is not known to carry macb's RP1 coalescing, then one that is
# (rpi-6.1.y is too since audit 24 row 2: test_lab_audit24)
KERNELS = ["", "6.6.51+rpt-rpi-2712", "6.12.55+rpt-rpi-2712", "6.18.39+rpt-rpi-2712"]


def lab(tmp_path: Path, kernel: str, driver: str = "macb", chip: str = PI5) -> str:
    return lab_state(tmp_path, driver, chip, kernel)


def planned(
    tweak_id: str, option: str, out: str, err: str, code: int, kernel: str, chip: str | None = PI5
) -> PlannedTweak:
    found = Facts("eth0")
    found.steps[f"ethtool {option}"] = StepResult(
        batch.Step(("true",), f"ethtool {option}"), code, out.encode(), err.encode()
    )
    nic = Nic("eth0", driver="macb", chip=chip)
    tweak = catalog.tweak(tweak_id)
    inventory = Inventory(board=Board(kernel=kernel or None), nics=[nic])
    return PLANNERS[tweak.kind](Context(tweak, found, inventory, nic, {}, {}, (tweak_id,)))


@pytest.mark.parametrize("kernel", KERNELS[:-1])
def test_unknown_coalescing_is_not_supported_in_the_lab(tmp_path: Path, kernel: str) -> None:
    """No source shows rpi-6.6.y or rpi-6.12.y (or an unknown kernel) carrying
    gem_get/set_coalesce: -c and -C answer as a kernel without them (before: rx-usecs 49, kinder
    than 6.12 may be)."""
    caps = driver_caps.caps("macb", kernel or None, PI5)
    assert caps is not None and not caps.has("get_coalesce") and "set_coalesce" in caps.unsure
    state = lab(tmp_path, kernel)
    assert ethtool(state, "-c", "eth0")[1:] == ([NOT_SUPPORTED], 1)
    assert ethtool(state, "-C", "eth0", "rx-usecs", "52")[1] == [NOT_SUPPORTED]


def test_a_618_pi5_shows_and_takes_the_rp1_coalescing(tmp_path: Path) -> None:
    """s12: rpi-6.18.y carries the RP1 coalescing (driver_caps.json, inferred from code: PR #7340
    and a fork of that era): a 6.18 profile answers -c as gem_get_coalesce (50 us at open reads
    back 49), rounds -C to 800 ns ticks (52 -> 52, 50 -> 49) and the planner plans it without
    the "may not support" caveat (before: "Operation not supported", as an unknown kernel)."""
    kernel = KERNELS[-1]
    caps = driver_caps.caps("macb", kernel, PI5)
    assert caps is not None and caps.has("get_coalesce") and not caps.unsure & {"get_coalesce"}
    state = lab(tmp_path, kernel)
    out, err, code = ethtool(state, "-c", "eth0")
    assert code == 0 and "rx-usecs: 49\n" in out and "tx-usecs: 49\n" in out
    item = planned("irq-coalescing", "-c", out, "\n".join(err), code, kernel)
    assert item.applicable and "may not support" not in item.reason
    assert ethtool(state, "-C", "eth0", "rx-usecs", "50")[2] == 0
    assert "rx-usecs: 49\n" in ethtool(state, "-c", "eth0")[0]


@pytest.mark.parametrize("kernel", KERNELS)
def test_every_rpi_op_is_in_the_lab_only_where_the_table_says_carried(
    tmp_path: Path, kernel: str
) -> None:
    """Table -> lab answer, for every op the Raspberry Pi tree adds to macb: shown exactly where
    rpi_carried says True (EEE and coalescing: rpi-6.18.y), refused otherwise."""
    state = lab(tmp_path, kernel)
    shows = {"get_coalesce": "-c", "get_eee": "--show-eee"}
    for fact in driver_caps.table()["hand"]["macb"]:
        if fact["fact"] != "ops_added" or fact.get("tree") != driver_caps.RPI_TREE:
            continue  # mainline's own ops from 7.1 (audit 34a row 4) hold by release, not branch
        carried = driver_caps.rpi_carried(fact, kernel or None)
        for op in set(fact["value"]) & set(shows):
            _out, err, code = ethtool(state, shows[op], "eth0")
            assert (code == 0) is (carried is True), (kernel, op, carried)
            if carried is not True:
                assert err == [NOT_SUPPORTED], (kernel, op)


def test_a_carrying_kernel_gets_the_rp1_coalescing_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Were rpi-6.19.y shown to carry it, a 6.19 profile answers as gem_get_coalesce (50 us at
    open reads back 49) while a 6.12 one still refuses: the branch decides, not the lab."""
    carrying(monkeypatch)
    on_619 = lab(tmp_path, CARRYING_KERNEL)
    shown = ethtool(on_619, "-c", "eth0")[0]
    assert "rx-usecs: 49\n" in shown and "tx-usecs: 49\n" in shown
    item = planned("irq-coalescing", "-c", shown, "", 0, CARRYING_KERNEL)
    assert item.applicable and "may not support" not in item.reason
    assert ethtool(lab(tmp_path, "6.12.55+rpt-rpi-2712"), "-c", "eth0")[1] == [NOT_SUPPORTED]


@pytest.mark.parametrize("chip", [PI5, None])
def test_the_planner_says_an_unknown_kernel_refused_coalescing_in_plain_words(
    tmp_path: Path, chip: str | None
) -> None:
    """The lab's Pi 5 (kernel unknown) answers -c "Operation not supported": the plan says this
    kernel does not support it, in words the Tune page shows without source paths; also where
    the inventory names no chip (the lab's Pi 5 captured nothing), since with no kernel version
    the Raspberry Pi tree may be the one running."""
    out, err, code = ethtool(lab(tmp_path, ""), "-c", "eth0")
    item = planned("irq-coalescing", "-c", out, "\n".join(err), code, "", chip)
    assert not item.applicable
    shown = without_sources(item.reason)
    assert "does not support interrupt coalescing" in shown
    assert "Operation not supported" in shown and "not possible" in shown and not jargon(shown)
    assert "macb_main.c" in item.reason and "macb_main.c" not in shown  # cited, for the tooltip


@pytest.mark.parametrize("kernel", ["", "6.12.55+rpt-rpi-2712"])
def test_a_kernel_that_answers_the_read_is_tried_and_told_it_may_not_be_supported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kernel: str
) -> None:  # before: 6.12 and unknown kernels were planned as if the op were certain
    """A real Pi 5 whose kernel does answer -c (which branches do is unknown): the change is
    planned against the driver's rounding (50 us reads back 49, so 52) and the user reads that
    this kernel may not support it, and that a refusal is reported as not possible."""
    carrying(monkeypatch)
    out = ethtool(lab(tmp_path, CARRYING_KERNEL), "-c", "eth0")[0]  # what such a Pi shows
    monkeypatch.undo()
    item = planned("irq-coalescing", "-c", out, "", 0, kernel)
    assert item.applicable, item.reason
    assert [(c.target, c.before, c.after) for c in item.changes] == [
        ("eth0 -C rx-usecs", "49", "52")
    ]
    shown = without_sources(item.reason)
    assert "may not support interrupt coalescing" in shown
    assert "reported as not possible" in shown and "macb_main.c" not in shown
    assert not jargon(shown)
    assert ("version unknown" in shown) is (not kernel)


def test_eee_on_a_branch_no_paste_covers_is_tried_with_the_same_words() -> None:
    """The same words on EEE's path (DriverCaps.unsure): rpi-6.6.y is unknown for macb_set_eee."""
    found = Facts("eth0")
    for key, text in (("ethtool --show-eee", EEE_ON), ("ssh-route", '[{"dev": "wlan0"}]')):
        found.steps[key] = StepResult(batch.Step(("true",), key), 0, text.encode(), b"")
    nic = Nic("eth0", driver="macb", chip=PI5)
    tweak = catalog.tweak("eee-off")
    inventory = Inventory(board=Board(kernel="6.6.51+rpt-rpi-2712"), nics=[nic])
    item = PLANNERS[tweak.kind](Context(tweak, found, inventory, nic, {}, {}, ("eee-off",)))
    assert item.applicable, item.reason
    assert "may not support Energy-Efficient Ethernet" in without_sources(item.reason)
