"""Issue 21 over SSH: the Pi 5 lab (macb on RP1) is never kinder than the kernel it may be.
macb's RP1 coalescing is carried from rpi-6.18.y on (driver_caps.json, inferred from code) and
unknown on older branches or without a kernel version, where the lab's `ethtool -c/-C` answers
"Operation not supported"; the one-click flow with interrupt coalescing ticked still runs to its
results, and the user reads that this kernel does not support it, as not possible, in plain
words (Results and `tune plan`). A 6.18 profile answers as gem_get/set_coalesce.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from sbctune.advice.inspect import inspect_host
from sbctune.history import History
from sbctune.lab.model import LabInfo
from sbctune.measure.plans import plan_named
from sbctune.workflow import FlowEvent, FlowOptions, FlowStep, one_click
from sbctune.workflow.tuning_words import outcome_line
from tests.lab_profiles import profile_copy
from tests.lab_support import cli_connected, cli_output, connect_to_lab, in_lab
from tests.plain_words import jargon

pytestmark = [pytest.mark.lab]

COALESCING = "Interrupt coalescing"
ONE_TRIAL = plan_named("quick").with_overrides(duration=2, omit=1, trials=1)


def _pi5_on(tmp_path: Path, kernel: str) -> str:
    """The Pi 5 profile with `[lab] kernel` set: the kernel its uname and its macb answer as."""
    return str(profile_copy(tmp_path, "pi5-macb", f"pi5-{kernel.split('+')[0]}", kernel=kernel))


@pytest.mark.parametrize("kernel", [None, "6.12.55+rpt-rpi-2712"])
def test_the_pi5_lab_refuses_coalescing_on_a_kernel_not_known_to_carry_it(
    lab_factory: Callable[..., LabInfo], tmp_path: Path, kernel: str | None
) -> None:
    lab = lab_factory(_pi5_on(tmp_path, kernel) if kernel else "pi5-macb")
    shown = in_lab(lab, "ethtool -c eth0 2>&1; echo exit=$?")
    assert "Operation not supported" in shown and shown.strip().endswith("exit=1"), shown
    changed = in_lab(lab, "ethtool -C eth0 rx-usecs 52 2>&1; echo exit=$?")
    assert "Operation not supported" in changed and not changed.strip().endswith("exit=0")


def test_the_pi5_lab_on_618_answers_as_gem_coalescing(
    lab_factory: Callable[..., LabInfo], tmp_path: Path
) -> None:
    """rpi-6.18.y carries gem_get/set_coalesce: 50 us set at open reads back 49 (62 ticks of
    0.8 us), 52 is stored as 65 ticks and reads back 52 (before: "Operation not supported")."""
    lab = lab_factory(_pi5_on(tmp_path, "6.18.39+rpt-rpi-2712"))
    shown = in_lab(lab, "ethtool -c eth0 2>&1; echo exit=$?")
    assert "rx-usecs:\t49" in shown.replace(": ", ":\t") and shown.strip().endswith("exit=0"), shown
    changed = in_lab(lab, "ethtool -C eth0 rx-usecs 52 2>&1; echo exit=$?")
    assert changed.strip().endswith("exit=0"), changed
    assert "rx-usecs:\t52" in in_lab(lab, "ethtool -c eth0").replace(": ", ":\t")


@pytest.mark.slow
async def test_one_click_with_coalescing_ticked_says_this_kernel_does_not_support_it(
    lab_factory: Callable[..., LabInfo], tmp_path: Path
) -> None:
    lab = lab_factory("pi5-macb")
    events: list[FlowEvent] = []
    history = History.open(tmp_path / "history.sqlite")
    with history:
        async with await connect_to_lab(lab, tmp_path) as session:
            inventory, collection = await inspect_host(session)
            options = FlowOptions(plan=ONE_TRIAL, nic=lab.test_nic.name, guard_seconds=30,
                                  tweak_ids=("irq-coalescing", "socket-buffers"))  # fmt: skip
            result = await one_click(session, inventory, options, history,
                                     on_event=events.append, collection=collection)  # fmt: skip
            coalescing = in_lab(lab, "ethtool -c eth0 2>&1; echo exit=$?")
    steps = [(e.step, e.status) for e in events if isinstance(e, FlowStep)]
    assert steps[0] == ("baseline", "started") and steps[-1] == ("results", "done"), steps
    (outcome,) = [o for o in result.tuning_outcomes if o.tweak_id == "irq-coalescing"]
    assert outcome.status == "not_possible" and outcome.changes == [], outcome
    line = outcome_line(outcome)  # what Results shows
    assert line.startswith(f"{COALESCING}: not possible"), line
    assert "does not support interrupt coalescing" in line, line
    assert "Operation not supported" in line and not jargon(line), (line, jargon(line))
    assert "Operation not supported" in coalescing  # nothing changed it


def test_tune_plan_says_this_kernel_does_not_support_coalescing(
    lab_factory: Callable[..., LabInfo],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    lab = lab_factory("pi5-macb")
    pi = cli_connected(lab, tmp_path, monkeypatch, capsys)
    plan = cli_output(["tune", "plan", pi, "--tweak", "irq-coalescing"], capsys)
    lines = plan.splitlines()
    at = next(i for i, x in enumerate(lines) if x.startswith(f"{COALESCING}:"))
    assert lines[at].startswith(f"{COALESCING}: not possible here"), plan
    why = "this Pi's kernel (its version unknown) does not support interrupt coalescing on macb"
    assert why in lines[at + 1], plan
    assert "Operation not supported" in lines[at + 1], plan
