"""Issue 21: a change that restarts the interface never undoes another change. The order of
the writes, of revert.sh and of at-boot.sh comes from the driver table's facts (`restarts_on`,
`coalesce_reset_on_open`), never from a per-driver rule: macb on the Raspberry Pi tree
(macb_set_ringparam closes and opens; gem_init_intmod writes 50 us at every open), stmmac
(`-G`/`-L`/MTU reopen; __stmmac_open -> stmmac_init_coalesce resets TX coalescing and
rx-frames, keeps rx-usecs), r8169 (rtl_hw_start_8168 writes IntrMitigate 0 at every open)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from sbctune.remote.batch import Step, StepResult
from sbctune.tuning import reopen_order
from sbctune.tuning.catalog import tweak
from sbctune.tuning.changes import Written, judge, outcome, run_changes
from sbctune.tuning.model import Change, PlannedTweak
from sbctune.tuning.reopen_order import apply_order, open_facts, revert_order
from sbctune.tuning.scripts import apply_at_boot_script, revert_script
from sbctune.workflow.tuning_words import outcome_line
from tests.plain_words import jargon

SESSION = "20250101T120000Z-abcdef"
PI5_KERNEL = "6.18.39+rpt-rpi-2712"  # rpi-6.18.y: RP1's coalescing and its reset at open


def ethtool(option: str, param: str, before: str, after: str) -> Change:
    return Change("ethtool", f"eth0 {option} {param}", before, after)


# What the planners make, in the catalog's order (nic-rings, irq-coalescing, flow-control,
# mtu-jumbo): rings to the maximum, rx-usecs to the driver's stored 50 us.
RINGS = [ethtool("-G", "rx", "512", "8192"), ethtool("-G", "tx", "512", "8192")]
MACB_COALESCING = [ethtool("-C", "rx-usecs", "40", "52")]
PAUSE = [ethtool("-A", "rx", "off", "on"), ethtool("-A", "tx", "off", "on")]


def _targets(changes: Sequence[Change], order: Sequence[int]) -> list[str]:
    return [changes[i].target for i in order]


def _ethtool_lines(script: str) -> list[str]:
    """Each `ethtool OPTION eth0 PARAM VALUE [PARAM VALUE]` line of a script as "OPTION PARAM"
    ("-G tx rx": one command for both rings)."""
    found = []
    for line in script.splitlines():
        words = line.split()
        if "ethtool" in words and not line.startswith("#"):
            at = words.index("ethtool")
            args = [w for w in words[at + 3 :] if not w.startswith((">>", "2>"))]
            params = args[::2] if words[at + 1] == "-G" else args[:1]
            found.append(" ".join([words[at + 1], *params]))
    return found


def test_the_pi5s_facts_come_from_the_table() -> None:
    facts = open_facts("macb", "eth0", PI5_KERNEL, "RP1")
    assert facts is not None
    assert facts.resets == {"rx-usecs", "tx-usecs"} and "rings" in facts.restarts
    assert "macb_init_hw" in facts.where
    # Debian's macb has no RP1 coalescing, so nothing its open could reset
    assert open_facts("macb", "eth0", "6.12.57+deb13-arm64", "Cadence GEM") is None
    assert open_facts("igb", "eth0", "6.12.57+deb13-arm64") is None  # igb's open keeps its ITR


def test_the_pi5s_revert_puts_the_rings_back_before_the_coalescing() -> None:
    """Applied as rings then coalescing; today's revert (newest first) restored rx-usecs 40
    and then the rings, whose reopen wrote 50 us again (read back 49)."""
    facts = open_facts("macb", "eth0", PI5_KERNEL, "RP1")
    changes = [*RINGS, *MACB_COALESCING]
    assert _targets(changes, apply_order(changes, facts)) == [
        "eth0 -G rx", "eth0 -G tx", "eth0 -C rx-usecs"
    ]  # fmt: skip
    assert _targets(changes, revert_order(changes, facts)) == [
        "eth0 -G tx", "eth0 -G rx", "eth0 -C rx-usecs"
    ]  # fmt: skip
    lines = _ethtool_lines(revert_script(SESSION, changes, None, facts))
    assert lines == ["-G tx rx", "-C rx-usecs"], lines
    boot = _ethtool_lines(apply_at_boot_script(SESSION, changes, facts))
    assert boot == ["-G rx tx", "-C rx-usecs"], boot


def test_the_pi5s_apply_writes_the_rings_first_whatever_order_they_come_in() -> None:
    facts = open_facts("macb", "eth0", PI5_KERNEL, "RP1")
    changes = [*MACB_COALESCING, *RINGS]
    assert _targets(changes, apply_order(changes, facts)) == [
        "eth0 -G rx", "eth0 -G tx", "eth0 -C rx-usecs"
    ]  # fmt: skip
    boot = _ethtool_lines(apply_at_boot_script(SESSION, changes, facts))
    assert boot == ["-G rx tx", "-C rx-usecs"], boot
    revert = _ethtool_lines(revert_script(SESSION, changes, None, facts))
    assert revert == ["-G tx rx", "-C rx-usecs"], revert


def test_stmmac_orders_what_its_open_resets_and_leaves_rx_usecs_where_it_is() -> None:
    """stmmac's open keeps rx_riwt (rx-usecs: the coalescing tweak's only change), so an MTU
    change after it stays after it; a tx-usecs change (reset by stmmac_init_coalesce) is
    written after the MTU and ring changes and put back after them."""
    facts = open_facts("stmmac", "eth0", "6.12.57+deb13-arm64", "RK3588")
    assert facts is not None and facts.resets == {"tx-usecs", "tx-frames", "rx-frames"}
    assert {"rings", "mtu", "channels"} <= facts.restarts
    mtu = Change("mtu", "eth0", "1500", "9000")
    kept = [ethtool("-C", "rx-usecs", "0", "50"), mtu]
    assert apply_order(kept, facts) == [0, 1] and revert_order(kept, facts) == [1, 0]
    reset = [ethtool("-C", "tx-usecs", "1000", "200"), *RINGS, mtu]
    assert _targets(reset, apply_order(reset, facts)) == [
        "eth0 -G rx", "eth0 -G tx", "eth0", "eth0 -C tx-usecs"
    ]  # fmt: skip
    assert _targets(reset, revert_order(reset, facts)) == [
        "eth0", "eth0 -G tx", "eth0 -G rx", "eth0 -C tx-usecs"
    ]  # fmt: skip


def test_r8169_puts_flow_control_before_the_coalescing_it_would_lose() -> None:
    """r8169 restarts the link for pause (rtl8169_set_pauseparam) and its open writes
    IntrMitigate 0: in the catalog's order flow control came after the coalescing."""
    facts = open_facts("r8169", "eth0", "6.12.57+deb13-arm64", "RTL8168h")
    assert facts is not None and facts.resets == {"rx-usecs", "rx-frames", "tx-usecs",
                                                   "tx-frames"}  # fmt: skip
    changes = [ethtool("-C", "rx-usecs", "0", "50"), *PAUSE]
    assert _targets(changes, apply_order(changes, facts)) == [
        "eth0 -A rx", "eth0 -A tx", "eth0 -C rx-usecs"
    ]  # fmt: skip
    assert _targets(changes, revert_order(changes, facts)) == [
        "eth0 -A tx", "eth0 -A rx", "eth0 -C rx-usecs"
    ]  # fmt: skip


def test_bcmgenet_keeps_a_tweaks_own_order_when_nothing_it_writes_is_reset() -> None:
    """bcmgenet's open resets tx-frames only; the coalescing tweak's values go before
    adaptive-rx (audit 6a row 10) and stay so."""
    facts = open_facts("bcmgenet", "eth0", "6.12.57+deb13-arm64")
    assert facts is not None and facts.resets == {"tx-frames"}
    changes = [ethtool("-C", "rx-usecs", "57", "74"), ethtool("-C", "rx-frames", "1", "32"),
               ethtool("-C", "adaptive-rx", "off", "on"), *PAUSE]  # fmt: skip
    assert apply_order(changes, facts) == [0, 1, 2, 3, 4]
    assert revert_order(changes, facts) == [4, 3, 2, 1, 0]


class _Recorder:
    """Stands for the SSH session in run_changes: records the steps, answers every one."""

    def __init__(self) -> None:
        self.steps: list[Step] = []

    async def run_script(self, steps: Sequence[Step], **_: Any) -> list[StepResult]:
        self.steps = list(steps)
        return [StepResult(s, 1 if s.key.startswith("r") else 0, b"", b"") for s in steps]


async def test_the_settings_the_open_resets_are_read_back_after_every_write() -> None:
    facts = open_facts("macb", "eth0", PI5_KERNEL, "RP1")
    session = _Recorder()
    changes = [*MACB_COALESCING, *RINGS]
    written = await run_changes(session, changes, f"/var/lib/sbctune/tuning/{SESSION}",
                                facts=facts)  # type: ignore[arg-type]  # fmt: skip
    keys = [s.key.split(".")[0] for s in session.steps]
    assert keys == ["w1", "r1", "r2", "w0", "r0"], keys  # one `-G rx N tx M`
    assert [w.change for w in written] == changes  # the session's order, for judging
    assert written[0].set_back and not written[1].set_back


def test_a_value_the_open_set_back_is_told_in_plain_words() -> None:
    facts = open_facts("macb", "eth0", PI5_KERNEL, "RP1")
    assert facts is not None
    item = PlannedTweak(tweak("irq-coalescing"), True, "fewer, larger interrupts",
                        list(MACB_COALESCING))  # fmt: skip
    words = reopen_order.set_back_words(facts, "49")
    shown = outcome(judge(item, [Written(MACB_COALESCING[0], 2, None, "49", words)]))
    line = outcome_line(shown)  # what Results and `tune apply` show
    assert line.startswith("Interrupt coalescing: failed"), line
    assert "read back '49' after writing '52': the macb driver set it back to 49" in line, line
    assert "another change restarted the interface" in line and "not in force" in line, line
    assert not jargon(line), jargon(line)


@pytest.mark.parametrize("driver", ["igb", "lan78xx", "r8152"])
def test_drivers_whose_open_resets_nothing_keep_the_order(driver: str) -> None:
    facts = open_facts(driver, "eth0", "6.12.57+deb13-arm64")
    changes = [*MACB_COALESCING, *RINGS, *PAUSE]
    assert apply_order(changes, facts) == list(range(5))
    assert revert_order(changes, facts) == [4, 3, 2, 1, 0]


def test_a_ring_change_says_which_values_of_the_users_its_restart_sets_back() -> None:
    """Coalescing the plan does not write after the restart is set back by it: the rings
    tweak says so, with the values read now; what the plan writes after it is not named."""
    facts = open_facts("macb", "eth0", PI5_KERNEL, "RP1")
    rings = PlannedTweak(tweak("nic-rings"), True, "rings at the driver's maximum", list(RINGS))
    coalescing = PlannedTweak(tweak("irq-coalescing"), True, "fewer, larger interrupts",
                              list(MACB_COALESCING))  # fmt: skip
    kept = reopen_order.note_resets([rings, coalescing], facts, {"rx-usecs": 40, "tx-usecs": 40})
    # written with rx-usecs beside it: gem_set_coalesce stores both at every set (s16 left21)
    words = (("40", ("40", "rx-usecs", "40")),)
    assert kept == [Change("ethtool", "eth0 -C tx-usecs", "40", "40", written=words)]
    assert "restarting the interface sets tx-usecs (now 40) back to the macb driver's" in (
        rings.reason
    ), rings.reason
    assert "rx-usecs" not in rings.reason and "writes it again after the restart" in rings.reason
    # revert.sh: the rings back, the user's tx-usecs again, then the plan's rx-usecs
    changes = [*RINGS, *MACB_COALESCING]
    lines = _ethtool_lines(revert_script(SESSION, changes, None, facts, kept))
    assert lines == ["-G tx rx", "-C tx-usecs", "-C rx-usecs"], lines
    assert coalescing.reason == "fewer, larger interrupts"
    alone = PlannedTweak(tweak("nic-rings"), True, "rings at the driver's maximum", list(RINGS))
    reopen_order.note_resets([alone], open_facts("igb", "eth0", "6.12.57+deb13-arm64"),
                             {"rx-usecs": 3})  # fmt: skip
    assert alone.reason == "rings at the driver's maximum"


async def test_the_users_own_values_are_written_again_right_after_the_restart() -> None:
    facts = open_facts("macb", "eth0", PI5_KERNEL, "RP1")
    session = _Recorder()
    kept = [Change("ethtool", "eth0 -C tx-usecs", "40", "40")]
    await run_changes(session, [*MACB_COALESCING, *RINGS], f"/var/lib/sbctune/tuning/{SESSION}",
                      facts=facts, kept=kept)  # type: ignore[arg-type]  # fmt: skip
    keys = [s.key.split(".")[0][0] + ("" if s.key[0] == "k" else s.key.split(".")[0][1:])
            for s in session.steps]  # fmt: skip
    assert keys == ["w1", "r1", "r2", "k", "w0", "r0"], keys
    assert session.steps[3].argv[-2:] == ("tx-usecs", "40")
