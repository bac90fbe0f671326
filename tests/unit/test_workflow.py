"""sbctune.workflow without Qt and without the CLI: the shared rules, the error mapping, the
typed state's transitions and the step loop of the one-click flow."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from typing import Any

import pytest

from sbctune.errors import UserError
from sbctune.history import History
from sbctune.inventory.model import Inventory, Nic
from sbctune.measure.install import InstallPlan, InstallStep, Iperf3NotInstalled
from sbctune.measure.plans import plan_named
from sbctune.remote import HostKeyChanged
from sbctune.tuning import AppliedSession, TweakOutcome
from sbctune.workflow import (
    FLOW_STEPS,
    FlowContext,
    FlowOptions,
    FlowStep,
    StepOutcome,
    StepSpec,
    WorkflowState,
    problem_from,
    rules,
    run_steps,
)
from sbctune.workflow.connecting import default_nic

APT = InstallPlan(
    "Debian GNU/Linux 12", "apt-get", (InstallStep(("apt-get", "install", "-y", "iperf3")),)
)


def _applied(*statuses: str) -> AppliedSession:
    outcomes = [TweakOutcome(f"t{i}", s) for i, s in enumerate(statuses)]  # type: ignore[arg-type]
    return AppliedSession("s1", guard_deadline=0.0, outcomes=outcomes)


# ---------------------------------------------------------------------- tweaks in force
def test_tweaks_in_force_only_while_guarded_or_confirmed() -> None:
    applied = _applied("applied", "already", "failed", "not_possible")
    assert rules.kept_tweaks(applied) == ["t0", "t1"]
    for state in ("guarded", "confirmed"):
        # "already" was so before the session: not named as its tuning (walk 15, problem 3)
        assert rules.run_tuning_state(applied, state) == {"session": "s1", "tweaks": ["t0"]}
        advice = rules.advice_tuning(applied, state)
        assert advice is not None and [t["id"] for t in advice["tweaks"]] == [
            "t0",
            "t1",
            "t2",
            "t3",
        ]
    assert rules.run_tuning_state(applied, "reverted") is None
    assert rules.advice_tuning(applied, None) is None
    assert rules.run_tuning_state(None, "confirmed") is None


def test_a_stored_runs_tweaks_are_what_advice_skips() -> None:
    stored = {"session": "s1", "tweaks": ["rps", 7, "governor"]}  # a stray non-id is ignored
    assert rules.advice_tuning_of_run(stored) == {
        "tweaks": [{"id": "rps", "status": "applied"}, {"id": "governor", "status": "applied"}]
    }
    assert rules.advice_tuning_of_run(None) is None
    assert rules.advice_tuning_of_run({"tweaks": []}) is None
    assert rules.kept_in_data([{"id": "a", "status": "already"}, {"id": "b", "status": "failed"}])
    assert rules.kept_in_data([{"id": "b", "status": "reverted"}]) == []


def test_state_says_which_tweaks_a_run_measured_with() -> None:
    state = WorkflowState()
    applied = _applied("applied", "failed")
    state.tuning_applied(applied)
    assert state.run_tuning_state() == {"session": "s1", "tweaks": ["t0"]}
    state.tuning_reverted()
    assert state.run_tuning_state() is None and not state.tuning_in_force


# ---------------------------------------------------------------------- problems
def test_a_changed_host_key_is_a_hard_stop() -> None:
    problem = problem_from(HostKeyChanged("pi", "ssh-ed25519", "SHA256:x", "~/.ssh/known_hosts"))
    assert problem.hard_stop and "CHANGED" in problem.message


def test_missing_iperf3_hint_depends_on_the_front_end() -> None:
    missing = Iperf3NotInstalled(APT)
    gui = problem_from(missing, "gui")
    cli = problem_from(missing, "cli")
    assert gui.message == cli.message and gui.message.startswith("iperf3 is not installed")
    assert "let sbctune install it" in gui.hint and "--install-iperf3" not in gui.hint
    assert "--install-iperf3" in cli.hint


def test_errors_become_what_the_user_is_told() -> None:
    assert problem_from(UserError("No route.", "Check the cable.")).hint == "Check the cable."
    timeout = problem_from(asyncio.TimeoutError())
    assert timeout.message == "The operation timed out." and timeout.expected
    bug = problem_from(ValueError("boom"))
    assert not bug.expected and "report" in bug.hint


# ---------------------------------------------------------------------- keep a partial run
def test_nothing_measured_keeps_nothing(tmp_path: Any) -> None:
    with History.open(tmp_path / "h.sqlite") as history:
        assert rules.keep_partial(history, None, None, plan_named("quick")) is None  # type: ignore[arg-type]
        assert history.devices() == []


# ---------------------------------------------------------------------- install then retry
async def test_declining_the_install_changes_nothing() -> None:
    asked: list[InstallPlan] = []
    attempts = 0

    async def no(plan: InstallPlan) -> bool:
        asked.append(plan)
        return False

    async def attempt() -> int:
        nonlocal attempts
        attempts += 1
        raise Iperf3NotInstalled(APT)

    with pytest.raises(Iperf3NotInstalled):
        await rules.offering_install(None, no, print, attempt)  # type: ignore[arg-type]
    assert asked == [APT] and attempts == 1


async def test_no_package_manager_means_no_question() -> None:
    asked: list[InstallPlan] = []

    async def yes(plan: InstallPlan) -> bool:
        asked.append(plan)
        return True

    async def attempt() -> int:
        raise Iperf3NotInstalled(InstallPlan("Mystery OS", None, ()))

    with pytest.raises(Iperf3NotInstalled):
        await rules.offering_install(None, yes, print, attempt)  # type: ignore[arg-type]
    assert asked == []


# ---------------------------------------------------------------------- state transitions
def test_transitions_announce_what_changed_and_forget_old_figures() -> None:
    state = WorkflowState()
    seen: list[str] = []
    state.subscribe(seen.append)
    inventory = Inventory(nics=[Nic("eth0"), Nic("eth1")])
    state.inspected(inventory, 7, "eth0")
    assert seen == ["inventory", "nic", "results", "tuning"]
    assert state.selected_nic is inventory.nics[0] and state.inventory_id == 7
    state.tuning_applied(_applied("applied"))
    seen.clear()
    assert state.choose_nic("eth0") is False and seen == []
    assert state.choose_nic("eth1") is True
    assert seen == ["nic", "results", "tuning"]
    assert state.tuning is None and state.tuning_state is None and state.runs == []


def test_default_nic_prefers_the_route_then_wired() -> None:
    inventory = Inventory(nics=[Nic("wlan0", wireless=True), Nic("eth0"), Nic(None)])
    assert default_nic(inventory, "wlan0") == "wlan0"
    assert default_nic(inventory, "eth9") == "eth0"
    assert default_nic(Inventory(nics=[Nic("wlan0", wireless=True)]), None) == "wlan0"
    assert default_nic(Inventory(), None) is None


# ---------------------------------------------------------------------- the step loop
def _context(events: list[Any], **options: Any) -> FlowContext:
    return FlowContext(
        session=None,  # type: ignore[arg-type]  # these steps never reach the Pi
        inventory=Inventory(),
        inventory_id=1,
        options=FlowOptions(plan=plan_named("quick"), **options),
        history=None,  # type: ignore[arg-type]
        emit=events.append,
        nic="eth0",
    )


async def test_a_new_step_is_declared_once_and_runs_in_the_flow() -> None:
    async def latency(ctx: FlowContext) -> StepOutcome:
        ctx.extra["latency_ms"] = 0.4
        return StepOutcome("done", "0.4 ms")

    async def skipped(ctx: FlowContext) -> StepOutcome:
        raise AssertionError("a skipped step must not run")

    steps = (
        StepSpec("latency", "Latency test", latency),
        StepSpec("later", "Never", skipped, skip=lambda ctx: "not today"),
    )
    events: list[Any] = []
    ctx = _context(events)
    result = await run_steps(ctx, steps)
    flow = [(e.step, e.status, e.detail) for e in events if isinstance(e, FlowStep)]
    assert flow == [
        ("latency", "started", "Latency test"),
        ("latency", "done", "0.4 ms"),
        ("later", "skipped", "not today"),
    ]
    assert ctx.extra == {"latency_ms": 0.4} and result.runs == [] and result.tuning is None


async def test_a_failing_step_stops_the_flow_with_its_error() -> None:
    async def broken(ctx: FlowContext) -> StepOutcome:
        raise UserError("The Pi went away.", "Check its power.")

    events: list[Any] = []
    with pytest.raises(UserError):
        await run_steps(_context(events), (StepSpec("x", "X", broken),))
    assert [(e.step, e.status) for e in events] == [("x", "started")]


def test_the_flow_steps_skip_tuning_when_not_asked() -> None:
    ids = [s.id for s in FLOW_STEPS]
    assert ids == ["baseline", "tune", "measure_again", "keep", "results"]
    ctx = _context([], tune=False)
    reasons = {s.id: s.skip(ctx) for s in FLOW_STEPS}
    assert reasons == {
        "baseline": None,
        "tune": "tuning not requested",
        "measure_again": "nothing was changed",
        "keep": "nothing was changed",
        "results": None,
    }


def test_the_workflow_never_loads_qt() -> None:
    # Every public name (the package loads them on first use), the one-click flow among them.
    probe = "import sys; from sbctune.workflow import *; print('PySide6' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "False", out.stderr


# ---------------------------------------------------------------------- find my Pi
def test_find_looks_for_the_names_used_before_and_says_what_to_do(tmp_path: Any) -> None:
    from sbctune.workflow.finding import (
        MAX_SECONDS,
        find_options,
        names_used_before,
        nothing_found_hint,
    )

    with History.open(tmp_path / "h.sqlite") as history:
        history.add_device("kitchen-pi.local", 22, "pi")
        history.add_device("198.18.0.9", 22, "pi")
        names = names_used_before(history)
    assert names == ("kitchen-pi.local",)
    options = find_options(120, names_before=names)
    assert options.seconds == MAX_SECONDS and not options.scan
    assert options.known_names == ("raspberrypi.local", "kitchen-pi.local")
    assert "`sbctune find --scan` also probes port 22" in nothing_found_hint(
        False, "`sbctune find --scan`"
    )
    assert "router" in nothing_found_hint(True, "`sbctune find --scan`")


def test_a_device_is_named_by_its_host_name_else_its_board() -> None:
    """One rule for the window and the command line (the s13 walk)."""
    from sbctune.workflow.device_name import device_name

    assert device_name("raspberrypi\n", "Raspberry Pi 5 Model B Rev 1.0") == "raspberrypi"
    assert device_name("", "Raspberry Pi 5 Model B Rev 1.0") == "Raspberry Pi 5 Model B Rev 1.0"
    assert device_name(None, None) is None
    assert "\x1b" not in (device_name("pi\x1b[2J", None) or "")
    assert len(device_name("x" * 500, None) or "") == 60
