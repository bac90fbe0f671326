"""walk27: `tune plan` and `tune apply` said "not possible: eth0 -K tso: fixed off by the
driver", ethtool's syntax, where the Tune page and the rest of the product name a setting in
words first: "TCP segmentation offload (eth0 -K tso)" (setting_names.json, one mechanism for
all). The pi5-macb lab's case: macb keeps TSO fixed off (NETIF_F_TSO not in hw_features)."""

from __future__ import annotations

from sbctune.cli.tune_plan_text import plan_lines
from sbctune.tuning import catalog
from sbctune.tuning.changes import Written, judge, outcome
from sbctune.tuning.model import Change, PlannedTweak, TuningPlan
from sbctune.workflow.tuning_words import outcome_line

REFUSED = ("eth0 -K tso", "fixed off by the driver")
NAMED = "TCP segmentation offload (eth0 -K tso): fixed off by the driver"


def _offloads() -> PlannedTweak:
    return PlannedTweak(
        catalog.tweak("offloads-on"), True, "GRO/GSO on",
        changes=[Change("ethtool", "eth0 -K gro", "off", "on")], impossible=[REFUSED],
    )  # fmt: skip


def test_tune_plan_names_the_refused_setting_in_words() -> None:
    lines = plan_lines(TuningPlan(nic="eth0", items=[_offloads()]))
    assert f"  not possible: {NAMED}" in lines, lines


def test_tune_apply_outcome_names_the_refused_setting_in_words() -> None:
    item = _offloads()
    shown = outcome(judge(item, [Written(item.changes[0], 0, None, "on")]))
    assert shown.status == "applied"
    assert f"(not possible here: {NAMED})" in outcome_line(shown), outcome_line(shown)


def test_a_refused_file_is_still_said_as_the_kernels_answer() -> None:
    """A file of /proc or /sys keeps its path in the detail, which reads its refusal as the
    kernel's answer (detail_words), not the file's name."""
    path = "/proc/irq/46/smp_affinity"
    item = PlannedTweak(catalog.tweak("irq-affinity"), True, "spread",
                        impossible=[(path, "Invalid argument")])  # fmt: skip
    line = outcome_line(outcome(judge(item, [])))
    assert line.endswith("the kernel answered “Invalid argument”"), line
