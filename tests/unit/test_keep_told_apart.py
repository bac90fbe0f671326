"""Walk 15: after Tune & Measure kept only the governor, Results said "Tune & Measure: kept, it
helped: Pi → PC half-duplex: faster by 97 to 106 Mbit/s", the three tweaks' figure together;
the governor alone gave 97 to 102. The verdict quotes what was kept, by its own figure."""

from __future__ import annotations

from sbctune.compare.attribution import Contribution, Effect
from sbctune.workflow.keeping import NONE_ALONE, NOT_APPLIED, KeepDecision, told_apart

BOTH_WAYS = "Pi → PC half-duplex: faster by 97 to 106 Mbit/s"
TOGETHER = KeepDecision(True, [BOTH_WAYS], [], f"kept, it helped: {BOTH_WAYS}")


def _alone(tweak: str, verdict: str, text: str) -> Contribution:
    return Contribution(tweak, 7, [Effect("Pi → PC half-duplex", 99.0, 97.0, 102.0, verdict, text)])


def test_the_verdict_quotes_the_kept_tweak_alone() -> None:
    found = [
        _alone("cpu-governor-performance", "faster", "faster by 97 to 102 Mbit/s"),
        _alone("rps-rfs", "no_change", "no change beyond noise"),
        _alone("socket-buffers", "no_change", "no change beyond noise"),
    ]
    verdict = told_apart(TOGETHER, found, kept=True)
    assert verdict.keep
    assert verdict.reason == (
        "kept what helped on its own: CPU frequency governor: performance: Pi → PC half-duplex: "
        "faster by 97 to 102 Mbit/s"
    )
    assert "106" not in verdict.reason and "RPS" not in verdict.reason


def test_nothing_kept_is_not_called_kept() -> None:
    none = [_alone("rps-rfs", "no_change", "no change beyond noise")]
    assert told_apart(TOGETHER, none, kept=False) == KeepDecision(False, [], [], NONE_ALONE)
    helped = [_alone("rps-rfs", "faster", "faster by 5 to 9 Mbit/s")]
    failed = told_apart(TOGETHER, helped, kept=False)
    assert not failed.keep and failed.reason == NOT_APPLIED
