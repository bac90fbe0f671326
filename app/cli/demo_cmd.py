"""`sbctune demo [HOST]`: the main job, the one-click tune-and-measure, end to end.

With no host it brings up the virtual Pi lab (`pi4-ax88179`) and takes it down again whatever
happens. Either way it connects over real SSH, inspects, measures a baseline, applies the
recommended safe tweaks under the auto-revert guard, measures again, advises, and writes the
HTML report. Ctrl-C at any point stops the measurement on both sides and reverts the tuning.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING

from sbctune import tuning as tuning_api
from sbctune.advice.inspect import inspect_host
from sbctune.advice.report import render as render_advice
from sbctune.cli.arg_checks import int_range, interface_arg
from sbctune.cli.in_force import add_revert_first_argument, cli_hint, settle_before_baseline
from sbctune.cli.progress import interval_line, outcome_lines, say
from sbctune.cli.target_args import add_credential_arguments, open_session
from sbctune.compare import compare
from sbctune.compare.attribution import drift_words
from sbctune.compare.calibration import calibration_for
from sbctune.compare.words import verdict_lines
from sbctune.errors import UserError
from sbctune.export import export, gather
from sbctune.export.tables import comparison_table, contributions_table, text
from sbctune.history import History
from sbctune.history.run_tuning import changed_during_run
from sbctune.inventory.model import Inventory
from sbctune.inventory.report import render
from sbctune.measure.plans import plan_named, presets
from sbctune.measure.runner import LiveInterval, TestFinished, TestStarted, find_path
from sbctune.measure.steady import TrialsAdded
from sbctune.remote import Secret, Target
from sbctune.safefiles import check_output
from sbctune.tuning.words import tweak_title
from sbctune.wording import counted
from sbctune.workflow import (
    FlowEvent,
    FlowOptions,
    FlowResult,
    FlowStep,
    PartialKept,
    TuningEvent,
)
from sbctune.workflow.attributing import estimate_seconds, plan_seconds
from sbctune.workflow.baseline_check import before_after, is_fair_baseline
from sbctune.workflow.keeping import NOTHING_TO_GAIN
from sbctune.workflow.link_consent import (
    consent_detail,
    consented_link,
    dropping_text,
    held_before_run,
    held_note,
    held_text,
    plan_options,
)
from sbctune.workflow.steps import CALIBRATED_FLOW_STEPS, FIND_FLOW_STEPS, FLOW_STEPS

if TYPE_CHECKING:  # SSH (asyncssh) loads where a session is opened (issue 22)
    from sbctune.remote.session import Session

DEFAULT_PROFILE = "pi4-ax88179"
DEFAULT_REPORT = "sbctune-report.html"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "demo",
        help="the one-click tune & measure (against the virtual Pi lab when no Pi is given)",
        description="Inspect, measure a baseline, apply the recommended safe tweaks under the "
        "auto-revert guard, measure again, advise and write the HTML report.",
    )
    parser.add_argument(
        "target",
        nargs="?",
        metavar="[USER@]HOST[:PORT]",
        help="a real Pi; without it the virtual Pi lab is used (Linux, root)",
    )
    parser.add_argument(
        "--profile",
        default=DEFAULT_PROFILE,
        help=f"lab profile when no Pi is given (default {DEFAULT_PROFILE})",
    )
    parser.add_argument(
        "--plan",
        default="quick",
        choices=sorted(presets()),
        help="how thoroughly to measure (default quick; see “sbctune measure --help”)",
    )
    parser.add_argument(
        "--duration", type=int_range(1, 3600, "--duration"), help="seconds per test"
    )
    parser.add_argument(
        "--nic",
        type=interface_arg,
        help="the Pi's interface to test (default: the route to this PC)",
    )
    parser.add_argument("--no-tune", action="store_true", help="measure and advise only")
    parser.add_argument(
        "--calibrate",
        action="store_true",
        help="measure the baseline twice (A/A) first: the run-to-run spread of this Pi, which "
        "the before/after verdicts then use",
    )
    parser.add_argument(
        "--find",
        action="store_true",
        help="find what helps: measure each recommended tweak on its own and "
        "keep only those that helped beyond noise; takes one measurement per tweak",
    )
    parser.add_argument(
        "--allow-link-restart",
        action="store_true",
        help="also apply the tweaks that briefly drop the network link of the NIC this "
        "computer reaches the Pi through (rings on some drivers; energy saving and flow "
        "control on most); they are applied under the guard, which puts everything back if "
        "the Pi stops answering",
    )
    parser.add_argument(
        "--report",
        type=Path,
        default=None,
        help=f"where to write the HTML report (default ./{DEFAULT_REPORT}, refreshed by each "
        "demo; a file you name is replaced only with --force)",
    )
    parser.add_argument("--force", action="store_true", help="replace the --report file")
    add_revert_first_argument(parser, "the baseline")
    add_credential_arguments(parser)
    parser.set_defaults(func=_demo)


def _step(text: str) -> None:
    say(f"==> {text}")


class _Progress:
    """One line per flow step and per second of each test; tuning messages as they come."""

    def __call__(self, event: FlowEvent) -> None:
        if isinstance(event, FlowStep):
            mark = {"started": "==>", "done": "   ✓", "skipped": "   -", "failed": "   ✗"}
            say(f"{mark[event.status]} {event.detail}")
        elif isinstance(event, TuningEvent):
            say(f"    {event.message}")
        elif isinstance(event, PartialKept):
            say(f"    the tests measured so far are kept as run {event.record.id}, incomplete")
        elif isinstance(event, TestStarted):
            say(f"    test {event.test_index + 1}: {event.spec.label}")
        elif isinstance(event, TrialsAdded):
            for extra in event.extra:
                say(f"    {extra.why}")
        elif isinstance(event, LiveInterval):
            say(
                interval_line(event.direction, event.interval, f"{event.interval.mbps:7.1f} Mbit/s")
            )
        elif isinstance(event, TestFinished):
            for line in outcome_lines(event.outcomes):
                say(line)


async def _flow(session: Session, args: argparse.Namespace) -> FlowResult:
    from sbctune.workflow import one_click  # SSH and the flow: loaded when the demo runs

    _step(f"Inspecting {session.target.display}")
    started = time.perf_counter()
    inventory, collection = await inspect_host(session)
    _step(
        f"Inventory in {time.perf_counter() - started:.2f} s over "
        f"{collection.round_trips} SSH round trips"
    )
    print(render(inventory))
    plan = plan_named(args.plan).with_overrides(duration=args.duration)
    options = FlowOptions(plan=plan, nic=args.nic, tune=not args.no_tune, calibrate=args.calibrate,
                          allow_link_restart=args.allow_link_restart)  # fmt: skip
    steps = CALIBRATED_FLOW_STEPS if args.calibrate else FLOW_STEPS
    if not args.no_tune:
        # The NIC the flow tests: the one asked for, else the route to this PC (as one_click).
        nic = args.nic
        if nic is None:
            path = await find_path(session, None)
            nic = path.nic
            if path.note:  # eth0 under br0: the route names the bridge, the flow tests eth0
                _step(path.note)
        await _consent_lines(session, inventory, nic, args.allow_link_restart)
    if args.find:
        steps = FIND_FLOW_STEPS
        planned = await tuning_api.plan(session, inventory, args.nic, None,
                                        plan_options(args.allow_link_restart))  # fmt: skip
        count = sum(item.applicable for item in planned.items)
        _step(f"Find what helps: {counted(count, 'tweak')}, one measurement each, the "
              "baseline before and after, about "
              f"{(estimate_seconds(plan, count) + plan_seconds(plan)) / 60:.0f} min")  # fmt: skip
    with History.open() as history:
        # Tuning kept on the Pi would make the baseline the tuned speed (walk 14, problem 2).
        await settle_before_baseline(session, history, args.revert_first)
        result = await one_click(
            session, inventory, options, history, on_event=_Progress(), collection=collection,
            steps=steps,
        )  # fmt: skip
        _report(history, result, args.report, args.force, args.target)
    return result


async def _consent_lines(
    session: Session, inventory: Inventory, nic: str | None, agreed: bool
) -> None:
    """Before the run: the tweaks held back because they would drop the link this computer
    reaches the Pi through, and how to agree; with the consent, which ones will drop it."""
    if agreed:
        planned = await tuning_api.plan(session, inventory, nic, None, plan_options(True))
        dropping = [tweak_title(i.tweak.id) for i in consented_link(planned.items)]
        if dropping:
            _step(f"{dropping_text(dropping)} ({consent_detail()})")
        return
    held = await held_before_run(session, inventory, nic)
    if held:
        _step(held_text(tweak_title(i.tweak.id) for i in held))
        say(f"    {HINT}")


HINT = "To apply them too: add --allow-link-restart."


def _report(
    history: History, result: FlowResult, path: Path, force: bool, target: str | None = None
) -> None:
    print()
    comparison = compare(result.runs, calibration_for(history, result.runs))
    print(text(comparison_table(comparison)))
    for line in verdict_lines(comparison):
        print(line)
    first = result.baseline
    if first is not None and not is_fair_baseline(first) and not changed_during_run(first):
        hint = cli_hint("demo", target)  # the Pi as the user typed it (walk 27)
        print("WARNING: " + before_after(result.baseline, result.after, hint).note)
    if result.keep is not None:
        print(f"Tuning: {result.keep.reason}")
    if result.held_for_link:
        print(held_note(result.held_for_link))
        print(HINT)
    steps = result.attribution.contributions if result.attribution else []
    if result.attribution is not None:
        print("\nWhat each tweak did on its own (vs the baseline, 95 % intervals):")
        print(text(contributions_table(steps)))
        if moved := drift_words(steps):
            print(moved)
        for tweak, why in result.attribution.not_measured.items():
            print(f"{tweak_title(tweak)}: {why}")
        kept = [tweak_title(t) for t in result.attribution.helpful]
        print("Kept: " + (", ".join(kept) or NOTHING_TO_GAIN))
    print()
    if result.advice is not None:
        print(render_advice(result.advice, "What limits this Pi, and what to do"))
    ids = [r.id for r in result.runs if r.id is not None]
    told_apart = result.attribution.run_ids() if result.attribution else []
    ids += [i for i in told_apart if i not in ids]
    try:
        written = export("html", gather(history, ids), path, overwrite=force)
    except UserError as exc:
        runs = " ".join(map(str, ids))
        raise UserError(
            f"The report could not be written: {exc.message}",
            f"The runs are kept in the history: “sbctune export {runs} -f html -o FILE” "
            "writes the report elsewhere.",
        ) from None
    _step(f"Report written to {written.resolve()} (runs {', '.join(map(str, ids))} in history)")


def _demo(args: argparse.Namespace) -> int:
    # The demo's own report is refreshed by each demo; a file the user named is kept unless
    # --force. The report comes last, after minutes of measuring: a place it cannot go (or
    # may not replace) fails now.
    args.force = args.force or args.report is None
    args.report = args.report or Path(DEFAULT_REPORT)
    check_output(args.report, overwrite=args.force, option="--report")
    if args.target:

        async def real() -> None:
            async with await open_session(args) as session:
                await _flow(session, args)

        asyncio.run(real())
        return 0

    from sbctune.cli.lab_cmd import import_lab

    lab = import_lab()  # the lab is Linux-only; imported only when used

    lab_name = f"demo-{os.getpid()}"

    _step(f"Bringing up the virtual Pi lab (profile {args.profile})")
    try:
        # A name of its own, so two demos on one machine do not take each other's lab.
        info = lab.up(args.profile, name=lab_name)
    except lab.LabError as exc:
        raise UserError(f"The virtual Pi lab could not start: {exc}", lab_hint()) from None
    try:
        _step(f"Lab up: ssh {info.user}@{info.host} (password {info.password})")
        target = Target(info.host, info.port, info.user, password=Secret(info.password))
        from sbctune.remote import KnownHosts, Session  # SSH: loaded when the demo runs

        # Every lab has a fresh host key: trust it in a file of its own, never the user's.
        known = KnownHosts(read_from=[], write_to=Path(info.state_dir) / "demo_known_hosts")

        async def in_lab() -> None:
            session = await Session.connect(target, known_hosts=known, accept_new_host_key=True)
            async with session:
                await _flow(session, args)

        asyncio.run(in_lab())
    finally:
        _step("Taking the lab down")
        lab.down(lab_name)
    return 0


def lab_hint() -> str:
    return "The lab needs Linux, root, iperf3 and OpenSSH: run “bash scripts/demo.sh” as root."
