"""Issue 21, s16 left21 row 6: a Pi 5 on a Raspberry Pi kernel that carries RP1's coalescing
shows tx-usecs 48 after `ethtool -C eth0 rx-usecs 50`. The source says 48 is right:
ethnl_set_coalesce (net/ethtool/coalesce.c, 6.1 and 6.12) reads the values first and hands the
driver every one, given or not; gem_set_coalesce (raspberrypi/linux macb_main.c) stores
1000 * 49 / 800 = 61 ticks for the untouched 49 and gem_get_coalesce reads 61 * 800 / 1000 = 48.
So the lab is right and sbctune was wrong: it wrote 49 to get 49 (a revert, the values a
restart sets back) and left tx-usecs to the driver's re-store. Now a write gives the value that
reads back as wanted (49 is written 50: 62 ticks) with the driver's other such value beside it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sbctune.tuning import catalog, driver_caps, reopen_order
from sbctune.tuning.knobs import write_argvs
from sbctune.tuning.model import Change, PlannedTweak
from tests.fake_ethtool_support import ethtool, lab_state
from tests.unit.test_lab_open_resets import coalesce_values
from tests.unit.test_lab_unknown_carriage import PI5, planned

pytestmark = pytest.mark.posix_only("the lab's fake ethtool locks its state with fcntl")

KERNEL = "6.18.39+rpt-rpi-2712"  # rpi-6.18.y: carries gem_get/set_coalesce (driver_caps.json)


def write(state: str, change: Change, value: str | None) -> None:
    for argv in write_argvs(change, value, restoring=value == change.before):
        assert argv[0] == "ethtool"
        assert ethtool(state, *argv[1:])[2] == 0, argv


def rx_tx(state: str) -> tuple[str, str]:
    values = coalesce_values(state)
    return values["rx-usecs"], values["tx-usecs"]


def test_the_lab_re_stores_an_untouched_49_as_48_as_the_source_does(tmp_path: Path) -> None:
    state = lab_state(tmp_path, "macb", PI5, KERNEL)
    assert rx_tx(state) == ("49", "49")  # gem_init_intmod: 62 ticks
    assert ethtool(state, "-C", "eth0", "rx-usecs", "50")[2] == 0
    assert rx_tx(state) == ("49", "48")
    assert ethtool(state, "-C", "eth0", "rx-usecs", "49")[2] == 0  # unchanged: not handed on
    assert rx_tx(state) == ("49", "48")


def test_pi5_coalescing_keeps_tx_and_its_revert_puts_both_back(tmp_path: Path) -> None:
    """Before: apply left tx-usecs 48 (not the user's 49) and the revert wrote rx-usecs 49,
    which reads 48: neither value came back."""
    state = lab_state(tmp_path, "macb", PI5, KERNEL)
    item = planned("irq-coalescing", "-c", ethtool(state, "-c", "eth0")[0], "", 0, KERNEL)
    (change,) = item.changes
    assert (change.before, change.after) == ("49", "52")
    write(state, change, change.after)
    assert rx_tx(state) == ("52", "49")
    write(state, change, change.before)
    assert rx_tx(state) == ("49", "49")
    assert Change.from_json(change.to_json()) == change  # session.json keeps it


def test_a_ring_change_and_coalescing_keep_the_pi5s_tx_usecs(tmp_path: Path) -> None:
    """A ring change restarts the interface (macb_set_ringparam), whose open sets 50 us back
    (read 49); tx-usecs, which no tweak writes, is written again after it
    (reopen_order.note_resets), then rx-usecs 52. Before: `-C tx-usecs 49` changed nothing and
    the rx-usecs write re-stored tx as 48."""
    state = lab_state(tmp_path, "macb", PI5, KERNEL)
    shown = ethtool(state, "-c", "eth0")[0]
    coalescing = planned("irq-coalescing", "-c", shown, "", 0, KERNEL)
    rings = PlannedTweak(catalog.tweak("nic-rings"), True, "bigger rings",
                         [Change("ethtool", "eth0 -G rx", "512", "8192")])  # fmt: skip
    facts = reopen_order.open_facts("macb", "eth0", KERNEL, PI5)
    values: dict[str, int | None] = {"rx-usecs": 49, "tx-usecs": 49}
    kept = reopen_order.note_resets([rings, coalescing], facts, values)
    assert [k.target for k in kept] == ["eth0 -C tx-usecs"]
    changes = [*rings.changes, *coalescing.changes]
    for at, index in enumerate(reopen_order.apply_order(changes, facts)):
        if at == reopen_order.after_last_restart(reopen_order.apply_order(changes, facts),
                                                 changes, facts):  # fmt: skip
            for keep in kept:
                write(state, keep, keep.after)
        write(state, changes[index], changes[index].after)
    assert rx_tx(state) == ("52", "49")


@pytest.mark.parametrize(("value", "written"), [(49, 50), (48, 48), (52, 52), (0, 0), (204, 204)])
def test_the_written_value_reads_back_as_wanted(value: int, written: int) -> None:
    floors = {"rx-usecs": 800}
    assert driver_caps.floor_written(floors, "rx-usecs", value) == written
    assert written * 1000 // 800 * 800 // 1000 == value


def test_a_driver_without_floor_ticks_writes_values_as_they_are() -> None:
    facts = driver_caps.caps("bcmgenet", "6.12.0", None)
    assert facts is not None
    assert driver_caps.coalesce_written(facts.facts, "rx-usecs", [57], {"tx-usecs": 1}) == ()


@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=40),
                    lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                    max_leaves=12))  # fmt: skip
def test_a_stored_written_record_is_read_or_refused(data: object) -> None:
    """session.json is read back from the Pi: any `written` either loads as safe words or is a
    ValueError, never a crash of another kind or words outside [a-z0-9-]."""
    record = {"kind": "ethtool", "target": "eth0 -C rx-usecs", "before": "49", "after": "52",
              "written": data}  # fmt: skip
    try:
        change = Change.from_json(record)
    except ValueError:
        return
    for value, words in change.written:
        assert all(w.replace("-", "").isalnum() and w.isascii() for w in (value, *words))
