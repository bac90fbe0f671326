"""Issue 21, s16 left21 row 7: "Keep across reboot" after a confirmed session (the GUI's
TuningController._persist) puts the session back, plans its tweaks again and applies them with
--persist, so at-boot.sh writes what the new plan says. Before, that plan used the Tune page's
consent tick as it is now and today's planning, not the session's: a value planned differently
(another option, another reading) was made permanent though never confirmed. Now the plan is
made with the session's own options and writes the confirmed values (rules.as_confirmed)."""

from __future__ import annotations

from sbctune.tuning import catalog
from sbctune.tuning.model import AppliedSession, Change, PlannedTweak, TuningPlan, TweakOutcome
from sbctune.workflow.rules import as_confirmed

RPS = "/sys/class/net/eth0/queues/rx-0/rps_cpus"


def _plan(*items: PlannedTweak) -> TuningPlan:
    return TuningPlan("eth0", list(items))


def test_the_kept_plan_writes_the_confirmed_values() -> None:
    # confirmed: RPS on CPUs 1-3 (the user left the IRQ's CPU 0 out) and rx-usecs 52 written
    # with tx-usecs beside it; the new plan would spread RPS on all four and add a sysctl
    words = (("52", ("52", "tx-usecs", "50")), ("49", ("50", "tx-usecs", "50")))
    confirmed_rx = Change("ethtool", "eth0 -C rx-usecs", "49", "52", written=words)
    applied = AppliedSession(
        "20261129T165500Z-abcdef", 0.0,
        [TweakOutcome("rps-rfs", "applied", "", [Change("file", RPS, "0", "e", RPS)]),
         TweakOutcome("irq-coalescing", "applied", "", [confirmed_rx]),
         TweakOutcome("offloads-on", "failed", "refused", [])],
        options={"rps_exclude_irq_cpu": True},
    )  # fmt: skip
    flows = Change("sysctl", "net.core.rps_sock_flow_entries", "0", "32768")
    rps = PlannedTweak(catalog.tweak("rps-rfs"), True, "spread",
                       [Change("file", RPS, "0", "f", RPS), flows])  # fmt: skip
    coalescing = PlannedTweak(catalog.tweak("irq-coalescing"), True, "fewer interrupts",
                              [Change("ethtool", "eth0 -C rx-usecs", "49", "52")])  # fmt: skip
    offloads = PlannedTweak(catalog.tweak("offloads-on"), True, "on",
                            [Change("ethtool", "eth0 -K tso", "off", "on")])  # fmt: skip
    plan = _plan(rps, coalescing, offloads)
    said = as_confirmed(plan, applied)
    assert [(c.target, c.after) for c in rps.changes] == [(RPS, "e")]
    assert coalescing.changes == [confirmed_rx]  # how 52 and 49 are written comes along
    assert not offloads.applicable and offloads.changes == []
    assert said == [f"{RPS}: keeps the confirmed e, not f",
                    "net.core.rps_sock_flow_entries: not set by the confirmed session, "
                    "left out"]  # fmt: skip


def test_a_plan_that_agrees_is_left_as_it_is() -> None:
    change = Change("ethtool", "eth0 -G rx", "512", "8192")
    applied = AppliedSession("s", 0.0, [TweakOutcome("nic-rings", "applied", "", [change])])
    item = PlannedTweak(catalog.tweak("nic-rings"), True, "rings", [change])
    assert as_confirmed(_plan(item), applied) == []
    assert item.applicable and item.changes == [change]
    assert applied.options == {}  # a session from before options were kept
