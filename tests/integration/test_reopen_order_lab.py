"""Issue 21 over SSH: a change that restarts the interface never undoes another change. On a Pi 5
running a Raspberry Pi kernel that carries RP1's coalescing (rpi-6.18.y), macb_set_ringparam
closes and opens the interface and macb_open -> macb_init_hw -> gem_init_intmod writes 50 us
(read back 49) again (driver_caps.json `coalesce_reset_on_open`). With the ring change and
interrupt coalescing in one session, applying and then reverting must leave both as the user
had them: the revert puts the rings back first and the coalescing after it. Read back from
the lab (its ethtool models the open's reset; real sshd)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sbctune.advice.inspect import inspect_host
from sbctune.tuning import apply, plan, revert
from tests.integration.test_open_resets_lab import coalesce
from tests.lab_profiles import profile_copy
from tests.lab_support import connect_to_lab, forget_session, in_lab

pytestmark = [pytest.mark.lab]

KERNEL = "6.18.39+rpt-rpi-2712"  # rpi-6.18.y: RP1's gem_set_coalesce is carried


def rings(lab: Any) -> str:
    return in_lab(lab, "ethtool -g eth0").split("Current")[1]


async def test_pi5_rings_and_coalescing_apply_and_revert_keep_the_users_coalescing(
    lab_factory: Any, tmp_path: Path
) -> None:
    lab = lab_factory(str(profile_copy(tmp_path, "pi5-macb", "pi5-618", kernel=KERNEL)))
    in_lab(lab, "ethtool -C eth0 rx-usecs 40 tx-usecs 40")  # the user's own (50 ticks: 40)
    before, rings_before = coalesce(lab, "eth0"), rings(lab)
    assert before["rx-usecs"] == "40" and "RX:\t\t512" in rings_before, (before, rings_before)
    async with await connect_to_lab(lab, tmp_path) as session:
        inventory, _ = await inspect_host(session)
        the_plan = await plan(session, inventory, "eth0", ["nic-rings", "irq-coalescing"],
                              {"allow_link_restart": True})  # fmt: skip
        ring_item, coalescing = the_plan.item("nic-rings"), the_plan.item("irq-coalescing")
        assert ring_item is not None and ring_item.applicable and ring_item.restarts_link
        # tx-usecs is not the plan's: the restart sets it back, so it is written again
        said = f"sets tx-usecs (now {before['tx-usecs']}) back to the macb driver's own value"
        assert said in ring_item.reason, ring_item.reason
        assert coalescing is not None and coalescing.applicable, coalescing
        assert [c.after for c in coalescing.changes] == ["52"], coalescing.changes
        applied = await apply(session, the_plan, guard_seconds=60,
                              reconnect=lambda: connect_to_lab(lab, tmp_path))  # fmt: skip
        try:
            for tweak in ("nic-rings", "irq-coalescing"):
                outcome = applied.outcome(tweak)
                assert outcome is not None and outcome.status == "applied", outcome
            shown = coalesce(lab, "eth0")  # in force after the reopen; the user's tx kept
            assert (shown["rx-usecs"], shown["tx-usecs"]) == ("52", before["tx-usecs"]), shown
            assert "RX:\t\t8192" in rings(lab)
            assert await revert(session) == [applied.id]
        finally:
            forget_session(applied.id)
    after = coalesce(lab, "eth0")
    assert after["rx-usecs"] == "40", after  # before the fix: 49, the open's own value
    assert after["tx-usecs"] == before["tx-usecs"] != "49", (after, before)
    assert after == before
    assert rings(lab) == rings_before
